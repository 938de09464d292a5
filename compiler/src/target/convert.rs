//! The `pto.convert` rules (SIMT scalar and packed-pair conversion) as data: the operand-type
//! classes, the type-pair rows with their allowed `round(...)` letters and whether the pair
//! requires `sat`, and the order in which the rules are applied.
//!
//! Source: PTOAS is the only source of every fact here — `verifyConvertControls` and
//! `verifyPackedConvertControls` in `lib/PTO/IR/VPTO.cpp` (PTOAS `VPTOOps.td` for the form);
//! pto-isa and the AscendC documentation say nothing about this op. The messages of the rows
//! are PTOAS's own words, so a PTOAS lit `CHECK:` line matches ptoc's output.
//!
//! Profiles: PTOAS's op verifier does not read the arch, so the rules are the same on cpu, a2a3
//! and a5 ([`rules_for`] takes the profile so that a difference would be added here, and
//! nowhere else). Execution on every profile uses the exact conversion core with the mode of
//! [`Rounding`] that [`rounding_of`] gives each letter.
//!
//! Invariants (unit tests): pairs are unique; every letter set is non-empty; `h` appears only in
//! rows into `!pto.hif8x2`; `o` only in f32→f16 rows (scalar and packed); the rows that require
//! `sat` are exactly the float→integer rows.

use pto_runtime::convert::Rounding;

use super::Profile;
use crate::ir::types::ScalarType;
use crate::ir::{Rnd, Type};

/// The operand-type class of a `pto.convert` source or destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    I32,
    I64,
    F16,
    BF16,
    F32,
    /// `vector<2xf16>`.
    V2F16,
    V2BF16,
    V2F32,
    V2F8E4M3FN,
    V2F8E5M2,
    /// `vector<2x!pto.hif8>` / `vector<2xhif8>`: a packed type PTOAS accepts in no pair.
    V2Hif8,
    /// `!pto.hif8x2`.
    Hif8x2,
    /// `!pto.f4E2M1x2`.
    F4E2M1x2,
    /// `!pto.f4E1M2x2`.
    F4E1M2x2,
}

impl Class {
    /// Integer (scalar) classes.
    pub fn is_int(self) -> bool {
        matches!(self, Class::I32 | Class::I64)
    }
    /// Packed pairs and the fp4 carriers (PTOAS: "packed" or "low precision").
    pub fn is_packed(self) -> bool {
        !matches!(
            self,
            Class::I32 | Class::I64 | Class::F16 | Class::BF16 | Class::F32
        )
    }
    /// The type as written in PTOAS's messages and the docs.
    pub fn text(self) -> &'static str {
        match self {
            Class::I32 => "i32",
            Class::I64 => "i64",
            Class::F16 => "f16",
            Class::BF16 => "bf16",
            Class::F32 => "f32",
            Class::V2F16 => "vector<2xf16>",
            Class::V2BF16 => "vector<2xbf16>",
            Class::V2F32 => "vector<2xf32>",
            Class::V2F8E4M3FN => "vector<2xf8E4M3FN>",
            Class::V2F8E5M2 => "vector<2xf8E5M2>",
            Class::V2Hif8 => "vector<2xhif8>",
            Class::Hif8x2 => "!pto.hif8x2",
            Class::F4E2M1x2 => "!pto.f4E2M1x2",
            Class::F4E1M2x2 => "!pto.f4E1M2x2",
        }
    }
}

fn scalar_class(s: &ScalarType) -> Option<Class> {
    Some(match s {
        ScalarType::F16 => Class::F16,
        ScalarType::BF16 => Class::BF16,
        ScalarType::F32 => Class::F32,
        ScalarType::F4E2M1x2 => Class::F4E2M1x2,
        ScalarType::F4E1M2x2 => Class::F4E1M2x2,
        ScalarType::PtoOther(t) if t == "!pto.hif8x2" => Class::Hif8x2,
        // PTOAS tests `isInteger(32)`, true for `i32`, `si32` and `ui32` alike: the
        // `signed`/`unsigned` keyword, not the type, gives the interpretation.
        ScalarType::Int { width: 32, .. } => Class::I32,
        ScalarType::Int { width: 64, .. } => Class::I64,
        _ => return None,
    })
}

/// The class of a type, or `None` when PTOAS rejects it ("requires i32, i64, f16, bf16, f32 or
/// supported vector<2xT> conversion types").
pub fn class_of(ty: &Type) -> Option<Class> {
    match ty {
        Type::Scalar(s) => scalar_class(s),
        Type::Opaque(t) => {
            let elem = t.strip_prefix("vector<2x")?.strip_suffix('>')?;
            Some(match elem {
                "f16" => Class::V2F16,
                "bf16" => Class::V2BF16,
                "f32" => Class::V2F32,
                "f8E4M3FN" => Class::V2F8E4M3FN,
                "f8E5M2" => Class::V2F8E5M2,
                "!pto.hif8" | "hif8" => Class::V2Hif8,
                _ => return None,
            })
        }
        _ => None,
    }
}

/// The rounding letters of one row.
pub type Letters = &'static [Rnd];

