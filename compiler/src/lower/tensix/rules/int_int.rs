//! int → int rules (semantics.md §4.6): sat ON clamps the exact source value to the destination
//! range, sat OFF keeps its low N bits. The rounding mode has no effect (every mode selects the
//! same sequence). All sequences are integer-domain (SFPIADD / SFPSHFT / SFPLZ / SFPAND / SFPXOR
//! with SFPSETCC / flag-writing SFPIADD predication), so Wormhole and Blackhole compute the same
//! bits; only `sext` and `clamp_signed` use the Blackhole arithmetic shift when it saves a cycle.
//!
//! Datum forms (`tensix::io`): i32/ui32 raw, i16/i8 sign-extended, ui16/ui8 zero-extended. So the
//! loaded word *is* the source value as an i32 for every source but ui32 (whose word is the value
//! as a u32), and a destination datum is the result value written the same way.
//!
//! ## `copy` — every pair whose source range lies inside the destination range (both sat
//! modes), and every pair into i32/ui32 with sat OFF: 2 instructions, 2 c/row
//! Load, store. Exact: the source datum already is the destination datum of the same value
//! (sat OFF into 32 bits: the datum is the two's complement word of the value, i.e. its low 32
//! bits). This is the published u16 → u32 sequence (tensix.md §8.11), unchanged.
//!
//! ## `wrap_unsigned` — sat OFF into ui16 / ui8 from a wider or signed source: 3 instructions
//! Load, `x &= 2^N − 1` (constant register), store. Exact: the datum's low N bits are the value's
//! low N bits, zero-extended is the ui datum. (§8.12/§8.13 sat OFF, written without view mixing.)
//!
//! ## `sext` — sat OFF into i16 / i8: 4 (WH, source ui16→i16 / ui8→i8) or 5 (WH) / 4 (BH)
//! Wormhole: `x &= 2^N − 1` (skipped when the source is already N-bit zero-extended),
//! `x ^= 2^(N−1)`, `x += −2^(N−1)` — the classic sign extension of the low N bits.
//! Blackhole: `x <<= 32 − N`, `x >>= 32 − N` arithmetic. Exact by construction.
//!
//! ## `clamp_upper` — sat ON from an unsigned source into a narrower range
//! ui32 → ui16/i16/ui8/i8: 6 instructions, plain 7 c/row, **macro 2 c/row** (BH and WH);
//! ui16 → i16/ui8/i8, ui8 → i8: 4 instructions, plain 4, **macro 1 c/row**;
//! ui32 → i32: BH 5 instructions, plain 5, **macro 3**: `m = x >> 31` (arithmetic, copying),
//! `x |= m`, clear bit 31 (SFPSETSGN) — INT_MAX for x ≥ 2^31, x otherwise, flag-free so the last
//! step is the macro's Simple slot into L16; WH (no arithmetic shift) 5 instructions, SFPSETCC on
//! bit 31 and INT_MAX there, plain 5, macro 4.
//! Sequence (ui32 sources): `f = cast(x)` into a second register; `s = x >> 1`;
//! `F = 2^127·s + f` (SFPMAD); `r = SFPSTOCHRND FP32_TO_{UINT16,INT16,UINT8,INT8}(F)`; store.
//! 16/8-bit sources skip `s` and the MAD: `r = rnd(cast(x))`.
//! Exact: the clamping bound max < 2^16 and SFPSTOCHRND's bounded-int modes return max for
//! F ≥ max + 0.5, ±Inf and NaN (unsigned modes drop the sign; the signed ones see only
//! positive F here) and F itself when F is an integer below the bound. SFPCAST reads x as
//! sign-magnitude: for x < 2^31 it is x's value (exact below 2^24, rounded above and still
//! ≥ 2^24), for x ≥ 2^31 it is ≤ −0 — wrong, which the MAD repairs: `s = x >> 1` has exponent
//! field 0 for x < 2^24, which SFPMAD reads as zero, so F = f exactly (§3 step 6); for
//! 2^24 ≤ x < 2^31 both terms are ≥ 0, F ≥ f ≥ 2^24; for x ≥ 2^31 bit 30 of s is set, s ≥ 2,
//! and the product alone overflows to +Inf (NaN when s is NaN), which no addend brings back.
//! So F is x below the bound and ≥ 2^16 (or Inf/NaN) above it on both archs' FMA models.
//! Macro form (scheduler): the cast stays regular (its result goes to a second register), the
//! shift (Simple, VB form), the MAD (VB form) and the SFPSTOCHRND (Round, → L16) are slots of
//! one SFPLOADMACRO with the store; the chain reads `v` 5 cycles after its load, so `v`
//! rotates through 4 registers. The 16/8-bit form is the published u16 → fp32 shape (§8.5)
//! with a Round slot: cast (Simple), rnd (Round, → L16), store, `v` alternating.
//! Origin: the published u32 → u16 saturating sequence (§8.12, 2 c/row) mixes 16/32-bit Dst
//! views (Q1: its `LO16` load reads the high half of the 32-bit datum); this one reaches the
//! same 2 c/row with raw INT32 loads and stores only, and covers the other bounds too. It
//! replaces a clz-based form (SFPLZ, flag-writing SFPIADD, predicated move: 6 plain / 5 macro
//! c/row) whose lane flags kept three instructions out of the macro slots.
//!
//! ## `clamp_lower` — sat ON from a signed source into an unsigned type at least as wide
//! (i32 → ui32, i16 → ui16/ui32, i8 → ui8/ui16/ui32): 5 instructions
//! Lanes with x < 0 (SFPSETCC) get 0; store. Exact: every non-negative value fits.
//!
//! ## `clamp_unsigned` — sat ON from a signed source into a narrower unsigned type (i32 → ui16/
//! ui8, i16 → ui8): 5 instructions, plain 6 c/row (SFPSWAP stall), macro 3 c/row on both archs
//! The published i32 → u16 sequence (§8.13): SFPCAST reads the word as sign-magnitude, so every
//! negative x becomes a negative float (INT_MIN the sign-magnitude −0) and every x ≥ 0 its
//! value (exact below 2^24, rounded above — still ≥ 2^16); SFPSWAP MAX_MIN with L9 keeps
//! max(·, +0) in the sign-magnitude order (negatives and −0 → +0); SFPSTOCHRND FP32_TO_UINT16 /
//! FP32_TO_UINT8 gives the exact integer below the bound and the bound from max + 0.5 up. No
//! rounding ever matters: the float is an integer, and the rounded ones are far above the bound.
//! Macro form (scheduler): SWAP (Simple, VB form) and SFPSTOCHRND (Round, → L16) as slots with
//! the store, SFPCAST regular, one SFPNOP (the cycle after a SWAP), `v` alternating.
//!
//! ## `clamp_signed` — sat ON from a signed source into a narrower signed type (i32 → i16/i8,
//! i16 → i8): WH 10 (i32 → i16) / 9, BH 9 / 8
//! `t = x + 2^(N−1)` (wrapping); `lz = clz(t)`; `lz −= 32 − N` with flags: lanes where t ≥ 2^N as
//! a u32, i.e. x outside [−2^(N−1), 2^(N−1) − 1]; there `x = max ^ (x >> 31 arithmetic)`
//! (Wormhole: logical shift then `0 − x`), which is max for x ≥ 0 and ~max = min for x < 0.
//! Exact: the biased value is in [0, 2^N) exactly for the in-range values, and the sign of the
//! original x tells which bound was crossed.

