//! Conversions under a chosen toolchain's defaults (`target::toolchain`), and the search for
//! an input whose result depends on that choice.
//!
//! [`conv_spec_for`] fills what an op left open (`satmode`, `rmode = NONE`) as the toolchain
//! does, then resolves as [`conv_spec`] does; resolution notes about a value the toolchain
//! filled in are dropped (they would blame the user for an attribute they did not write).
//!
//! [`default_dependence`] runs the pair under every toolchain and returns the first input where
//! the results differ: every pattern of a source of ≤ 16 bits, else a fixed sample (a few
//! values users write, every pattern of the high 16 bits with low halves 0, 0x7FFF, 0x8000 and
//! 0xFFFF, and the low 16 bits alone). `None` means every choice gives the same result on the
//! sample (for ≤ 16-bit sources: on every input). Results are cached per (profile, pair,
//! attributes): a module repeats the same few conversions.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use pto_runtime::{ConvSpec, Converter, ElemType};

use super::spec::conv_spec;
use super::ExecError;
use crate::ir::RoundMode;
use crate::target::resolve::ResolveDiag;
use crate::target::tcvt::Sat;
use crate::target::toolchain::Toolchain;
use crate::target::Profile;

/// [`conv_spec`] with `toolchain`'s defaults for what the op left open.
pub fn conv_spec_for(
    toolchain: Toolchain,
    profile: Profile,
    src: ElemType,
    dst: ElemType,
    rmode: Option<RoundMode>,
    sat: Option<Sat>,
    has_tmp: bool,
) -> Result<(ConvSpec, Vec<ResolveDiag>), ExecError> {
    let (r, s) = toolchain.fill(rmode, sat);
    let (spec, mut diags) = conv_spec(profile, src, dst, r, s, has_tmp)?;
    diags.retain(|d| match d {
        ResolveDiag::SatOffIgnored { .. } => s == sat,
        _ => r == rmode,
    });
    Ok((spec, diags))
}

/// An input whose result depends on the toolchain's defaults, and each toolchain's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefaultWitness {
    pub input: u64,
    /// In [`Toolchain::ALL`] order.
    pub results: Vec<(Toolchain, u64)>,
}

type Key = (
    Profile,
    ElemType,
    ElemType,
    Option<RoundMode>,
    Option<Sat>,
    bool,
);

fn cache() -> &'static Mutex<HashMap<Key, Option<DefaultWitness>>> {
    static CACHE: OnceLock<Mutex<HashMap<Key, Option<DefaultWitness>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The inputs searched (module doc).
fn sample(src: ElemType) -> Vec<u64> {
    let bits = src.value_bits();
    if bits <= 16 {
        return (0..1u64 << bits).collect();
    }
    let mut v: Vec<u64> = Vec::new();
    if src == ElemType::F32 {
        // Values kernels write: 1e6 (f16 overflow), 2.7 (rounding), ties, large magnitudes.
        for x in [
            1.0e6f32, 2.7, -2.7, 2.5, -2.5, 0.5, 1.5, 65504.5, 70000.0, 3.0e9, -3.0e9,
        ] {
            v.push(u64::from(x.to_bits()));
        }
    }
    let shift = bits.saturating_sub(16);
    for hi in 0..1u64 << 16 {
        for lo in [0u64, 0x7FFF, 0x8000, 0xFFFF] {
            v.push((hi << shift) | (lo & ((1u64 << shift) - 1)));
        }
    }
    v.extend(0..1u64 << 16);
    v
}

/// The first input whose result differs between toolchains, or `None` (module doc).
pub fn default_dependence(
    profile: Profile,
    src: ElemType,
    dst: ElemType,
    rmode: Option<RoundMode>,
    sat: Option<Sat>,
    has_tmp: bool,
) -> Option<DefaultWitness> {
    let key = (profile, src, dst, rmode, sat, has_tmp);
    if let Some(hit) = cache().lock().ok().and_then(|c| c.get(&key).cloned()) {
        return hit;
    }
    let found = search(key);
    if let Ok(mut c) = cache().lock() {
        c.insert(key, found.clone());
    }
    found
}

fn search((profile, src, dst, rmode, sat, has_tmp): Key) -> Option<DefaultWitness> {
    let mut convs: Vec<(Toolchain, ConvSpec, Converter)> = Vec::new();
    for t in Toolchain::ALL {
        let (spec, _) = conv_spec_for(t, profile, src, dst, rmode, sat, has_tmp).ok()?;
        let conv = Converter::new(spec).ok()?;
        convs.push((t, spec, conv));
    }
    if convs.iter().all(|(_, s, _)| *s == convs[0].1) {
        return None;
    }
    sample(src).into_iter().find_map(|x| {
        let results: Vec<(Toolchain, u64)> = convs
            .iter()
            .map(|(t, _, c)| (*t, c.convert_bits(x)))
            .collect();
        let differs = results.iter().any(|r| r.1 != results[0].1);
        differs.then_some(DefaultWitness { input: x, results })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_examples_have_witnesses_and_choice_free_pairs_have_none() {
        // a5 f32 -> f16 without satmode: 1e6 saturates (pto-isa ON) or overflows (0.61 OFF).
        let w = default_dependence(Profile::A5, ElemType::F32, ElemType::F16, None, None, false)
            .expect("a5 f32 -> f16 depends on the omitted satmode");
        assert_eq!(w.input, u64::from(1.0e6f32.to_bits()));
        assert_eq!(w.results[0], (Toolchain::PtoIsa, 0x7BFF));
        assert_eq!(w.results[1], (Toolchain::Ptoas061, 0x7C00));
        // f32 -> i32 NONE: TRUNC (pto-isa) against RINT (PTOAS): 2.7 gives 2 or 3.
        let w = default_dependence(
            Profile::Cpu,
            ElemType::F32,
            ElemType::I32,
            Some(RoundMode::None),
            Some(Sat::On),
            false,
        )
        .expect("NONE decides");
        assert_eq!(w.input, u64::from(2.7f32.to_bits()));
        assert_eq!(w.results[0].1, 2);
        assert_eq!(w.results[1].1, 3);
        // Widening i16 -> i32 is exact whatever the saturation: no witness.
        assert_eq!(
            default_dependence(
                Profile::Cpu,
                ElemType::I16,
                ElemType::I32,
                None,
                None,
                false
            ),
            None
        );
        // a5 f16 -> f32 without satmode does depend on it: sat ON clamps an infinity.
        let w = default_dependence(Profile::A5, ElemType::F16, ElemType::F32, None, None, false)
            .expect("sat decides ±Inf");
        assert_eq!(w.input, 0x7C00);
    }
}