pub const RAFCZ: Letters = &[Rnd::R, Rnd::A, Rnd::F, Rnd::C, Rnd::Z];
pub const RAFCZO: Letters = &[Rnd::R, Rnd::A, Rnd::F, Rnd::C, Rnd::Z, Rnd::O];
pub const R_ONLY: Letters = &[Rnd::R];
pub const AH: Letters = &[Rnd::A, Rnd::H];

/// One supported (src, dst) pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConvertRow {
    pub src: Class,
    pub dst: Class,
    /// The `round(...)` letters the pair accepts.
    pub rnd: Letters,
    /// The pair requires `sat` (float → integer).
    pub needs_sat: bool,
    /// PTOAS's message when `sat` is missing.
    pub sat_msg: &'static str,
    /// PTOAS's message for a letter outside `rnd`.
    pub rnd_msg: &'static str,
}

const fn r(src: Class, dst: Class, rnd: Letters, rnd_msg: &'static str) -> ConvertRow {
    ConvertRow {
        src,
        dst,
        rnd,
        needs_sat: false,
        sat_msg: "",
        rnd_msg,
    }
}

const fn fi(src: Class, dst: Class, sat_msg: &'static str, rnd_msg: &'static str) -> ConvertRow {
    ConvertRow {
        src,
        dst,
        rnd: RAFCZ,
        needs_sat: true,
        sat_msg,
        rnd_msg,
    }
}

const I2F: &str = "integer-to-floating conversion supports rounding r/a/f/c/z";
const F32I_SAT: &str = "fp32-to-integer conversion requires saturation enable";
const F32I: &str = "fp32-to-integer conversion supports rounding r/a/f/c/z";
const F32F16: &str = "fp32-to-fp16 conversion supports rounding r/a/f/c/z/o";
const F32F: &str = "fp32-to-floating conversion supports rounding r/a/f/c/z";
const H_I_SAT: &str = "fp16/bf16-to-integer conversion requires saturation enable";
const H_I: &str = "fp16/bf16-to-integer conversion supports rounding r/a/f/c/z";
const H_F: &str = "fp16/bf16-to-floating conversion supports rounding r/a/f/c/z";
const P_F32_F16: &str = "f32x2-to-f16x2 conversion supports rounding r/a/f/c/z/o";
const P_F32_BF16: &str = "f32x2-to-bf16x2 conversion supports rounding r/a/f/c/z";
const P_TO_F32: &str = "packed-to-f32x2 conversion supports rounding r/a/f/c/z";
const P_F8: &str = "f32x2-to-f8x2 conversion supports rounding r";
const P_HIF8: &str = "f32x2/f16x2-to-hif8x2 conversion supports rounding a/h";
const P_FROM_F8: &str = "f8x2/hif8x2-to-f32x2/f16x2 conversion supports rounding r/a/f/c/z";
const P_F4: &str = "bf16x2-to-f4 and f4-to-bf16x2 conversion supports rounding r/a/f/c/z";

use Class::*;

/// Every supported pair (PTOAS `verifyConvertControls` / `verifyPackedConvertControls`).
#[rustfmt::skip]
pub const ROWS: [ConvertRow; 33] = [
    // integer -> float: i32 to f32/f16/bf16, i64 only to f32.
    r(I32, F32, RAFCZ, I2F),
    r(I32, F16, RAFCZ, I2F),
    r(I32, BF16, RAFCZ, I2F),
    r(I64, F32, RAFCZ, I2F),
    // float -> integer: sat required; i64 only from f32.
    fi(F32, I32, F32I_SAT, F32I),
    fi(F32, I64, F32I_SAT, F32I),
    fi(F16, I32, H_I_SAT, H_I),
    fi(BF16, I32, H_I_SAT, H_I),
    // float -> float (same-type conversions included, as PTOAS accepts them).
    r(F32, F16, RAFCZO, F32F16),
    r(F32, BF16, RAFCZ, F32F),
    r(F32, F32, RAFCZ, F32F),
    r(F16, F32, RAFCZ, H_F),
    r(F16, F16, RAFCZ, H_F),
    r(F16, BF16, RAFCZ, H_F),
    r(BF16, F32, RAFCZ, H_F),
    r(BF16, F16, RAFCZ, H_F),
    r(BF16, BF16, RAFCZ, H_F),
    // packed pairs.
    r(V2F32, V2F16, RAFCZO, P_F32_F16),
    r(V2F32, V2BF16, RAFCZ, P_F32_BF16),
    r(V2F16, V2F32, RAFCZ, P_TO_F32),
    r(V2BF16, V2F32, RAFCZ, P_TO_F32),
    r(V2F32, V2F8E4M3FN, R_ONLY, P_F8),
    r(V2F32, V2F8E5M2, R_ONLY, P_F8),
    r(V2F32, Hif8x2, AH, P_HIF8),
    r(V2F16, Hif8x2, AH, P_HIF8),
    r(V2F8E4M3FN, V2F32, RAFCZ, P_FROM_F8),
    r(V2F8E5M2, V2F32, RAFCZ, P_FROM_F8),
    r(Hif8x2, V2F32, RAFCZ, P_FROM_F8),
    r(Hif8x2, V2F16, RAFCZ, P_FROM_F8),
    r(V2BF16, F4E2M1x2, RAFCZ, P_F4),
    r(V2BF16, F4E1M2x2, RAFCZ, P_F4),
    r(F4E2M1x2, V2BF16, RAFCZ, P_F4),
    r(F4E1M2x2, V2BF16, RAFCZ, P_F4),
];

