//! The functional SFPU simulator (tensix.md §1–§3, §4.3; TTSIM `tensix.cpp` SFPU section): 32
//! lanes, LRegs with their constants, lane enables, per-lane flags and the CC stack, every
//! instruction's semantics, the WH/BH SFPMAD models, and Dst access through
//! [`Dest`](super::dest::Dest) with the Mod0 conversions of [`formats`](super::formats).
//!
//! Invariants:
//! * Lane state is held as `[u32; 32]` arrays and 32-bit lane masks; every instruction is one pass
//!   over the lanes (no per-lane allocation or dynamic dispatch).
//! * Anything the sources leave undefined, non-contractual or unmodelled is a [`SimError`], never
//!   a guessed value: reading an LReg lane that was never written, modes outside the supported set
//!   (`SimConfig::strict`, D1: TTSIM's accepted modes plus the OPEN Q3 list), stack over/underflow,
//!   odd Dst addresses; SFPLOADMACRO hazards (tensix.md §6.4) are [`SimError::Macro`].
//! * Nothing panics on any program or Dst content.

mod batch;
pub mod cycle;
mod exec;
pub mod fma;
pub mod kernel;
mod macro_engine;
#[cfg(test)]
mod test_support;

pub use macro_engine::{unit_of, with_vd, MacroHazard, Unit};

pub use batch::{run_batch, run_batch_into, BatchError, BatchLayout};

use super::dest::{Dest, DestError};
use super::formats::{DataFormat, DstConfig, Mod0};
use super::isa::{Arch, DecodeError, EncodeError, Program};

/// The LRegs `insn` reads, as a bit mask (bit `r` = L`r`), as the simulator's hazard checks see
/// them (a compiler's dependency analysis uses the same sets).
pub fn register_reads(insn: &super::isa::Insn) -> u32 {
    exec::insn_reads(insn).0
}

/// The registers whose pending MAD-class result the Blackhole interlock sees `insn` read (it
/// stalls for those only; a read outside this set in the next cycle is a `MadHazard`).
pub fn bh_stall_reads(insn: &super::isa::Insn) -> u32 {
    exec::insn_reads(insn).1
}

/// Number of SFPU lanes.
pub const LANES: usize = 32;
/// Depth of the per-lane flag stack.
pub const STACK_DEPTH: usize = 8;