use pto_runtime::elem::ElemType;
use pto_runtime::tensix::isa::{Arch, Reg};

use super::super::builder::Builder;
use super::super::Combo;
use super::Chosen;

/// Width in bits and signedness of an integer element type carried by Tensix kernels.
fn int_info(t: ElemType) -> Option<(u32, bool)> {
    Some(match t {
        ElemType::I32 => (32, true),
        ElemType::U32 => (32, false),
        ElemType::I16 => (16, true),
        ElemType::U16 => (16, false),
        ElemType::I8 => (8, true),
        ElemType::U8 => (8, false),
        _ => return None,
    })
}

/// The value range `[min, max]` of an integer type.
fn range(bits: u32, signed: bool) -> (i64, i64) {
    if signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    }
}

/// Lowers `c` or says why not.
pub fn lower(c: &Combo, b: &mut Builder) -> Result<Chosen, String> {
    let (Some((sn, ss)), Some((dn, ds))) = (int_info(c.src), int_info(c.dst)) else {
        return Err(format!(
            "{} is not an integer pair carried by Tensix kernels",
            c.describe()
        ));
    };
    let (slo, shi) = range(sn, ss);
    let (dlo, dhi) = range(dn, ds);
    let fits = slo >= dlo && shi <= dhi;
    if fits || (!c.sat && dn == 32) {
        return Ok(copy(b));
    }
    if !c.sat {
        if !ds {
            return Ok(wrap_unsigned(b, dn));
        }
        // Source already zero-extended to N bits (ui16 → i16, ui8 → i8): no mask needed.
        let masked = !ss && sn == dn;
        return Ok(sext(b, dn, masked));
    }
    let lower_needed = slo < dlo;
    let upper_needed = shi > dhi;
    // k with max = 2^k − 1.
    let k = if ds { dn - 1 } else { dn };
    match (lower_needed, upper_needed) {
        (false, true) => Ok(clamp_upper(b, sn, k, dhi as u32)),
        (true, false) => Ok(clamp_lower(b)),
        (true, true) if !ds => Ok(clamp_unsigned(b, k)),
        (true, true) => Ok(clamp_signed(b, dn)),
        (false, false) => Ok(copy(b)),
    }
}