/// The f8x2 → f16x2 rows PTOAS also accepts (`f8x2/hif8x2-to-f32x2/f16x2`), kept apart so the
/// table above stays in PTOAS's order of checks.
#[rustfmt::skip]
pub const ROWS_F8_TO_F16: [ConvertRow; 2] = [
    r(V2F8E4M3FN, V2F16, RAFCZ, P_FROM_F8),
    r(V2F8E5M2, V2F16, RAFCZ, P_FROM_F8),
];

/// The rows of a profile (identical on every profile: see the module doc).
pub fn rules_for(_profile: Profile) -> impl Iterator<Item = &'static ConvertRow> {
    ROWS.iter().chain(ROWS_F8_TO_F16.iter())
}

/// The row of a pair on a profile.
pub fn lookup(profile: Profile, src: Class, dst: Class) -> Option<&'static ConvertRow> {
    rules_for(profile).find(|r| r.src == src && r.dst == dst)
}

/// The PTOAS message for an unsupported pair, by the same case split as PTOAS (scalar pairs;
/// packed pairs get the list of packed pairs).
pub fn unsupported_pair_message(src: Class, dst: Class) -> &'static str {
    if src.is_packed() || dst.is_packed() {
        return "unsupported packed conversion type pair; supported packed pairs are \
                f32x2-to-f16x2, f16x2-to-f32x2, f32x2-to-bf16x2, and bf16x2-to-f32x2, \
                f32x2-to-f8x2, f32x2/f16x2-to-hif8x2, f8x2/hif8x2-to-f32x2/f16x2, and \
                bf16x2-to/from-f4";
    }
    match (src, dst) {
        (I64, _) => "supports i64 conversion only to f32 in the confirmed slice",
        (I32, _) => "unsupported integer-to-floating conversion type pair",
        (_, I64) => "supports conversion to i64 only from f32 in the confirmed slice",
        _ => "unsupported conversion type pair",
    }
}

/// The exact core's mode for a rounding letter (pto.convert's and pto.vcvt's `rnd`, the one
/// mapping both use): r = RINT (ties to even), a = ROUND (ties away), f = FLOOR,
/// c = CEIL, z = TRUNC, o = ODD, h = hybrid (not executable: `rounding-hybrid-unsupported`).
pub fn rounding_of(l: Rnd) -> Rounding {
    match l {
        Rnd::R => Rounding::Rint,
        Rnd::A => Rounding::Round,
        Rnd::F => Rounding::Floor,
        Rnd::C => Rounding::Ceil,
        Rnd::Z => Rounding::Trunc,
        Rnd::O => Rounding::Odd,
        Rnd::H => Rounding::Hybrid,
    }
}

/// The letter as written in `round(...)`.
pub fn letter(l: Rnd) -> &'static str {
    match l {
        Rnd::R => "r",
        Rnd::A => "a",
        Rnd::F => "f",
        Rnd::C => "c",
        Rnd::Z => "z",
        Rnd::O => "o",
        Rnd::H => "h",
    }
}

/// Reads a `round(...)` letter.
pub fn parse_letter(s: &str) -> Option<Rnd> {
    Rnd::ALL.into_iter().find(|r| letter(*r) == s)
}

/// The letters of a row as PTOAS writes them (`r/a/f/c/z`).
pub fn letters_text(l: Letters) -> String {
    l.iter().map(|r| letter(*r)).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_invariants() {
        let all: Vec<_> = rules_for(Profile::A5).collect();
        for (i, a) in all.iter().enumerate() {
            assert!(!a.rnd.is_empty());
            for b in &all[i + 1..] {
                assert!(!(a.src == b.src && a.dst == b.dst), "{a:?}");
            }
            assert_eq!(a.rnd.contains(&Rnd::H), a.dst == Hif8x2, "{a:?}");
            let f32_f16 = matches!((a.src, a.dst), (F32, F16) | (V2F32, V2F16));
            assert_eq!(a.rnd.contains(&Rnd::O), f32_f16, "{a:?}");
            assert_eq!(a.needs_sat, a.dst.is_int(), "{a:?}");
            assert!(!(a.src.is_int() && a.dst.is_int()));
            assert_eq!(a.src.is_packed(), a.dst.is_packed(), "{a:?}");
        }
        for p in Profile::ALL {
            assert_eq!(rules_for(p).count(), all.len());
        }
    }

    #[test]
    fn letters_round_trip() {
        for l in Rnd::ALL {
            assert_eq!(parse_letter(letter(l)), Some(l));
        }
        assert_eq!(letters_text(RAFCZ), "r/a/f/c/z");
    }
}
