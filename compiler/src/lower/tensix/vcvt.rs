//! Lowering of `pto.vcvt` (semantics.md §6) to a Tensix SFPU program: the lanes of a vector
//! register onto Dst rows, the mask as lane enables with zero-merge, and the EVEN/ODD/P0–P3
//! placement as Dst addressing.
//!
//! **Dst image of a register** (the vcvt I/O contract; tensix.md is silent on vcvt, so this is
//! ptoc's decision, documented in `docs/design/tensix-lowering.md`). A register of N lanes is
//! `G = N / 32` SFPU rows ("groups") of one datum per element (the datum forms of
//! `pto_runtime::tensix::io`, as for tcvt). Element `e` sits in group `e mod G`, lane
//! `e div G` — lane-major, so that the §6.6 placement never moves data across lanes:
//! * narrowing by `r` with part `k`: destination element `r·i + k` is in group `r·(i mod Gs) + k`,
//!   lane `i div Gs` — the lane of source element `i`: source group `g` is stored to destination
//!   group `r·g + k`;
//! * widening by `r` with part `k`: source element `r·i + k` is in group `r·(i mod Gd) + k`, lane
//!   `i div Gd`: source group `r·g + k` is converted into destination group `g`;
//! * equal lane counts: group `g` to group `g`.
//!
//! The program works on one register at Dst rows `[0, Gs)` (source), `[Gs, 2·Gs)` (mask: one
//! datum per source element, 0 = inactive), `[2·Gs, 2·Gs + Gd)` (result). Per converted group it
//! runs the element kernel of the tcvt rules (`lower_combo`, proven on every input) with its
//! load and store addressed at the group's rows, then zero-merges: load the mask datum, enable
//! the lanes where it is 0 (`SFPSETCC … LREG_EQ0`), load 0 into the result there, re-enable all
//! lanes (`SFPENCC`), store. Destination groups that no source group reaches (the other parts
//! of a narrowing) are stored from L9 (0). Nothing advances RWC: every access names its row.
//!
//! Invariants: the element kernel's body holds exactly one SFPSTORE and it is its last
//! instruction (else `LowerError::Internal`): its loads must see the source, never a result;
//! every store of the vcvt program runs with all lanes enabled; the prover
//! (`prove_vreg`) compares whole result registers (every lane, active or not) with
//! `pto_runtime::value::vcvt`.

use pto_runtime::convert::Rounding;
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::io::Datum;
use pto_runtime::tensix::isa::{Arch, Insn, Reg};
use pto_runtime::tensix::sim::LANES;
use pto_runtime::value::Part;

use super::builder::Builder;
use super::{lower_combo, schedule, Combo, LowerError, TensixKernel};
use crate::exec::spec::runtime_part;
use crate::target::convert::rounding_of as rounding_of_rnd;

/// Lanes of a 2048-bit register of `elem` (storage bits).
pub fn lanes_of(elem: ElemType) -> usize {
    2048 / elem.storage_bits() as usize
}

/// The placement of one vcvt: lane counts and part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VregShape {
    pub src_lanes: usize,
    pub dst_lanes: usize,
    /// `None` for equal lane counts.
    pub part: Option<Part>,
}

impl VregShape {
    pub fn src_groups(&self) -> usize {
        self.src_lanes / LANES
    }

    pub fn dst_groups(&self) -> usize {
        self.dst_lanes / LANES
    }

    /// The width ratio r (1 for equal lane counts).
    pub fn ratio(&self) -> usize {
        self.src_lanes.max(self.dst_lanes) / self.src_lanes.min(self.dst_lanes).max(1)
    }

    /// The part index k.
    pub fn k(&self) -> usize {
        self.part.map_or(0, Part::index)
    }

    /// (source group, destination group) of every converted group, in program order.
    pub fn moves(&self) -> Vec<(usize, usize)> {
        let (r, k) = (self.ratio(), self.k());
        if self.src_lanes < self.dst_lanes {
            (0..self.src_groups()).map(|g| (g, r * g + k)).collect()
        } else if self.src_lanes > self.dst_lanes {
            (0..self.dst_groups()).map(|g| (r * g + k, g)).collect()
        } else {
            (0..self.src_groups()).map(|g| (g, g)).collect()
        }
    }

    /// Destination groups no source group reaches (stored as zero).
    pub fn zero_groups(&self) -> Vec<usize> {
        let written: Vec<usize> = self.moves().iter().map(|&(_, d)| d).collect();
        (0..self.dst_groups())
            .filter(|g| !written.contains(g))
            .collect()
    }