fn copy(b: &mut Builder) -> Chosen {
    b.load(
        Reg::L0,
        "x: the source datum is already the destination datum",
    );
    b.store(Reg::L0, "same word");
    Chosen::new(
        "int_int::copy",
        &["load + store: the source datum is the destination datum (tensix.md §8.11 shape)"],
    )
}

fn wrap_unsigned(b: &mut Builder, n: u32) -> Chosen {
    let mask = b.constant((1u32 << n) - 1, Reg::L1, "low-N-bits mask");
    b.load(Reg::L0, "x (source datum)");
    b.op(
        &format!("sfpand 0, L{}, L0, 0", mask.0),
        "keep the low N bits (zero-extended ui datum)",
    );
    b.store(Reg::L0, "low N bits of x");
    Chosen::new(
        "int_int::wrap_unsigned",
        &["sat OFF: low N bits by one AND; exact by construction"],
    )
}

fn sext(b: &mut Builder, n: u32, already_zero_extended: bool) -> Chosen {
    if b.arch() == Arch::Bh {
        b.load(Reg::L0, "x (source datum)");
        b.op(
            &format!("sfpshft {}, L0, L0, IMM", 32 - n),
            "move bit N−1 to bit 31",
        );
        b.op(
            &format!("sfpshft -{}, L0, L0, IMM|ARITHMETIC", 32 - n),
            "arithmetic shift back: sign-extended low N bits",
        );
        b.store(Reg::L0, "low N bits of x, sign-extended");
        return Chosen::new(
            "int_int::sext",
            &["sat OFF: sign-extend the low N bits (BH arithmetic shift pair); exact"],
        );
    }
    let sign = 1u32 << (n - 1);
    let mask = if already_zero_extended {
        None
    } else {
        Some(b.constant((1u32 << n) - 1, Reg::L1, "low-N-bits mask"))
    };
    let flip = b.constant(sign, Reg::L2, "sign bit of the N-bit field");
    let unbias = if n == 16 {
        Some(b.constant(sign.wrapping_neg(), Reg::L3, "−2^(N−1)"))
    } else {
        None
    };
    b.load(Reg::L0, "x (source datum)");
    if let Some(m) = mask {
        b.op(&format!("sfpand 0, L{}, L0, 0", m.0), "keep the low N bits");
    }
    b.op(
        &format!("sfpxor 0, L{}, L0, 0", flip.0),
        "flip bit N−1: the field read as unsigned is now value + 2^(N−1)",
    );
    match unbias {
        Some(u) => b.op(
            &format!("sfpiadd 0, L{}, L0, CC_NONE", u.0),
            "subtract 2^(N−1): the signed value, sign-extended",
        ),
        None => b.op(
            &format!("sfpiadd -{sign}, L0, L0, IMM|CC_NONE"),
            "subtract 2^(N−1): the signed value, sign-extended",
        ),
    }
    b.store(Reg::L0, "low N bits of x, sign-extended");
    Chosen::new(
        "int_int::sext",
        &["sat OFF: sign-extend the low N bits as ((x & m) ^ s) − s; exact"],
    )
}

