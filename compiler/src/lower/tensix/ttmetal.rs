//! `docs/tt-metal.md`, generated: every pair tt-metal's SFPU typecast dispatch supports, the ptoc
//! kernel (`--abi tt-metal`) for the nearest exact semantics, its cycles per row, the figure
//! tt-metal's kernel states, and where the two differ, with a witness input found by running
//! both.
//!
//! tt-metal's side is data here ([`TT_METAL_PAIRS`]): the kernel's name and its stated cycle
//! figure from tt-metal's `ckernel_sfpu_typecast.h` / `typecast.h` (Blackhole, 2026), and a
//! model of its algorithm as those sources write it ([`TtMetalPair::model`]; `None` where the
//! sources leave the result open, e.g. the NaN of an SFPSWAP clamp — such inputs are never
//! used as witnesses). ptoc's side is computed: the kernel is lowered, its cycles measured on
//! the cycle model and its result taken from the reference semantics it is proven against.
//! A test (`compiler/tests/tensix_docs.rs`) fails when the file drifts; regenerate with
//! `PTOC_BLESS=1 cargo test --release -p ptoc --test tensix_docs`.

use std::fmt::Write as _;

use pto_runtime::convert::{Converter, Rounding};
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::io::Abi;
use pto_runtime::tensix::isa::Arch;

use super::docs::{cycles_per_row, macro_cycles_per_row};
use super::emit::llk::kernel_name;
use super::prove::sample_inputs;
use super::{lower_combo_for, Combo};

/// One pair of tt-metal's typecast dispatch and the ptoc combination that stands for it.
pub struct TtMetalPair {
    /// tt-metal `DataFormat`s, input and output.
    pub formats: (&'static str, &'static str),
    /// The ptoc combination with the nearest exact semantics.
    pub combo: Combo,
    /// tt-metal's kernel.
    pub kernel: &'static str,
    /// What tt-metal's source states about its rounding and special values.
    pub semantics: &'static str,
    /// The cycle figure tt-metal's source states (`-` when none).
    pub stated: &'static str,
    /// tt-metal's result for an input element pattern (`None`: not established by its sources).
    pub model: fn(u64) -> Option<u64>,
}

const fn c(src: ElemType, dst: ElemType, rounding: Rounding, sat: bool) -> Combo {
    Combo {
        src,
        dst,
        rounding,
        sat,
    }
}

fn f32_of(bits: u64) -> f32 {
    f32::from_bits(bits as u32)
}

fn bf16_as_f32(bits: u64) -> u64 {
    (bits & 0xFFFF) << 16
}

/// SFP_STOCH_RND to FP16B with rounding mode 0: ties away from zero; denormals and zeros to
/// zero, NaN to Inf (ISA SFPSTOCHRND).
fn stochrnd_bf16(f: u32) -> u64 {
    let sign = f & 0x8000_0000;
    let mag = f & 0x7FFF_FFFF;
    let exp = mag >> 23;
    let out = if exp == 0 {
        0
    } else if mag > 0x7F80_0000 {
        0x7F80_0000
    } else {
        mag.saturating_add(0x8000) & 0xFFFF_0000
    };
    u64::from((sign | out) >> 16)
}

/// tt-metal's float → unsigned 16-bit: clamp at 0 (SFPSWAP), FP32_TO_UINT16 nearest ties away,
/// saturating at 65535; a NaN's clamp is not established.
fn f32_to_u16(x: f32) -> Option<u64> {
    if x.is_nan() {
        return None;
    }
    // Ties away on the exact value (f64 holds every f32 + 0.5 exactly).
    let v = f64::from(x.max(0.0));
    Some(if v >= 65535.0 {
        65535
    } else {
        (v + 0.5).floor() as u64
    })
}

/// TM-BH fp32 → int32: truncate, saturate by the sign (NaN by its sign bit), denormals to 0.
fn f32_to_i32_sat(bits: u64) -> Option<u64> {
    let x = f32_of(bits);
    let neg = bits & 0x8000_0000 != 0;
    let v: i32 = if x.is_nan() {
        if neg {
            i32::MIN
        } else {
            i32::MAX
        }
    } else {
        x as i32 // Rust: truncates, saturates
    };
    Some(u64::from(v as u32))
}

/// fp32 → uint32: negatives (-0, -NaN included) to 0; exponent ≥ 32 (+NaN, +Inf) to the max.
fn f32_to_u32(bits: u64) -> Option<u64> {
    if bits & 0x8000_0000 != 0 {
        return Some(0);
    }
    let x = f32_of(bits);
    Some(if x.is_nan() {
        0xFFFF_FFFF
    } else {
        u64::from(x as u32)
    })
}

