//! Bit-exact models of the SFPU's partly fused multiply-add (tensix.md §3), restated in Rust from
//! the behaviour documented in ISA `Miscellaneous/FMA/README.md` / `fma.c` (identical to TTSIM
//! `fma.cpp`): [`fma_wh`] and [`fma_bh`] compute `x * y + z` on FP32 bit patterns.
//!
//! Invariant: pure, total functions of their inputs; no host floating point is used. Field widths
//! follow the reference exactly: the product mantissa is 64-bit, the addend mantissa 32-bit, which
//! matters for the semi-sticky alignment shift (a shift ≥ the variable's width yields 0).

/// Unpacked operand: biased exponent and mantissa with the hidden bit (0 for zero/denormal).
#[inline(always)]
fn unpack(v: u32) -> (i32, u32) {
    let e = ((v >> 23) & 255) as i32;
    let m = if e == 0 {
        0
    } else {
        (v & 0x7F_FFFF) | 0x80_0000
    };
    (e, m)
}

/// Right shift by `s`; shifts ≥ 64 give 0; otherwise, if the shifted value is non-zero, bit 0
/// becomes sticky with the bits shifted out.
#[inline(always)]
fn semi_sticky64(v: u64, s: i32) -> u64 {
    if s >= 64 {
        return 0;
    }
    let r = v >> s;
    if r != 0 {
        r | u64::from((r << s) != v)
    } else {
        r
    }
}

/// As [`semi_sticky64`] for a 32-bit variable (shifts ≥ 32 give 0).
#[inline(always)]
fn semi_sticky32(v: u32, s: i32) -> u32 {
    if s >= 32 {
        return 0;
    }
    let r = v >> s;
    if r != 0 {
        r | u32::from((r << s) != v)
    } else {
        r
    }
}

/// Common front end: returns `(p_sign, p_m, p_e, z_sign, z_m, z_e, specials)` where `p_m` has
/// already been narrowed to the addend's alignment (step 4 of §3).
struct Front {
    x_e: i32,
    x_m: u32,
    y_e: i32,
    y_m: u32,
    z_e: i32,
    z_m: u32,
    z_sign: u32,
    p_sign: u32,
    p_m: u64,
    p_e: i32,
}

#[inline(always)]
fn front(x: u32, y: u32, z: u32) -> Front {
    let (x_e, x_m) = unpack(x);
    let (y_e, y_m) = unpack(y);
    let (z_e, z_m) = unpack(z);
    let p_sign = (x ^ y) & 0x8000_0000;
    let mut p_m = u64::from(x_m) * u64::from(y_m);
    let mut p_e = x_e + y_e - 23 - 127;
    p_m <<= 3;
    let z_m = z_m << 3;
    p_m = (p_m >> 23) | u64::from(p_m & 0x7F_FFFF != 0);
    p_e += 23;
    Front {
        x_e,
        x_m,
        y_e,
        y_m,
        z_e,
        z_m,
        z_sign: z & 0x8000_0000,
        p_sign,
        p_m,
        p_e,
    }
}

/// Steps 7–8: align and add; returns `(r_sign, r_m, r_e)`.
#[inline(always)]
fn add(
    mut p_m: u64,
    p_e: i32,
    p_sign: u32,
    mut z_m: u32,
    z_e: i32,
    z_sign: u32,
) -> (u32, u32, i32) {
    let r_e = p_e.max(z_e);
    if p_e < r_e {
        p_m = semi_sticky64(p_m, r_e - p_e);
    }
    if z_e < r_e {
        z_m = semi_sticky32(z_m, r_e - z_e);
    }
    let r_sign = if p_m >= u64::from(z_m) {
        p_sign
    } else {
        z_sign
    };
    if z_sign != r_sign {
        z_m = !z_m;
    }
    if p_sign != r_sign {
        p_m = !p_m;
    }
    let r_m = z_m
        .wrapping_add(p_m as u32)
        .wrapping_add(u32::from(p_sign != z_sign));
    (r_sign, r_m, r_e)
}

