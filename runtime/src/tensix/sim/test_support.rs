//! Random machine contents shared by the simulator's randomised unit tests (the fast-path and
//! macro-expansion oracles), so both draw from the same distribution.

/// 32 lane values biased towards what exercises corner cases: small and negative integers (shift
/// amounts, signs) and floats with the top exponent bits cleared, besides any bit pattern.
pub(super) fn biased_lanes(rng: &mut fastrand::Rng) -> [u32; 32] {
    let mut v = [0u32; 32];
    for x in v.iter_mut() {
        *x = match rng.u8(..3) {
            0 => rng.u32(..),
            1 => rng.i32(-40..40) as u32,
            _ => rng.u32(..) & 0xC07F_FFFF,
        };
    }
    v
}