/// fp32 → uint8: truncate toward zero, wrap modulo 256 (`-|v| + 256`, `& 0xFF`) for |x| < 2^31;
/// larger magnitudes and NaN are not established.
fn f32_to_u8_wrap(bits: u64) -> Option<u64> {
    let x = f32_of(bits);
    if x.is_nan() || x.abs() >= 2_147_483_648.0 {
        return None;
    }
    Some((x as i64 as u64) & 0xFF)
}

/// Every pair of tt-metal's typecast dispatch with an SFPU kernel (Bfp formats behave as
/// Float16_b; pairs the unpacker/packer handle alone are left out).
pub static TT_METAL_PAIRS: &[TtMetalPair] = &[
    TtMetalPair {
        formats: ("Float32", "Float16_b"),
        combo: c(ElemType::F32, ElemType::BF16, Rounding::Rint, false),
        kernel: "calculate_typecast_fp32_to_fp16b",
        semantics: "RNE by integer add x + 0x7FFF + lsb, low half cleared; no NaN handling",
        stated: "3 c/row (tt-llk macro); 7 issue slots (tt-metal plain)",
        model: |b| {
            let x = b as u32;
            Some(u64::from(x.wrapping_add(0x7FFF + ((x >> 16) & 1)) >> 16))
        },
    },
    TtMetalPair {
        formats: ("Float32", "UInt16"),
        combo: c(ElemType::F32, ElemType::U16, Rounding::Round, true),
        kernel: "calculate_typecast_fp32_to_uint16",
        semantics: "max(x, 0), then FP32_TO_UINT16 nearest ties away, saturating at 65535",
        stated: "2 c/row",
        model: |b| f32_to_u16(f32_of(b)),
    },
    TtMetalPair {
        formats: ("Float16_b", "UInt16"),
        combo: c(ElemType::BF16, ElemType::U16, Rounding::Round, true),
        kernel: "calculate_typecast_fp32_to_uint16",
        semantics: "as Float32 -> UInt16",
        stated: "2 c/row",
        model: |b| f32_to_u16(f32_of(bf16_as_f32(b))),
    },
    TtMetalPair {
        formats: ("UInt16", "Float16_b"),
        combo: c(ElemType::U16, ElemType::BF16, Rounding::Round, false),
        kernel: "calculate_typecast_uint16_to_fp16b",
        semantics: "exact cast, then bf16 rounding ties away",
        stated: "1 c/row",
        model: |b| Some(stochrnd_bf16((b as u16 as f32).to_bits())),
    },
    TtMetalPair {
        formats: ("UInt16", "Float32"),
        combo: c(ElemType::U16, ElemType::F32, Rounding::Rint, false),
        kernel: "calculate_typecast_uint16_to_fp32",
        semantics: "exact",
        stated: "2 issue slots per row (32-bit Dst)",
        model: |b| Some(u64::from((b as u16 as f32).to_bits())),
    },
    TtMetalPair {
        formats: ("Int32", "Float16_b"),
        combo: c(ElemType::I32, ElemType::BF16, Rounding::Rint, false),
        kernel: "calculate_typecast_int32_to_fp16b",
        semantics: "RNE to fp32, then bf16 ties away: double rounding",
        stated: "4 c/row",
        model: |b| Some(stochrnd_bf16((b as u32 as i32 as f32).to_bits())),
    },
    TtMetalPair {
        formats: ("Int32", "Float32"),
        combo: c(ElemType::I32, ElemType::F32, Rounding::Rint, false),
        kernel: "calculate_typecast_int32_to_fp32",
        semantics: "SFPCAST, round to nearest even",
        stated: "4 c/row",
        model: |b| Some(u64::from((b as u32 as i32 as f32).to_bits())),
    },
    TtMetalPair {
        formats: ("Float32", "Int32"),
        combo: c(ElemType::F32, ElemType::I32, Rounding::Trunc, true),
        kernel: "calculate_typecast_fp32_to_int32",
        semantics: "truncate; saturate by the sign (NaN by its sign bit); denormals to 0 (Blackhole body)",
        stated: "15 instructions per row",
        model: f32_to_i32_sat,
    },
    TtMetalPair {
        formats: ("Float16_b", "Int32"),
        combo: c(ElemType::BF16, ElemType::I32, Rounding::Trunc, true),
        kernel: "calculate_typecast_fp32_to_int32",
        semantics: "as Float32 -> Int32",
        stated: "15 instructions per row",
        model: |b| f32_to_i32_sat(bf16_as_f32(b)),
    },
    TtMetalPair {
        formats: ("Float32", "UInt32"),
        combo: c(ElemType::F32, ElemType::U32, Rounding::Trunc, true),
        kernel: "calculate_typecast_fp32_to_uint32",
        semantics: "truncate; negatives (-0, -NaN) to 0; exponent >= 32 (+Inf, +NaN) to 0xFFFFFFFF",
        stated: "-",
        model: f32_to_u32,
    },
    TtMetalPair {
        formats: ("Float16_b", "UInt32"),
        combo: c(ElemType::BF16, ElemType::U32, Rounding::Trunc, true),
        kernel: "calculate_typecast_fp32_to_uint32",
        semantics: "as Float32 -> UInt32",
        stated: "-",
        model: |b| f32_to_u32(bf16_as_f32(b)),
    },
    TtMetalPair {
        formats: ("UInt32", "Float16_b"),
        combo: c(ElemType::U32, ElemType::BF16, Rounding::Rint, false),
        kernel: "calculate_typecast_uint32_to_fp16b",
        semantics: "cast of the low 31 bits (RNE), + 2^31 (fp32 add), bf16 ties away: up to triple rounding",
        stated: "3 c/row",
        model: |b| {
            let v = b as u32;
            let mut f = (v & 0x7FFF_FFFF) as f32;
            if v & 0x8000_0000 != 0 {
                f += 2_147_483_648.0;
            }
            Some(stochrnd_bf16(f.to_bits()))
        },
    },
    TtMetalPair {
        formats: ("UInt32", "Float32"),
        combo: c(ElemType::U32, ElemType::F32, Rounding::Rint, false),
        kernel: "calculate_typecast_uint32_to_fp32",
        semantics: "exact split, one rounding to nearest even (Blackhole body)",
        stated: "3 issued instructions per row",
        model: |b| Some(u64::from((b as u32 as f32).to_bits())),
    },
    TtMetalPair {
        formats: ("UInt16", "UInt32"),
        combo: c(ElemType::U16, ElemType::U32, Rounding::Rint, false),
        kernel: "calculate_typecast_uint16_to_uint32",
        semantics: "exact",
        stated: "1 c/row",
        model: |b| Some(b & 0xFFFF),
    },
    TtMetalPair {
        formats: ("UInt16", "Int32"),
        combo: c(ElemType::U16, ElemType::I32, Rounding::Rint, false),
        kernel: "calculate_typecast_uint16_to_uint32",
        semantics: "exact",
        stated: "1 c/row",
        model: |b| Some(b & 0xFFFF),
    },
    TtMetalPair {
        formats: ("UInt32", "UInt16"),
        combo: c(ElemType::U32, ElemType::U16, Rounding::Rint, true),
        kernel: "calculate_typecast_uint32_to_uint16",
        semantics: "saturate at 0xFFFF",
        stated: "2 c/row (tt-llk)",
        model: |b| Some((b & 0xFFFF_FFFF).min(0xFFFF)),
    },
    TtMetalPair {
        formats: ("Int32", "UInt16"),
        combo: c(ElemType::I32, ElemType::U16, Rounding::Rint, true),
        kernel: "calculate_typecast_int32_to_uint16",
        semantics: "cast to fp32, max(0), FP32_TO_UINT16 saturating",
        stated: "3 c/row",
        model: |b| f32_to_u16(b as u32 as i32 as f32),
    },
    TtMetalPair {
        formats: ("Float32", "UInt8"),
        combo: c(ElemType::F32, ElemType::U8, Rounding::Trunc, false),
        kernel: "calculate_typecast_fp32_to_uint8",
        semantics: "truncate, wrap modulo 256",
        stated: "-",
        model: f32_to_u8_wrap,
    },
    TtMetalPair {
        formats: ("Float32", "Int8"),
        combo: c(ElemType::F32, ElemType::I8, Rounding::Trunc, false),
        kernel: "calculate_typecast_fp32_to_uint8",
        semantics: "truncate, wrap modulo 256 (Int8 buffers declared UInt8)",
        stated: "-",
        model: f32_to_u8_wrap,
    },
    TtMetalPair {
        formats: ("Int32", "UInt8"),
        combo: c(ElemType::I32, ElemType::U8, Rounding::Rint, false),
        kernel: "calculate_typecast_uint_to_uint8",
        semantics: "wrap modulo 256",
        stated: "-",
        model: |b| Some(b & 0xFF),
    },
    TtMetalPair {
        formats: ("Int32", "Int8"),
        combo: c(ElemType::I32, ElemType::I8, Rounding::Rint, false),
        kernel: "calculate_typecast_uint_to_uint8",
        semantics: "wrap modulo 256",
        stated: "-",
        model: |b| Some(b & 0xFF),
    },
    TtMetalPair {
        formats: ("UInt32", "UInt8"),
        combo: c(ElemType::U32, ElemType::U8, Rounding::Rint, false),
        kernel: "calculate_typecast_uint_to_uint8",
        semantics: "wrap modulo 256",
        stated: "-",
        model: |b| Some(b & 0xFF),
    },
    TtMetalPair {
        formats: ("UInt16", "UInt8"),
        combo: c(ElemType::U16, ElemType::U8, Rounding::Rint, false),
        kernel: "calculate_typecast_uint_to_uint8",
        semantics: "wrap modulo 256",
        stated: "-",
        model: |b| Some(b & 0xFF),
    },
    TtMetalPair {
        formats: ("UInt8", "Float32"),
        combo: c(ElemType::U8, ElemType::F32, Rounding::Rint, false),
        kernel: "calculate_typecast_uint32_to_fp32",
        semantics: "exact",
        stated: "-",
        model: |b| Some(u64::from(((b & 0xFF) as f32).to_bits())),
    },
    TtMetalPair {
        formats: ("UInt8", "Float16_b"),
        combo: c(ElemType::U8, ElemType::BF16, Rounding::Rint, false),
        kernel: "calculate_typecast_uint32_to_fp16b",
        semantics: "exact (<= 255)",
        stated: "-",
        model: |b| Some(stochrnd_bf16(((b & 0xFF) as f32).to_bits())),
    },
    TtMetalPair {
        formats: ("Int8", "Int32"),
        combo: c(ElemType::I8, ElemType::I32, Rounding::Rint, false),
        kernel: "calculate_typecast_int8_to_int32",
        semantics: "sign-extend the raw byte",
        stated: "-",
        model: |b| Some(u64::from(b as u8 as i8 as i32 as u32)),
    },
    TtMetalPair {
        formats: ("Int8", "UInt16"),
        combo: c(ElemType::I8, ElemType::U16, Rounding::Rint, true),
        kernel: "calculate_typecast_int8_to_int32<CLAMP_TO_UINT16>",
        semantics: "sign-extend, negatives to 0",
        stated: "-",
        model: |b| Some(u64::from((b as u8 as i8).max(0) as u8)),
    },
    TtMetalPair {
        formats: ("Int8", "Float32"),
        combo: c(ElemType::I8, ElemType::F32, Rounding::Rint, false),
        kernel: "calculate_typecast_int8_to_fp32",
        semantics: "exact",
        stated: "3 issue slots per row",
        model: |b| Some(u64::from(f32::from(b as u8 as i8).to_bits())),
    },
];