    /// SFPU row of source group `g`, mask group `g`, destination group `g`.
    pub fn src_row(&self, g: usize) -> usize {
        g
    }
    pub fn mask_row(&self, g: usize) -> usize {
        self.src_groups() + g
    }
    pub fn dst_row(&self, g: usize) -> usize {
        2 * self.src_groups() + g
    }

    /// SFPU rows of the whole image.
    pub fn rows(&self) -> usize {
        2 * self.src_groups() + self.dst_groups()
    }

    /// The Dst image (`rows() · 32` datums in `Dest::write_rows` order) of one source register
    /// (`src` datums in element order) and mask (one flag per source element); the result rows
    /// hold `poison`, so a result lane the program never stores cannot pass for a result.
    pub fn place(&self, src: &[u32], active: &[bool], poison: u32, image: &mut Vec<u32>) {
        let gs = self.src_groups();
        image.clear();
        image.resize(self.rows() * LANES, poison);
        for (e, (&w, &on)) in src.iter().zip(active).enumerate().take(self.src_lanes) {
            let (g, l) = (e % gs, e / gs);
            image[self.src_row(g) * LANES + l] = w;
            image[self.mask_row(g) * LANES + l] = u32::from(on);
        }
    }

    /// The result datums in element order, from a Dst image read back whole.
    pub fn extract(&self, image: &[u32], out: &mut [u32]) {
        let gd = self.dst_groups();
        for (e, o) in out.iter_mut().enumerate().take(self.dst_lanes) {
            let (g, l) = (e % gd, e / gd);
            *o = image
                .get(self.dst_row(g) * LANES + l)
                .copied()
                .unwrap_or(!0);
        }
    }

    /// `part=EVEN` etc. for headers, or nothing.
    pub fn part_name(&self) -> Option<&'static str> {
        self.part.map(part_name)
    }
}

pub fn part_name(p: Part) -> &'static str {
    match p {
        Part::Even => "EVEN",
        Part::Odd => "ODD",
        Part::P0 => "P0",
        Part::P1 => "P1",
        Part::P2 => "P2",
        Part::P3 => "P3",
    }
}

pub fn parse_part(s: &str) -> Option<Part> {
    Some(match s {
        "EVEN" => Part::Even,
        "ODD" => Part::Odd,
        "P0" => Part::P0,
        "P1" => Part::P1,
        "P2" => Part::P2,
        "P3" => Part::P3,
        _ => return None,
    })
}

/// One vcvt with effective parameters (cpu profile): the element conversion and the placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VcvtCombo {
    pub elem: Combo,
    pub part: Option<Part>,
}

impl VcvtCombo {
    pub fn shape(&self) -> VregShape {
        VregShape {
            src_lanes: lanes_of(self.elem.src),
            dst_lanes: lanes_of(self.elem.dst),
            part: self.part,
        }
    }

    /// `f32 -> f16 RINT sat=off part=EVEN`.
    pub fn describe(&self) -> String {
        match self.part {
            Some(p) => format!("{} part={}", self.elem.describe(), part_name(p)),
            None => self.elem.describe(),
        }
    }
}