/// Blackhole SFPMAD: signed zeros, canonical NaN `0x7FC00000`, denormal results rounded then
/// flushed to signed zero.
pub fn fma_bh(x: u32, y: u32, z: u32) -> u32 {
    let f = front(x, y, z);
    if f.x_e == 255 || f.y_e == 255 || f.p_e >= 255 || f.z_e == 255 {
        let nan = (f.x_e == 255 && (f.x_m != 0x80_0000 || f.y_m == 0))
            || (f.y_e == 255 && (f.y_m != 0x80_0000 || f.x_m == 0))
            || (f.z_e == 255 && f.z_m != 0x400_0000)
            || (f.z_e == 255 && (f.x_e == 255 || f.y_e == 255) && f.z_sign != f.p_sign);
        return if nan {
            0x7FC0_0000
        } else if f.z_e == 255 {
            z
        } else {
            f.p_sign | 0x7F80_0000
        };
    }
    if f.p_m == 0 || f.p_e < 0 {
        return if f.z_m != 0 { z } else { f.z_sign & f.p_sign };
    }
    let (r_sign, mut r_m, mut r_e) = add(f.p_m, f.p_e, f.p_sign, f.z_m, f.z_e, f.z_sign);
    if r_m == 0 {
        return f.z_sign & f.p_sign;
    }
    let mut n = 5 - r_m.leading_zeros() as i32;
    r_e += n;
    if r_e >= 255 {
        return r_sign | 0x7F80_0000;
    }
    if r_e <= 0 {
        n += 1;
        r_e = 0;
    }
    if n <= 0 {
        r_m <<= -n;
    } else {
        // The reference keeps a sticky bit from `r_m & (n | 1)` (sic).
        r_m = (r_m >> n) | u32::from(r_m & ((n as u32) | 1) != 0);
    }
    let mut r = ((r_e as u32) << 23).wrapping_add((r_m >> 3) & 0x7F_FFFF);
    r = r.wrapping_add(u32::from((r_m & 7) + (r & 1) > 4));
    if r >> 23 == 0 {
        r = 0;
    }
    r_sign | r
}

/// Wormhole SFPMAD: zeros always +0, NaNs `≥ 0x7F800001` with leaked mantissa bits, blatant
/// denormals flushed before rounding, the 1-bit sticky normalisation bug.
pub fn fma_wh(x: u32, y: u32, z: u32) -> u32 {
    let mut f = front(x, y, z);
    let mut nan = 0u32;
    if f.x_e == 255 || f.y_e == 255 || f.p_e >= 255 || f.z_e == 255 {
        if (f.x_e == 255 && (f.x_m != 0x80_0000 || f.y_m == 0))
            || (f.y_e == 255 && (f.y_m != 0x80_0000 || f.x_m == 0))
            || (f.z_e == 255
                && f.z_m == 0x400_0000
                && (f.x_e == 255 || f.y_e == 255 || f.p_e >= 255)
                && f.z_sign != f.p_sign)
        {
            nan = f.p_sign | 0x7F80_0001;
        } else if f.z_e == 255 && f.z_m != 0x400_0000 {
            nan = f.z_sign | 0x7F80_0001;
        } else if f.z_e == 255 {
            return z;
        } else {
            return f.p_sign | 0x7F80_0000;
        }
        if f.p_e > 255 {
            f.p_e = 255;
        }
    }
    if f.p_m == 0 || f.p_e < 0 {
        if nan != 0 {
            f.p_m = 0;
            f.p_e = 0;
        } else {
            return if f.z_m != 0 { z } else { 0 };
        }
    }
    let (r_sign, mut r_m, mut r_e) = add(f.p_m, f.p_e, f.p_sign, f.z_m, f.z_e, f.z_sign);
    if r_m == 0 {
        return nan;
    }
    let n = 5 - r_m.leading_zeros() as i32;
    r_e += n;
    if r_e >= 255 {
        return if nan != 0 { nan } else { r_sign | 0x7F80_0000 };
    }
    if r_e < 0 {
        return nan;
    }
    if n <= 0 {
        r_m <<= -n;
    } else {
        r_m = (r_m >> n) | (r_m & 1);
    }
    let mut r = ((r_e as u32) << 23).wrapping_add((r_m >> 3) & 0x7F_FFFF);
    r = r.wrapping_add(u32::from((r_m & 7) + (r & 1) > 4));
    if r >> 23 == 0 {
        return nan;
    }
    (if nan != 0 { nan } else { r_sign }) | r
}

/// The arch's model.
#[inline]
pub fn fma(arch: super::Arch, x: u32, y: u32, z: u32) -> u32 {
    match arch {
        super::Arch::Wh => fma_wh(x, y, z),
        super::Arch::Bh => fma_bh(x, y, z),
    }
}