fn clamp_upper(b: &mut Builder, src_bits: u32, k: u32, max: u32) -> Chosen {
    if k == 31 && b.arch() == Arch::Bh {
        // ui32 → i32 (BH): flag-free, so the last step can be a macro slot.
        b.load(Reg::L0, "x (ui32)");
        b.op(
            "sfpshft -31, L0, L1, IMM|ARITHMETIC|IMM_USE_VC",
            "m = x >> 31 arithmetic: −1 with bit 31 set, else 0",
        );
        b.op(
            "sfpor 0, L1, L0, 0",
            "x |= m: all ones with bit 31 set, else x",
        );
        b.op(
            "sfpsetsgn 0, L0, L0, ARG_IMM",
            "clear bit 31: INT_MAX with bit 31 set, else x",
        );
        b.store(Reg::L0, "clamped i32");
        return Chosen::new(
            "int_int::clamp_upper",
            &["sat ON ui32 → i32 (BH): (x | x >> 31 arithmetic) with bit 31 cleared: INT_MAX for words with bit 31 set, x otherwise; exact"],
        );
    }
    if k == 31 {
        // ui32 → i32: out of range exactly when bit 31 is set.
        let maxr = b.constant(max, Reg::L2, "INT_MAX");
        b.load(Reg::L0, "x (ui32)");
        b.op(
            "sfpsetcc 0, L0, 0, LREG_LT0",
            "lanes with x ≥ 2^31 (bit 31 set)",
        );
        b.op(
            &format!("sfpmov 0, L{}, L0, 0", maxr.0),
            "x = INT_MAX there",
        );
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
        b.store(Reg::L0, "clamped i32");
        return Chosen::new(
            "int_int::clamp_upper",
            &["sat ON ui32 → i32: words with bit 31 set → INT_MAX; exact"],
        );
    }
    let mode = match k {
        16 => "FP32_TO_UINT16",
        15 => "FP32_TO_INT16",
        8 => "FP32_TO_UINT8",
        _ => "FP32_TO_INT8",
    };
    b.load(Reg::L0, "x (unsigned source datum)");
    if src_bits == 32 {
        let big = b.constant(0x7F00_0000, Reg::L2, "2^127");
        b.op(
            "sfpcast L0, L1, 0",
            "f = x read as sign-magnitude, RNE: x exactly below 2^24, ≥ 2^24 up to 2^31, ≤ −0 with bit 31 set",
        );
        b.op(
            "sfpshft -1, L9, L0, IMM",
            "s = x >> 1: a float with exponent 0 (read as zero) for x < 2^24, ≥ 2.0 with bit 31 set",
        );
        b.op(
            &format!("sfpmad L{}, L0, L1, L0, 0", big.0),
            "F = 2^127·s + f: f for x < 2^24, ≥ f for x < 2^31, +Inf (or NaN) with bit 31 set",
        );
    } else {
        b.op("sfpcast L0, L0, 0", "F = float(x), exact (x < 2^16)");
    }
    b.op(
        &format!("sfpstochrnd 0, 0, L0, L0, L0, {mode}"),
        "F below the bound: F (an integer); F ≥ max + 0.5, Inf or NaN: max",
    );
    b.store(Reg::L0, "clamped value");
    Chosen::new(
        "int_int::clamp_upper",
        &["sat ON, unsigned source: a float that is x below 2^24 and ≥ 2^24, Inf or NaN above, clamped by SFPSTOCHRND; exact"],
    )
}