/// Errors (all carry the program counter `pc` of the faulting instruction).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// A mode outside the modelled set (TTSIM rejects it; D1) or not implemented here.
    #[error("pc {pc}: {mnemonic}: unmodelled: {what}")]
    Unmodelled {
        pc: usize,
        mnemonic: &'static str,
        what: String,
    },
    /// Behaviour the ISA declares undefined.
    #[error("pc {pc}: {mnemonic}: undefined behaviour: {what}")]
    Undefined {
        pc: usize,
        mnemonic: &'static str,
        what: &'static str,
    },
    /// Behaviour the ISA declares non-contractual.
    #[error("pc {pc}: {mnemonic}: non-contractual behaviour: {what}")]
    NonContractual {
        pc: usize,
        mnemonic: &'static str,
        what: &'static str,
    },
    /// Enabled lanes read an LReg that was never written in them.
    #[error("pc {pc}: read of uninitialised L{reg} in lanes {lanes:#010x}")]
    Uninitialised { pc: usize, reg: usize, lanes: u32 },
    /// SFPSETCC / SFPCOMPC with UseLaneFlags false (D7; TTSIM rejects it).
    #[error("pc {pc}: {mnemonic} with lane flags disabled (CcDisabled)")]
    CcDisabled { pc: usize, mnemonic: &'static str },
    /// Push onto a full flag stack.
    #[error("pc {pc}: flag stack overflow")]
    StackOverflow { pc: usize },
    /// Pop from (or modify the top of) an empty flag stack.
    #[error("pc {pc}: flag stack underflow")]
    StackUnderflow { pc: usize },
    /// A Dst access failed (odd address, unpredictable cell, format error).
    #[error("pc {pc}: Dst access: {source}")]
    Dest { pc: usize, source: DestError },
    /// An address mode whose Dst increment was never configured.
    #[error("pc {pc}: ADDR_MOD_{addr_mod} is not configured")]
    AddrMod { pc: usize, addr_mod: u8 },
    /// A regular instruction with VD ≥ 12 (backdoor template write) while backdoor writes are not
    /// declared (`SimConfig::allow_backdoor`).
    #[error("pc {pc}: backdoor write to InstructionTemplate[{template}] (VD ≥ 12)")]
    Backdoor { pc: usize, template: u8 },
    /// Lanes hold different values where the hardware state is lane-uniform (SFPCONFIG source).
    #[error("pc {pc}: {mnemonic}: L0 is not lane-uniform (ConfigNotUniform)")]
    ConfigNotUniform { pc: usize, mnemonic: &'static str },
    /// SFPCONFIG with some lanes disabled (TTSIM requires all lanes enabled).
    #[error("pc {pc}: {mnemonic} requires all lanes enabled")]
    LanesDisabled { pc: usize, mnemonic: &'static str },
    /// On Wormhole the instruction after a cross-lane SFPSHFT2 reads its result or is one of the
    /// simple-unit instructions ISA-WH `SFPSHFT2.md` forbids in that cycle (insert SFPNOP).
    #[error("pc {pc}: {mnemonic} right after a cross-lane SFPSHFT2 on Wormhole (insert SFPNOP)")]
    ShuffleHazard { pc: usize, mnemonic: &'static str },
    /// On Wormhole a MAD-class result is read by the next instruction (no interlock, §7).
    #[error("pc {pc}: reads L{reg} written by the MAD-class instruction just before (MadHazard)")]
    MadHazard { pc: usize, reg: usize },
    /// The instruction does not exist on this arch.
    #[error("pc {pc}: {mnemonic} does not exist on {arch}")]
    NotOnArch {
        pc: usize,
        mnemonic: &'static str,
        arch: &'static str,
    },
    /// Stochastic rounding or PRNG reads without a seeded PRNG.
    #[error("pc {pc}: {mnemonic} uses the PRNG, which has no defined state (seed it first)")]
    PrngUnseeded { pc: usize, mnemonic: &'static str },
    /// The instruction could not be re-encoded (backdoor template write).
    #[error("pc {pc}: {source}")]
    Encode { pc: usize, source: EncodeError },
    /// A SFPLOADMACRO hazard or configuration error (tensix.md §6.4).
    #[error("pc {pc}: SFPLOADMACRO: {hazard}")]
    Macro { pc: usize, hazard: MacroHazard },
    /// A word could not be decoded.
    #[error("word {index}: {source}")]
    Decode { index: usize, source: DecodeError },
}

impl SimError {
    /// The program counter of the faulting instruction (`None` for a word that did not decode).
    pub fn pc(&self) -> Option<usize> {
        use SimError as E;
        match *self {
            E::Unmodelled { pc, .. }
            | E::Undefined { pc, .. }
            | E::NonContractual { pc, .. }
            | E::Uninitialised { pc, .. }
            | E::CcDisabled { pc, .. }
            | E::StackOverflow { pc }
            | E::StackUnderflow { pc }
            | E::Dest { pc, .. }
            | E::AddrMod { pc, .. }
            | E::Backdoor { pc, .. }
            | E::ConfigNotUniform { pc, .. }
            | E::LanesDisabled { pc, .. }
            | E::ShuffleHazard { pc, .. }
            | E::MadHazard { pc, .. }
            | E::NotOnArch { pc, .. }
            | E::PrngUnseeded { pc, .. }
            | E::Encode { pc, .. }
            | E::Macro { pc, .. } => Some(pc),
            E::Decode { .. } => None,
        }
    }
}

/// Simulator options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimConfig {
    /// D1: only modes TTSIM accepts (plus the OPEN Q3 list) execute; others are `Unmodelled`.
    /// When false, modes documented only by the ISA pages also execute.
    pub strict: bool,
    /// Whether regular instructions with VD ≥ 12 may write macro templates (init code).
    pub allow_backdoor: bool,
    /// Resolution of load/store Mod0 0 (§4.5, §4.7 `--dest`).
    pub dst: DstConfig,
}

impl Default for SimConfig {
    fn default() -> SimConfig {
        SimConfig {
            strict: true,
            allow_backdoor: false,
            dst: DstConfig {
                sfpu_fp32: true,
                srcb_format: DataFormat::Float16B,
            },
        }
    }
}

/// Execution counts of one or more runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Instructions executed (each counts once, whatever its lane mask).
    pub instructions: u64,
    /// SFPU issue cycles: instructions plus hardware auto-stall cycles (BH MAD dependency,
    /// SFPSWAP / cross-lane SFPSHFT2 followed by a non-NOP).
    pub cycles: u64,
    /// The auto-stall cycles included in `cycles`.
    pub stalls: u64,
}

/// Macro configuration state written by SFPCONFIG or backdoor writes (§6.1); `None` = never
/// written (no documented reset value).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MacroConfig {
    /// `InstructionTemplate[4]`.
    pub templates: [Option<u32>; 4],
    /// `Sequence[4]`.
    pub sequences: [Option<u32>; 4],
    /// `Misc` (12 bits).
    pub misc: Option<u16>,
}

/// The SFPU of one Tensix thread (`Machine::default()` is a Blackhole machine).
#[derive(Debug, Clone)]
pub struct Machine {
    arch: Arch,
    cfg: SimConfig,
    /// LReg[0..=16] per lane.
    lreg: [[u32; LANES]; 17],
    /// Per register, the lanes holding a defined value.
    init: [u32; 17],
    /// LaneFlags (bit per lane).
    cc: u32,
    /// UseLaneFlagsForLaneEnable (bit per lane).
    cc_en: u32,
    /// Flag stack entries `(LaneFlags, UseLaneFlags)`; depth is lane-uniform.
    stack: [(u32, u32); STACK_DEPTH],
    sp: usize,
    /// LaneConfig (lane-uniform; only DISABLE_BACKDOOR_LOAD, EXCHANGE_SRCB_SRCC and ROW_MASK
    /// are modelled).
    lane_config: u32,
    prng: Option<[u32; LANES]>,
    macro_cfg: MacroConfig,
    /// RWC.Dst (10 bits).
    rwc_dst: u16,
    /// `DEST_TARGET_REG_CFG_MATH_Offset + DEST_REGW_BASE_Base`.
    dst_base: u16,
    /// Dst increment per address mode (`None` = unconfigured).
    addr_mods: [Option<u16>; 8],
    /// Registers written by the previous instruction if it was MAD-class (hazard tracking).
    mad_pending: u32,
    /// The previous instruction needs a free following cycle (SFPSWAP, cross-lane SFPSHFT2).
    busy_next: bool,
    /// Wormhole: VD of a cross-lane SFPSHFT2 issued in the previous cycle.
    wh_shuffle: Option<u8>,
    /// REPLAY buffer (32 entries per thread; `None` = never recorded).
    replay_buf: [Option<super::isa::Insn>; 32],
    /// Active REPLAY recording: `(next slot, instructions left, also execute)`.
    recording: Option<(usize, usize, bool)>,
    /// SFPLOADMACRO pending queues and hazard tracking.
    macro_state: macro_engine::MacroState,
    /// An SFPLOADMACRO was executed (pre-decoded issue then also runs the engine cycle hook).
    macro_seen: bool,
    /// The last program lowered into pre-decoded ops (cache of `run_body`).
    lowered: exec::Lowered,
    /// Macro programs run through cached expansions (`macro_engine::expand`); off = the
    /// step-by-step engine only ([`Machine::set_macro_fast_path`]).
    macro_fast: bool,
    /// Expanded macro program runs (cache of `run_body` / `run_rows`).
    exp_cache: macro_engine::expand::ExpCache,
    stats: Stats,
}

/// LaneConfig bit: DISABLE_BACKDOOR_LOAD.
pub const LC_DISABLE_BACKDOOR: u32 = 1 << 1;
/// LaneConfig bit: EXCHANGE_SRCB_SRCC (SFPSWAP inverts its comparison).
pub const LC_EXCHANGE_SRCB_SRCC: u32 = 1 << 8;
/// LaneConfig bits: ROW_MASK.
pub const LC_ROW_MASK: u32 = 0xF << 12;
const LC_MODELLED: u32 = LC_DISABLE_BACKDOOR | LC_EXCHANGE_SRCB_SRCC | LC_ROW_MASK;

impl Default for Machine {
    fn default() -> Machine {
        Machine::new(Arch::Bh)
    }
}

impl Machine {
    /// A machine in the reset state of `arch` with the default configuration: constants
    /// L8/L9/L10/L15 set, everything else undefined, lane flags off, empty stack, tt-llk's
    /// typecast address modes (BH: ADDR_MOD_7 +0, ADDR_MOD_6 +2; WH: ADDR_MOD_3 +0, ADDR_MOD_2 +2).
    pub fn new(arch: Arch) -> Machine {
        Machine::with_config(arch, SimConfig::default())
    }

    /// As [`Machine::new`] with explicit options.
    pub fn with_config(arch: Arch, cfg: SimConfig) -> Machine {
        let mut lreg = [[0u32; LANES]; 17];
        let mut init = [0u32; 17];
        lreg[8] = [0x3F56_594B; LANES];
        lreg[9] = [0; LANES];
        lreg[10] = [0x3F80_0000; LANES];
        for (l, v) in lreg[15].iter_mut().enumerate() {
            *v = 2 * l as u32;
        }
        for r in [8usize, 9, 10, 15] {
            init[r] = !0;
        }
        let mut addr_mods = [None; 8];
        match arch {
            Arch::Bh => {
                addr_mods[7] = Some(0);
                addr_mods[6] = Some(2);
            }
            Arch::Wh => {
                addr_mods[3] = Some(0);
                addr_mods[2] = Some(2);
            }
        }
        Machine {
            arch,
            cfg,
            lreg,
            init,
            cc: 0,
            cc_en: 0,
            stack: [(0, 0); STACK_DEPTH],
            sp: 0,
            lane_config: 0,
            prng: None,
            macro_cfg: MacroConfig::default(),
            rwc_dst: 0,
            dst_base: 0,
            addr_mods,
            mad_pending: 0,
            busy_next: false,
            wh_shuffle: None,
            replay_buf: [None; 32],
            recording: None,
            macro_state: macro_engine::MacroState::default(),
            macro_seen: false,
            lowered: exec::Lowered::default(),
            macro_fast: true,
            exp_cache: macro_engine::expand::ExpCache::default(),
            stats: Stats::default(),
        }
    }

    /// Puts the machine back in the state [`Machine::with_config`] creates (same arch and
    /// options), keeping its caches of pre-decoded and expanded programs — which depend only on
    /// their keys — so that a batch of chunks reuses them.
    pub fn reset(&mut self) {
        let fresh = Machine::with_config(self.arch, self.cfg);
        let lowered = std::mem::take(&mut self.lowered);
        let exp_cache = std::mem::take(&mut self.exp_cache);
        let macro_fast = self.macro_fast;
        *self = Machine {
            lowered,
            exp_cache,
            macro_fast,
            ..fresh
        };
    }

    /// A copy of the machine's state without its caches of pre-decoded and expanded programs:
    /// cheap to keep and to [`Machine::restore`] from (e.g. the state init left, which every
    /// chunk of a batch starts from).
    pub fn snapshot(&self) -> Machine {
        Machine {
            lowered: exec::Lowered::default(),
            exp_cache: macro_engine::expand::ExpCache::default(),
            ..self.clone()
        }
    }

    /// Puts the state of `snap` back (as if `*self = snap.clone()`), keeping this machine's
    /// caches — which depend only on their keys — and its issue path choice.
    pub fn restore(&mut self, snap: &Machine) {
        let lowered = std::mem::take(&mut self.lowered);
        let exp_cache = std::mem::take(&mut self.exp_cache);
        let macro_fast = self.macro_fast;
        *self = Machine {
            lowered,
            exp_cache,
            macro_fast,
            ..snap.snapshot()
        };
    }

    /// The arch.
    pub fn arch(&self) -> Arch {
        self.arch
    }

    /// The options.
    pub fn config(&self) -> &SimConfig {
        &self.cfg
    }

    /// Establishes the D7 kernel state: UseLaneFlags and LaneFlags true in all lanes, empty
    /// stack (what `SFPENCC 3, 0, 0, 10` does, plus clearing the stack).
    pub fn enter_kernel_state(&mut self) {
        self.cc = !0;
        self.cc_en = !0;
        self.sp = 0;
    }

    /// Configures the Dst increment of an address mode (`incr` is added to RWC.Dst).
    pub fn set_addr_mod(&mut self, index: u8, incr: Option<u16>) {
        if let Some(slot) = self.addr_mods.get_mut(usize::from(index)) {
            *slot = incr;
        }
    }

    /// RWC.Dst.
    pub fn rwc_dst(&self) -> u16 {
        self.rwc_dst
    }

    /// Sets RWC.Dst (e.g. the per-face `SETRWC` of tt-llk).
    pub fn set_rwc_dst(&mut self, v: u16) {
        self.rwc_dst = v & 0x3FF;
    }

    /// Sets the constant part of the Dst address (math offset + REGW base).
    pub fn set_dst_base(&mut self, v: u16) {
        self.dst_base = v & 0x3FF;
    }

    /// LReg `r` (0..=16), all lanes (values of undefined lanes are unspecified).
    pub fn lreg(&self, r: usize) -> Option<&[u32; LANES]> {
        self.lreg.get(r)
    }

    /// The lanes of LReg `r` that hold a defined value.
    pub fn lreg_defined(&self, r: usize) -> u32 {
        self.init.get(r).copied().unwrap_or(0)
    }

    /// Writes L0..L7 directly (test setup; the hardware equivalent is SFPLOADI/SFPLOAD).
    pub fn set_lreg(&mut self, r: usize, v: [u32; LANES]) -> bool {
        if r < 8 {
            self.lreg[r] = v;
            self.init[r] = !0;
            true
        } else {
            false
        }
    }

    /// LaneFlags (bit per lane).
    pub fn lane_flags(&self) -> u32 {
        self.cc
    }

    /// UseLaneFlagsForLaneEnable (bit per lane).
    pub fn use_lane_flags(&self) -> u32 {
        self.cc_en
    }

    /// Flag stack depth.
    pub fn stack_depth(&self) -> usize {
        self.sp
    }

    /// The enabled lanes (`LaneEnabled`, §1.2).
    pub fn lane_enabled(&self) -> u32 {
        let rm = (self.lane_config & LC_ROW_MASK) >> 12;
        // Spread ROW_MASK bit `row` over the 8 lanes of that row (branch-free).
        let masked = ((rm & 1) * 0xFF)
            | ((rm >> 1 & 1) * 0xFF00)
            | ((rm >> 2 & 1) * 0xFF_0000)
            | ((rm >> 3 & 1) * 0xFF00_0000);
        (!self.cc_en | self.cc) & !masked
    }

    /// Macro configuration state.
    pub fn macro_config(&self) -> &MacroConfig {
        &self.macro_cfg
    }

    /// LaneConfig.
    pub fn lane_config(&self) -> u32 {
        self.lane_config
    }

    /// Seeds the per-lane PRNG (needed only by stochastic modes and `SFPMOV` PRNG reads; no
    /// reset state is documented). Lane `l` gets a distinct state derived from `seed` by stepping
    /// the LFSR.
    pub fn seed_prng(&mut self, seed: u32) {
        let mut s = seed;
        let mut st = [0u32; LANES];
        for _ in 0..32 {
            s = exec::prng_step(s);
        }
        for slot in st.iter_mut().rev() {
            s = exec::prng_step(exec::prng_step(s));
            *slot = s;
        }
        self.prng = Some(st);
    }

    /// Accumulated counts.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Runs `prog` once from its first instruction (state carries over between runs).
    pub fn run(&mut self, prog: &Program, dst: &mut Dest) -> Result<Stats, SimError> {
        let before = self.stats;
        self.run_body(prog, dst)?;
        Ok(self.since(before))
    }

    /// Runs `body` `rows` times, establishing the D7 kernel state before each iteration (§4.7
    /// "row state"), as tt-llk's `for (d = 0; d < ITERATIONS; d++)` loop does.
    pub fn run_rows(
        &mut self,
        body: &Program,
        dst: &mut Dest,
        rows: usize,
    ) -> Result<Stats, SimError> {
        let before = self.stats;
        if self.wants_expansion(body) {
            self.run_expanded(body, dst, rows, true)?;
            return Ok(self.since(before));
        }
        let low = self.take_lowered(body);
        let res = self.issue_rows(&low, dst, rows, true);
        self.put_lowered(low);
        res.map(|()| self.since(before))
    }

    /// Chooses how macro programs run: `true` (the default) expands each run of a program that
    /// issues SFPLOADMACRO once into a pre-decoded stream in which the scheduled instructions
    /// appear where they execute, and reuses it (`macro_engine::expand`); `false` runs them on
    /// the step-by-step engine. Both give the same Dst, registers, counts and errors; the
    /// switch exists for the tests that check so and for debugging.
    pub fn set_macro_fast_path(&mut self, on: bool) {
        self.macro_fast = on;
    }

    fn since(&self, before: Stats) -> Stats {
        Stats {
            instructions: self.stats.instructions - before.instructions,
            cycles: self.stats.cycles - before.cycles,
            stalls: self.stats.stalls - before.stalls,
        }
    }

    /// Runs `prog` once through its pre-decoded form ([`exec::Lowered`], cached per machine).
    fn run_body(&mut self, prog: &Program, dst: &mut Dest) -> Result<(), SimError> {
        if self.wants_expansion(prog) {
            return self.run_expanded(prog, dst, 1, false);
        }
        let low = self.take_lowered(prog);
        let res = self.issue_ops(&low, dst);
        self.put_lowered(low);
        res
    }

    /// Issues one instruction of the stream through the REPLAY expander (ISA-WH `REPLAY.md`):
    /// recording stores the next `Count` instructions (executing them too when `Exec`), replay
    /// expands buffer entries; REPLAY itself uses no SFPU issue slot.
    fn issue(
        &mut self,
        pc: usize,
        insn: &super::isa::Insn,
        dst: &mut Dest,
    ) -> Result<(), SimError> {
        use super::isa::Insn;
        if let Some((slot, left, exec)) = self.recording {
            self.replay_buf[slot % 32] = Some(*insn);
            self.recording = (left > 1).then_some(((slot + 1) % 32, left - 1, exec));
            if exec {
                self.step(insn, pc, dst)?;
            }
            return Ok(());
        }
        match *insn {
            Insn::Replay {
                start,
                len,
                exec,
                load,
            } => {
                let count = if len == 0 { 64 } else { usize::from(len) };
                let start = usize::from(start) % 32;
                if load != 0 {
                    self.recording = Some((start, count, exec != 0));
                } else {
                    for i in 0..count {
                        let slot = (start + i) % 32;
                        match self.replay_buf[slot] {
                            Some(Insn::Replay { .. }) | None => {
                                return Err(SimError::Unmodelled {
                                    pc,
                                    mnemonic: "replay",
                                    what: format!(
                                        "replay buffer slot {slot} holds no SFPU instruction"
                                    ),
                                })
                            }
                            Some(r) => self.step(&r, pc, dst)?,
                        }
                    }
                }
                Ok(())
            }
            _ => self.step(insn, pc, dst),
        }
    }

    /// Resolves load/store Mod0 0 from the configuration.
    fn resolve(&self, m: Mod0) -> Mod0 {
        m.resolve(&self.cfg.dst)
    }
}