/// The first input where tt-metal's (established) result and ptoc's differ, with both results.
pub fn witness(p: &TtMetalPair) -> Option<(u64, u64, u64)> {
    let conv = Converter::new(p.combo.spec()).ok()?;
    let mask = if p.combo.dst.value_bits() >= 64 {
        u64::MAX
    } else {
        (1u64 << p.combo.dst.value_bits()) - 1
    };
    sample_inputs(p.combo.src, 1 << 16, 0x77_6d_65_74)
        .into_iter()
        .find_map(|x| {
            let tm = (p.model)(x)? & mask;
            let ours = conv.convert_bits(x) & mask;
            (tm != ours).then_some((x, tm, ours))
        })
}

fn hex(ty: ElemType, v: u64) -> String {
    format!("{v:#0w$x}", w = 2 + (ty.value_bits() as usize).div_ceil(4))
}

/// The whole page.
pub fn render_tt_metal_markdown() -> String {
    let mut s = String::from(
        "# ptoc kernels for tt-metal (generated)\n\n\
         Generated by `ptoc::lower::tensix::ttmetal`; do not edit. Regenerate with\n\
         `PTOC_BLESS=1 cargo test --release -p ptoc --test tensix_docs`.\n\n\
         Every pair of tt-metal's SFPU typecast dispatch (`typecast_tile<IN, OUT>`, Blackhole sources of\n\
         2026; Bfp8_b/Bfp4_b behave as Float16_b, pairs the unpacker or packer handle alone are left\n\
         out), the ptoc kernel for the nearest exact semantics under `--abi tt-metal` (the\n\
         `--emit llk` default: tt-metal's UInt16 and Int8 datums, fp32 dest accumulation), its\n\
         steady-state cycles per row on ptoc's cycle model (plain / SFPLOADMACRO, `-` = no macro form),\n\
         and the figure tt-metal's source states. *Differs* is the first input where tt-metal's\n\
         algorithm, as its source writes it, and ptoc's proven semantics give different results\n\
         (searched over every 16-bit pattern, or the edge list plus 65,536 random 32-bit patterns;\n\
         inputs whose tt-metal result its sources leave open, such as a NaN through an SFPSWAP\n\
         clamp, are skipped).\n\n\
         | tt-metal pair | tt-metal kernel | tt-metal semantics | stated | ptoc function | ptoc mode | BH c/row | WH c/row | differs (input: tt-metal / ptoc) |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for p in TT_METAL_PAIRS {
        let kernels: Vec<_> = [Arch::Bh, Arch::Wh]
            .into_iter()
            .map(|a| lower_combo_for(p.combo, a, false, Abi::TtMetal))
            .collect();
        let (name, cycles) = match (&kernels[0], &kernels[1]) {
            (Ok(bh), Ok(wh)) => (
                format!("`calculate_{}`", kernel_name(bh)),
                [bh, wh]
                    .iter()
                    .map(|k| format!("{} / {}", cycles_per_row(k), macro_cycles_per_row(k)))
                    .collect::<Vec<_>>(),
            ),
            (Err(e), _) | (_, Err(e)) => (format!("none: {e}"), vec!["-".into(), "-".into()]),
        };
        let differs = match witness(p) {
            Some((x, tm, ours)) => format!(
                "{}: {} / {}",
                hex(p.combo.src, x),
                hex(p.combo.dst, tm),
                hex(p.combo.dst, ours)
            ),
            None => "no".to_string(),
        };
        let _ = writeln!(
            s,
            "| {} → {} | `{}` | {} | {} | {} | {} sat={} | {} | {} | {} |",
            p.formats.0,
            p.formats.1,
            p.kernel,
            p.semantics,
            p.stated,
            name,
            p.combo.rounding.name(),
            if p.combo.sat { "on" } else { "off" },
            cycles[0],
            cycles[1],
            differs
        );
    }
    s.push_str(HOW_TO);
    s
}