/// Lowers one vcvt for `arch` (see the module doc for the program's shape).
pub fn lower_vcvt(v: VcvtCombo, arch: Arch) -> Result<TensixKernel, LowerError> {
    let shape = v.shape();
    let valid_part = match v.part {
        None => shape.src_lanes == shape.dst_lanes,
        Some(p) => shape.src_lanes != shape.dst_lanes && p.index() < shape.ratio(),
    };
    if !valid_part {
        return Err(LowerError::Unsupported {
            combo: v.describe(),
            reason: "the part does not fit the lane counts (semantics.md §6.6)".to_string(),
        });
    }
    let elem = lower_combo(v.elem, arch)?;
    let internal = |message: String| LowerError::Internal {
        rule: elem.rule,
        message,
    };
    let (last, rest) = elem
        .body
        .split_last()
        .ok_or_else(|| internal("empty element body".to_string()))?;
    let Insn::Store { vd: result, .. } = last.insn else {
        return Err(internal(
            "the element body does not end with its store".to_string(),
        ));
    };
    if rest.iter().any(|l| matches!(l.insn, Insn::Store { .. })) {
        return Err(internal(
            "the element body stores before its end".to_string(),
        ));
    }
    let mut b = Builder::new(arch);
    let (stay, _) = b.addr_mods();
    let mask_reg = mask_register(&elem, result)
        .ok_or_else(|| internal("no L-register is free for the mask datum".to_string()))?;
    let addr = |row: usize| 2 * row;
    for (gs, gd) in shape.moves() {
        for l in rest {
            let mut line = l.clone();
            if let Insn::Load {
                vd,
                mod0,
                addr_mod: _,
                imm10: _,
            } = l.insn
            {
                if mod0 != pto_runtime::tensix::io::KERNEL_MOD0 {
                    return Err(internal(
                        "the element body loads a non-raw mode".to_string(),
                    ));
                }
                b.op(
                    &format!(
                        "sfpload L{}, INT32, {stay}, {}",
                        vd.0,
                        addr(shape.src_row(gs))
                    ),
                    &format!("source group {gs} (element kernel: {})", l.comment),
                );
                continue;
            }
            line.comment = l.comment.clone();
            b.body.push(line);
        }
        b.op(
            &format!(
                "sfpload L{}, INT32, {stay}, {}",
                mask_reg.0,
                addr(shape.mask_row(gs))
            ),
            &format!("mask datums of source group {gs}"),
        );
        b.op(
            &format!("sfpsetcc 0, L{}, 0, LREG_EQ0", mask_reg.0),
            "lanes the mask disables",
        );
        b.op(
            &format!("sfploadi L{}, USHORT, 0", result.0),
            "zero-merge: inactive lanes give 0",
        );
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
        b.op(
            &format!(
                "sfpstore L{}, INT32, {stay}, {}",
                result.0,
                addr(shape.dst_row(gd))
            ),
            &format!("destination group {gd}"),
        );
    }
    for gd in shape.zero_groups() {
        b.op(
            &format!("sfpstore L9, INT32, {stay}, {}", addr(shape.dst_row(gd))),
            &format!("destination group {gd}: another part's lanes are 0"),
        );
    }
    if let Some(message) = b.error.take() {
        return Err(internal(message));
    }
    let body = schedule::schedule(std::mem::take(&mut b.body), arch);
    if !schedule::stores_with_all_lanes(&body) {
        return Err(internal(
            "a store runs under narrowed lane flags".to_string(),
        ));
    }
    let drain = schedule::drain_for(&body, arch);
    let mut notes = elem.notes.clone();
    notes.push(format!(
        "vcvt: {} converted group(s), {} zero group(s); the element kernel is `{}`",
        shape.moves().len(),
        shape.zero_groups().len(),
        elem.rule
    ));
    Ok(TensixKernel {
        combo: v.elem,
        arch,
        family: elem.family,
        rule: elem.rule,
        notes,
        init: elem.init,
        body,
        drain,
        nan_any: false,
        macro_form: None,
        vreg: Some(shape),
        abi: pto_runtime::tensix::io::Abi::Raw,
    })
}

/// A register for the mask datum that cannot disturb the next group: not the result, not
/// written by init code (constants and tables such as the INDIRECT_VA entries live there), and
/// either never touched by the element body or written by it before any read (dead between
/// groups).
fn mask_register(elem: &TensixKernel, result: Reg) -> Option<Reg> {
    use pto_runtime::tensix::sim::register_reads;
    let bit = |r: Reg| 1u32 << r.0;
    let init_written = elem
        .init
        .iter()
        .fold(0u32, |m, l| m | schedule::register_writes(&l.insn));
    let candidates: Vec<Reg> = (0..8u8)
        .map(Reg)
        .filter(|&r| r != result && init_written & bit(r) == 0)
        .collect();
    let untouched = |r: Reg| {
        elem.body
            .iter()
            .all(|l| (register_reads(&l.insn) | schedule::register_writes(&l.insn)) & bit(r) == 0)
    };
    let written_first = |r: Reg| {
        for l in &elem.body {
            if register_reads(&l.insn) & bit(r) != 0 {
                return false;
            }
            if schedule::register_writes(&l.insn) & bit(r) != 0 {
                return true;
            }
        }
        true
    };
    candidates
        .iter()
        .copied()
        .find(|&r| untouched(r))
        .or_else(|| candidates.iter().copied().find(|&r| written_first(r)))
}

