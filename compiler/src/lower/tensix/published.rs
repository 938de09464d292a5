//! The published Tensix typecast sequences (tensix.md §8, listings in
//! `runtime/tests/data/tensix_published/`) audited against ptoc's semantics: each listing runs on
//! the simulator with the I/O it was written for (its own load/store modes and Dst width, Blackhole)
//! and every output is compared with the reference result of the combination it implements. The
//! result — cycles per row by the §7 cycle model, mismatches and the first input that shows one — is
//! what `docs/tensix-kernels.md` prints beside ptoc's own kernel. Nothing here is hard-coded
//! about where a listing departs: the witness inputs are found by running it.
//!
//! Invariant: the table is data (one row per listing and combination); the audit never panics.

use pto_runtime::convert::{Converter, Rounding};
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::dest::DestWidth;
use pto_runtime::tensix::formats::{DataFormat, DstConfig, Mod0};
use pto_runtime::tensix::isa::Arch;
use pto_runtime::tensix::sim::cycle::steady_state;
use pto_runtime::tensix::sim::kernel::{run_kernel_batch, Kernel};
use pto_runtime::tensix::sim::SimConfig;
use rayon::prelude::*;

use super::prove::edge_inputs;
use super::Combo;

/// One published listing and the combination it is measured against.
#[derive(Debug, Clone, Copy)]
pub struct Published {
    /// File stem in `runtime/tests/data/tensix_published/`.
    pub name: &'static str,
    pub text: &'static str,
    /// tensix.md section.
    pub section: &'static str,
    pub combo: Combo,
    /// The published cycles per row (tensix.md §8.15).
    pub figure: &'static str,
    /// SFPU Fp32 mode (Mod0 0 → FP32).
    pub fp32: bool,
    pub load: Mod0,
    pub out: Mod0,
    pub width: DestWidth,
    /// 1 when the listing's 32-bit stores overlap later rows' 16-bit cells.
    pub rows_per_chunk: usize,
}

macro_rules! listing {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../runtime/tests/data/tensix_published/",
            $name,
            ".s"
        ))
    };
}

const fn combo(src: ElemType, dst: ElemType, rounding: Rounding, sat: bool) -> Combo {
    Combo {
        src,
        dst,
        rounding,
        sat,
    }
}

use ElemType::{BF16, F32, I32, U16, U32};
use Rounding::{Rint, Round, Trunc};

/// The listings, in tensix.md §8 order.
pub const PUBLISHED: &[Published] = &[
    Published {
        name: "fp32_to_bf16.macro",
        text: listing!("fp32_to_bf16.macro"),
        section: "§8.1",
        combo: combo(F32, BF16, Rint, false),
        figure: "3",
        fp32: true,
        load: Mod0::Fp32,
        out: Mod0::Bf16,
        width: DestWidth::W32,
        rows_per_chunk: 256,
    },
    Published {
        name: "fp32_to_i32.plain",
        text: listing!("fp32_to_i32.plain"),
        section: "§8.2",
        combo: combo(F32, I32, Trunc, false),
        figure: "13",
        fp32: true,
        load: Mod0::Fp32,
        out: Mod0::Int32,
        width: DestWidth::W32,
        rows_per_chunk: 256,
    },
    Published {
        name: "fp32_to_u32.plain",
        text: listing!("fp32_to_u32.plain"),
        section: "§8.3",
        combo: combo(F32, U32, Trunc, false),
        figure: "11",
        fp32: true,
        load: Mod0::Fp32,
        out: Mod0::Int32,
        width: DestWidth::W32,
        rows_per_chunk: 256,
    },
    Published {
        name: "fp32_to_u32.plain",
        text: listing!("fp32_to_u32.plain"),
        section: "§8.3",
        combo: combo(F32, U32, Trunc, true),
        figure: "11",
        fp32: true,
        load: Mod0::Fp32,
        out: Mod0::Int32,
        width: DestWidth::W32,
        rows_per_chunk: 256,
    },
    Published {
        name: "fp32_to_u16.macro",
        text: listing!("fp32_to_u16.macro"),
        section: "§8.4",
        combo: combo(F32, U16, Round, true),
        figure: "2",
        fp32: true,
        load: Mod0::Fp32,
        out: Mod0::Uint16,
        width: DestWidth::W32,
        rows_per_chunk: 256,
    },
    Published {
        name: "u16_to_fp32.macro",
        text: listing!("u16_to_fp32.macro"),
        section: "§8.5",
        combo: combo(U16, F32, Rint, false),
        figure: "1",
        fp32: true,
        load: Mod0::Uint16,
        out: Mod0::Fp32,
        width: DestWidth::W16,
        rows_per_chunk: 1,
    },
    Published {
        name: "u16_to_bf16.macro",
        text: listing!("u16_to_bf16.macro"),
        section: "§8.6",
        combo: combo(U16, BF16, Rint, false),
        figure: "1",
        fp32: false,
        load: Mod0::Uint16,
        out: Mod0::Bf16,
        width: DestWidth::W16,
        rows_per_chunk: 256,
    },
    Published {
        name: "u32_to_fp32.macro",
        text: listing!("u32_to_fp32.macro"),
        section: "§8.7",
        combo: combo(U32, F32, Rint, false),
        figure: "3",
        fp32: true,
        load: Mod0::Int32,
        out: Mod0::Fp32,
        width: DestWidth::W32,
        rows_per_chunk: 256,
    },
    Published {
        name: "i32_to_fp32.macro",
        text: listing!("i32_to_fp32.macro"),
        section: "§8.8",
        combo: combo(I32, F32, Rint, false),
        figure: "4",
        fp32: true,
        load: Mod0::Int32,
        out: Mod0::Fp32,
        width: DestWidth::W32,
        rows_per_chunk: 256,
    },
    Published {
        name: "u32_to_bf16.macro",
        text: listing!("u32_to_bf16.macro"),
        section: "§8.9",
        combo: combo(U32, BF16, Rint, false),
        figure: "3",
        fp32: true,
        load: Mod0::Int32,
        out: Mod0::Fp32,
        width: DestWidth::W32,
        rows_per_chunk: 256,
    },
    Published {
        name: "i32_to_bf16.macro",
        text: listing!("i32_to_bf16.macro"),
        section: "§8.10",
        combo: combo(I32, BF16, Rint, false),
        figure: "4",
        fp32: true,
        load: Mod0::Int32,
        out: Mod0::Fp32,
        width: DestWidth::W32,
        rows_per_chunk: 256,
    },
    Published {
        name: "u16_to_u32.macro",
        text: listing!("u16_to_u32.macro"),
        section: "§8.11",
        combo: combo(U16, U32, Rint, false),
        figure: "1",
        fp32: true,
        load: Mod0::Uint16,
        out: Mod0::Int32,
        width: DestWidth::W16,
        rows_per_chunk: 1,
    },
    Published {
        name: "i32_to_u16.macro",
        text: listing!("i32_to_u16.macro"),
        section: "§8.13",
        combo: combo(I32, U16, Rint, true),
        figure: "3",
        fp32: true,
        load: Mod0::Int32,
        out: Mod0::Uint16,
        width: DestWidth::W32,
        rows_per_chunk: 256,
    },
];