fn clamp_lower(b: &mut Builder) -> Chosen {
    b.load(Reg::L0, "x (signed source datum)");
    b.op("sfpsetcc 0, L0, 0, LREG_LT0", "lanes with x < 0");
    b.op("sfpmov 0, L9, L0, 0", "x = 0 there");
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    b.store(Reg::L0, "clamped value");
    Chosen::new(
        "int_int::clamp_lower",
        &["sat ON, signed source into a wide-enough unsigned type: negatives → 0; exact"],
    )
}

fn clamp_unsigned(b: &mut Builder, k: u32) -> Chosen {
    let mode = if k == 16 {
        "FP32_TO_UINT16"
    } else {
        "FP32_TO_UINT8"
    };
    b.load(Reg::L0, "x (signed source datum)");
    b.op(
        "sfpcast L0, L0, 0",
        "read as sign-magnitude: x < 0 gives a negative float (INT_MIN: −0), x ≥ 0 its value (RNE above 2^24)",
    );
    b.op(
        "sfpswap 0, L9, L0, MAX_MIN",
        "max(·, +0): every negative, −0 → +0",
    );
    b.op(
        &format!("sfpstochrnd 0, 0, L0, L0, L0, {mode}"),
        "to the unsigned range: exact below 2^24, ≥ max + 0.5 → max",
    );
    b.store(Reg::L0, "clamped value (zero-extended)");
    Chosen::new(
        "int_int::clamp_unsigned",
        &["sat ON, signed source into a narrower unsigned type: the published i32 → u16 float detour (tensix.md §8.13), exact"],
    )
}

fn clamp_signed(b: &mut Builder, n: u32) -> Chosen {
    let half = 1u32 << (n - 1);
    let max = half - 1;
    let maxr = b.constant(max, Reg::L2, "max of the destination");
    b.load(Reg::L0, "x (signed source datum)");
    if half <= 2047 {
        b.op(
            &format!("sfpiadd {half}, L0, L1, IMM|CC_NONE"),
            "t = x + 2^(N−1) (wrapping)",
        );
    } else {
        b.op(&format!("sfploadi L1, USHORT, {half:#x}"), "t = 2^(N−1)");
        b.op("sfpiadd 0, L0, L1, CC_NONE", "t = x + 2^(N−1) (wrapping)");
    }
    b.op("sfplz 0, L1, L1, 0", "clz(t)");
    b.op(
        &format!("sfpiadd -{}, L1, L1, IMM|CC_LT0", 32 - n),
        "lanes with t ≥ 2^N (unsigned): x out of range",
    );
    if b.arch() == Arch::Bh {
        b.op("sfpshft -31, L0, L0, IMM|ARITHMETIC", "s = x < 0 ? −1 : 0");
    } else {
        b.op("sfpshft -31, L0, L0, IMM", "x < 0 ? 1 : 0");
        b.op("sfpiadd 0, L9, L0, NEG|CC_NONE", "s = x < 0 ? −1 : 0");
    }
    b.op(
        &format!("sfpxor 0, L{}, L0, 0", maxr.0),
        "max ^ s: max for x ≥ 0, ~max = min for x < 0",
    );
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    b.store(Reg::L0, "clamped value");
    Chosen::new(
        "int_int::clamp_signed",
        &["sat ON, signed into narrower signed: biased clz range test, bound chosen by the sign; exact"],
    )
}