/// The vcvt rows of semantics.md §6.3 whose types the Tensix kernels carry, with every rnd
/// letter but H and both saturations where the pair takes them (`None` = the pair has no
/// such attribute), each part of the family.
pub fn all_vcvt() -> Vec<VcvtCombo> {
    use crate::target::vcvt as contract;
    use pto_runtime::tensix::io::TENSIX_TYPES;
    let mut out = Vec::new();
    for src in TENSIX_TYPES {
        for dst in TENSIX_TYPES {
            let Some(c) = contract::lookup(src, dst) else {
                continue;
            };
            if Datum::of(src).is_none() || Datum::of(dst).is_none() {
                continue;
            }
            let roundings: Vec<Rounding> = {
                use crate::ir::attrs::Rnd;
                let letters = [Rnd::R, Rnd::A, Rnd::F, Rnd::C, Rnd::Z, Rnd::O];
                let allowed: Vec<Rounding> = letters
                    .into_iter()
                    .filter(|&r| c.allows_rnd(r))
                    .map(rounding_of_rnd)
                    .collect();
                if c.default_rnd().is_none() || allowed.is_empty() {
                    vec![Rounding::Rint]
                } else {
                    allowed
                }
            };
            let sats: Vec<bool> = {
                use crate::target::tcvt::Sat;
                let on = c.effective_sat(Some(crate::ir::attrs::VSat::Sat)) == Sat::On;
                let off = c.effective_sat(Some(crate::ir::attrs::VSat::NoSat)) == Sat::On;
                let mut v = vec![off];
                if on != off {
                    v.push(on);
                }
                v
            };
            let shape_parts: Vec<Option<Part>> = {
                let (ns, nd) = (lanes_of(src), lanes_of(dst));
                let r = ns.max(nd) / ns.min(nd);
                match r {
                    1 => vec![None],
                    2 => vec![Some(Part::Even), Some(Part::Odd)],
                    _ => vec![
                        Some(Part::P0),
                        Some(Part::P1),
                        Some(Part::P2),
                        Some(Part::P3),
                    ],
                }
            };
            for &rounding in &roundings {
                for &sat in &sats {
                    for &part in &shape_parts {
                        out.push(VcvtCombo {
                            elem: Combo {
                                src,
                                dst,
                                rounding,
                                sat,
                            },
                            part,
                        });
                    }
                }
            }
        }
    }
    out
}

/// The vcvt ops of a verified module with their effective parameters on the cpu profile (the
/// interpreter's resolution: contract row, defaulted rnd and sat, part).
pub fn vcvt_combos_of_module(
    module: &crate::ir::Module,
) -> Vec<(crate::ir::OpId, Result<VcvtCombo, LowerError>)> {
    use crate::ir::attrs::Rnd;
    use crate::ir::types::Type;
    use crate::ir::OpKind;
    use crate::target::tcvt::Sat;
    use crate::target::vcvt as contract;
    let mut out = Vec::new();
    for op in module.walk() {
        let OpKind::Vcvt(v) = &module.op(op).kind else {
            continue;
        };
        let data = module.op(op);
        let elem_of = |id: Option<&crate::ir::ValueId>| {
            id.and_then(|&id| match module.value_type(id) {
                Type::VReg { elem, .. } => elem.conversion_elem(),
                _ => None,
            })
        };
        let (Some(src), Some(dst)) = (
            elem_of(data.operands.first()),
            elem_of(data.results.first()),
        ) else {
            continue;
        };
        let res = (|| {
            for ty in [src, dst] {
                if Datum::of(ty).is_none() {
                    return Err(LowerError::TypeNotCarried { ty: ty.ir_name() });
                }
            }
            let unsupported = |reason: &str| LowerError::Unsupported {
                combo: format!("vcvt {} -> {}", src.ir_name(), dst.ir_name()),
                reason: reason.to_string(),
            };
            let c = contract::lookup(src, dst)
                .ok_or_else(|| unsupported("no vcvt contract row (semantics.md §6.3)"))?;
            let rnd = c.effective_rnd(v.rnd);
            if rnd == Some(Rnd::H) {
                return Err(unsupported("rnd H (hybrid rounding) is not lowered"));
            }
            let rounding = rnd.map_or(Rounding::Rint, rounding_of_rnd);
            let sat = c.effective_sat(v.sat) == Sat::On;
            Ok(VcvtCombo {
                elem: Combo {
                    src,
                    dst,
                    rounding,
                    sat,
                },
                part: v.part.map(runtime_part),
            })
        })();
        out.push((op, res));
    }
    out
}