/// What running a listing showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audit {
    /// Steady-state cycles per row measured by the §7 cycle model.
    pub cycles_per_row: String,
    pub inputs: u64,
    pub mismatches: u64,
    /// The first mismatching input in input order: (input, reference, listing's output).
    pub first: Option<(u64, u64, u64)>,
}

impl Published {
    fn config(&self) -> SimConfig {
        SimConfig {
            strict: true,
            allow_backdoor: true,
            dst: DstConfig {
                sfpu_fp32: self.fp32,
                srcb_format: DataFormat::Float16B,
            },
        }
    }

    /// The element a listing's output word stands for (its store mode's view). A bf16 result
    /// with a non-zero low half is not a bf16 (a packer would round or truncate it again): it is
    /// marked with bit 32 so that it never equals a reference pattern.
    fn element_of(&self, word: u32) -> u64 {
        match (self.out, self.combo.dst) {
            (_, ElemType::BF16) => u64::from(word >> 16) | (u64::from(word & 0xFFFF != 0) << 32),
            (Mod0::Uint16, _) => u64::from(word & 0xFFFF),
            _ => u64::from(word),
        }
    }

    /// Runs the listing on every 16-bit input, or on the §9 edge list plus `random` patterns.
    pub fn audit(&self, random: usize) -> Result<Audit, String> {
        let arch = Arch::Bh;
        let k = Kernel::parse(self.text, arch).map_err(|e| format!("{}: {e}", self.name))?;
        let cfg = self.config();
        let cycles = steady_state(arch, cfg, &k.init, &k.body, &k.drain, 2)
            .map_err(|e| format!("{}: {e}", self.name))?;
        let inputs: Vec<u64> = if self.combo.src.value_bits() <= 16 {
            (0..1u64 << self.combo.src.value_bits()).collect()
        } else {
            let mut v = edge_inputs(self.combo.src);
            let mut rng = fastrand::Rng::with_seed(0x0A0D_17ED);
            v.extend((0..random).map(|_| u64::from(rng.u32(..))));
            v
        };
        let words: Vec<u32> = inputs.iter().map(|&b| b as u32).collect();
        let rows = self.rows_per_chunk.max(cycles.rows_per_body) / cycles.rows_per_body
            * cycles.rows_per_body;
        let out = run_kernel_batch(
            arch,
            cfg,
            &k,
            cycles.rows_per_body,
            &words,
            self.load,
            self.out,
            self.width,
            rows,
        )
        .map_err(|e| format!("{}: {e}", self.name))?;
        let conv = Converter::new(self.combo.spec()).map_err(|e| e.to_string())?;
        let bad: Vec<(u64, u64, u64)> = inputs
            .par_iter()
            .zip(out.par_iter())
            .filter_map(|(&i, &w)| {
                let want = conv.convert_bits(i);
                let got = self.element_of(w);
                (want != got).then_some((i, want, got))
            })
            .collect();
        Ok(Audit {
            cycles_per_row: cycles.cycles_per_row_text(),
            inputs: inputs.len() as u64,
            mismatches: bad.len() as u64,
            first: bad.first().copied(),
        })
    }
}