const HOW_TO: &str = "
## Calling a ptoc kernel from tt-metal

1. Lower the conversion: `ptoc lower --target tensix --emit llk --arch blackhole k.pto -o
   ptoc_typecast.h` (`--arch wormhole` for Wormhole B0; `--abi tt-metal` is the default for
   `--emit llk`). One header holds every conversion of `k.pto`; prove them with
   `ptoc prove --abi tt-metal --arch blackhole k.pto`.
2. Put the header beside tt-metal's SFPU kernels (for example
   `tt_metal/hw/ckernels/blackhole/metal/llk_api/llk_sfpu/`) and include it where the typecast
   dispatch lives (`tt_metal/hw/inc/api/compute/eltwise_unary/typecast.h`).
3. In `typecast_tile_init<IN, OUT>()` and `typecast_tile<IN, OUT>(idst)`, replace the arm of the
   pair with ptoc's functions, for example for Float32 → UInt16:

   ```cpp
   MATH(SFPU_UNARY_INIT_FN(typecast, sfpu::init_ptoc_typecast_fp32_to_uint16_round_saton, (APPROX)));
   MATH(SFPU_UNARY_CALL(DST_SYNC_MODE, DST_ACCUM_MODE,
        calculate_ptoc_typecast_fp32_to_uint16_round_saton, (APPROX, 8), idst, VectorMode::RC));
   ```

   `SFPU_UNARY_INIT_FN(typecast, …)` runs `_llk_math_eltwise_unary_sfpu_init_<SfpuType::typecast>()`,
   which programs the address modifiers the kernels use (ADDR_MOD_7: Dst += 0, ADDR_MOD_6: Dst += 2),
   then ptoc's init (constants, SFPLOADMACRO templates). `calculate_…<APPROX, 8>` converts one
   8-row face; the wrapper calls it once per face.
4. On the host, keep `fp32_dest_acc_en = true` (every ptoc kernel reads and writes 32-bit Dst
   datums) and, for Float32 / Int32 / UInt32 inputs, `UnpackToDestFp32`, as tt-metal's own
   typecast program factory does. Int8 tensors use UInt8 circular buffers (raw bytes), as in
   tt-metal.

f16 (tt-metal's Float16 reaches Dst as an fp32 value) and i16 (no tt-metal format) have no
datum under `--abi tt-metal`: `ptoc lower` refuses them with `E0702`; `--abi raw` lowers them
for ptoc's own contract (`ptoc sim`).
";
