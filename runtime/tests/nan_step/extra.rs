//! The extra operand w of the widened NaN-step enumeration: one value that a MAD-class
//! instruction (SFPMAD, SFPADDI, SFPMULI), a Round-unit shift (SFPSHFT2) or an SFPSTOCHRND in a
//! nearest mode computes from x and the skeleton's values, as an expression with a scalar
//! evaluator per arch, and the catalogs of such expressions the test enumerates.

use super::ops::Op;
use super::search::{pool, POOL_NAMES};
use pto_runtime::tensix::formats::Arch;
use pto_runtime::tensix::sim::fma::{fma_bh, fma_wh};

/// An operand of a MAD template: a pool value, its negation (BH NEGATE_VA / NEGATE_VC), or a
/// lane-uniform register constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opnd {
    Pool(usize),
    NegPool(usize),
    K(u32),
}

impl Opnd {
    fn at(self, p: &[u32; 10]) -> u32 {
        match self {
            Opnd::Pool(i) => p[i],
            Opnd::NegPool(i) => p[i] ^ 0x8000_0000,
            Opnd::K(k) => k,
        }
    }

    fn text(self) -> String {
        match self {
            Opnd::Pool(i) => POOL_NAMES[i].into(),
            Opnd::NegPool(i) => format!("-({})", POOL_NAMES[i]),
            Opnd::K(k) => format!("{k:#x}"),
        }
    }
}

/// One extra value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum W {
    /// SFPMAD `a·b + c` (SFPADDI: `imm·1.0 + v`, SFPMULI: `imm·v + 0`).
    Mad(Opnd, Opnd, Opnd),
    /// The same template applied to its own result: `a·w1 + c` (`second_b`) or `a·b + w1`.
    MadTwice(Opnd, Opnd, Opnd, bool),
    /// SFPSHFT2 by an immediate (once or twice) or by a pool register's amount.
    Shift(i16, usize),
    ShiftTwice(i16, i16, usize),
    ShiftBy(usize, usize),
    /// SFPSTOCHRND, nearest: Mod1 (with USE_IMM5 the imm5 shift), operand, VB for the int→int
    /// modes without USE_IMM5.
    Rnd(u8, u8, usize, usize),
}

/// SFPSTOCHRND in the nearest rounding mode (the PRNG bits are 0x400000 on both archs), `m` the
/// Mod1 field and `amt` the int→int shift (imm5 or VB & 31).
pub fn stochrnd(m: u8, x: u32, amt: u32) -> u32 {
    let p = 0x40_0000u32;
    match m & 7 {
        0 | 1 => {
            let keep = if m & 7 == 0 { 0x2000u32 } else { 0x1_0000 };
            let e = (x >> 23) & 0xFF;
            if e == 0 {
                0
            } else if e == 255 {
                x & 0xFF80_0000
            } else {
                let dropped = x & (keep - 1);
                let base = x - dropped;
                if dropped >= keep / 2 {
                    base.wrapping_add(keep)
                } else {
                    base
                }
            }
        }
        f @ (4 | 5) => {
            let sign = x & 0x8000_0000;
            let mag = (u64::from(x & 0x7FFF_FFFF) << 23) >> (amt & 31);
            let mag = (mag >> 23) + u64::from((mag & 0x7F_FFFF) as u32 >= p);
            if f == 4 {
                mag.min(255) as u32
            } else {
                let mag = mag.min(127) as u32;
                if mag == 0 {
                    0
                } else {
                    sign + mag
                }
            }
        }
        f => {
            let (keep_sign, max) = match f {
                2 => (false, 255u64),
                3 => (true, 127),
                6 => (false, 65535),
                _ => (true, 32767),
            };
            let sign = if keep_sign { x & 0x8000_0000 } else { 0 };
            let e = ((x >> 23) & 0xFF) as i32 - 127;
            if e < -1 {
                0
            } else if e >= 16 {
                sign | max as u32
            } else {
                let m0 = u64::from(0x80_0000 | (x & 0x7F_FFFF));
                let mm = if e >= 0 { m0 << e } else { m0 >> 1 };
                let mag = ((mm >> 23) + u64::from((mm & 0x7F_FFFF) as u32 >= p)).min(max);
                if mag == 0 {
                    0
                } else {
                    sign + mag as u32
                }
            }
        }
    }
}

pub fn fma(arch: Arch, a: u32, b: u32, c: u32) -> u32 {
    match arch {
        Arch::Bh => fma_bh(a, b, c),
        Arch::Wh => fma_wh(a, b, c),
    }
}

impl W {
    /// w on input x (the pool computed from x).
    pub fn eval(&self, arch: Arch, x: u32) -> u32 {
        self.eval_pool(arch, &pool(x))
    }

    pub fn eval_pool(&self, arch: Arch, p: &[u32; 10]) -> u32 {
        match *self {
            W::Mad(a, b, c) => fma(arch, a.at(p), b.at(p), c.at(p)),
            W::MadTwice(a, b, c, second_b) => {
                let w1 = fma(arch, a.at(p), b.at(p), c.at(p));
                if second_b {
                    fma(arch, a.at(p), w1, c.at(p))
                } else {
                    fma(arch, a.at(p), b.at(p), w1)
                }
            }
            W::Shift(a, v) => Op::ShftImm(a).eval(p[v], 0),
            W::ShiftTwice(a, b, v) => Op::ShftImm(b).eval(Op::ShftImm(a).eval(p[v], 0), 0),
            W::ShiftBy(amt, v) => Op::ShftReg.eval(p[amt], p[v]),
            W::Rnd(m, imm5, c, b) => {
                let amt = if m & 8 != 0 {
                    u32::from(imm5)
                } else {
                    p[b] & 31
                };
                stochrnd(m, p[c], amt)
            }
        }
    }

    /// The shape family, for the counts.
    pub fn family(&self) -> &'static str {
        match *self {
            W::Mad(Opnd::K(k), Opnd::K(0x3F80_0000), Opnd::Pool(_)) if k & 0xFFFF == 0 => "SFPADDI",
            W::Mad(Opnd::K(k), Opnd::Pool(_), Opnd::K(0)) if k & 0xFFFF == 0 => "SFPMULI",
            W::Mad(Opnd::K(_), _, Opnd::K(_)) | W::Mad(Opnd::K(_), Opnd::K(_), _) => {
                "SFPMAD, constants"
            }
            W::Mad(..) => "SFPMAD, registers",
            W::MadTwice(..) => "SFPMAD twice",
            W::Shift(..) | W::ShiftBy(..) => "SFPSHFT2",
            W::ShiftTwice(..) => "SFPSHFT2 twice",
            W::Rnd(..) => "SFPSTOCHRND",
        }
    }

    /// The families in search order (smaller and likelier first).
    pub const FAMILIES: [&'static str; 8] = [
        "SFPSTOCHRND",
        "SFPSHFT2",
        "SFPADDI",
        "SFPMULI",
        "SFPMAD, constants",
        "SFPSHFT2 twice",
        "SFPMAD, registers",
        "SFPMAD twice",
    ];

    pub fn rank(&self) -> usize {
        let f = self.family();
        W::FAMILIES.iter().position(|&g| g == f).expect("family")
    }

    pub fn text(&self) -> String {
        match *self {
            W::Mad(a, b, c) => format!("SFPMAD({}·{} + {})", a.text(), b.text(), c.text()),
            W::MadTwice(a, b, c, true) => format!(
                "SFPMAD({0}·SFPMAD({0}·{1} + {2}) + {2})",
                a.text(),
                b.text(),
                c.text()
            ),
            W::MadTwice(a, b, c, false) => format!(
                "SFPMAD({0}·{1} + SFPMAD({0}·{1} + {2}))",
                a.text(),
                b.text(),
                c.text()
            ),
            W::Shift(a, v) => format!("SFPSHFT2({}, {a})", POOL_NAMES[v]),
            W::ShiftTwice(a, b, v) => format!("SFPSHFT2(SFPSHFT2({}, {a}), {b})", POOL_NAMES[v]),
            W::ShiftBy(amt, v) => format!("SFPSHFT2({} by {})", POOL_NAMES[v], POOL_NAMES[amt]),
            W::Rnd(m, imm5, c, b) => format!(
                "SFPSTOCHRND(mod {m}, imm5 {imm5}, VC {}, VB {})",
                POOL_NAMES[c], POOL_NAMES[b]
            ),
        }
    }
}

/// The float constants a MAD template register may hold (the catalog's `K` operands).
pub fn float_catalog(wide: bool) -> Vec<u32> {
    let f = |v: f32| v.to_bits();
    let mut v = vec![
        0,
        f(1.0),
        f(0.5),
        f(2.0),
        f(1.5),
        f(3.0),
        0x3F7F_FFFF, // 1 − 2^−24
        0x3F80_0001, // 1 + 2^−23
        f(65537.0),
        f(1.5 * 65536.0),
        f(1.5 * 8_388_608.0),
        f(32768.0),
        0x7F80_0000,
        0x7FC0_0000,
        0x7F80_0001,
        0x7F7F_FFFF,
        0x0080_0000,
        0x0000_0001,
        0x007F_FFFF,
    ];
    let ks: &[i32] = if wide {
        &[
            -126, -125, -120, -100, -64, -32, -31, -24, -23, -17, -16, -15, -8, -7, -2, 7, 8, 15,
            16, 17, 23, 24, 25, 31, 32, 64, 100, 126, 127,
        ]
    } else {
        &[-126, -24, -23, -16, -8, 8, 16, 23, 24, 127]
    };
    for &k in ks {
        v.push(((127 + k) as u32) << 23);
    }
    let neg: Vec<u32> = v.iter().map(|k| k ^ 0x8000_0000).collect();
    v.extend(neg);
    let mut seen = std::collections::HashSet::new();
    v.retain(|c| seen.insert(*c));
    v
}

/// The MAD templates on a pool value v: `A·v + C` (VB is v) and `A·B + v` (VC is v), with A, B,
/// C from the float catalog or pool registers (negated ones on BH, whose NEGATE_VA / NEGATE_VC
/// flip VA and VC; a pool register in VB has no negation). With `chains`, each template applied
/// to its own result too (only constant operands, to keep the count affordable).
pub fn mad_values(arch: Arch, consts: &[u32], chains: bool) -> Vec<W> {
    let mut regs: Vec<Opnd> = consts.iter().map(|&k| Opnd::K(k)).collect();
    let mut regs_b = regs.clone();
    for i in 0..10 {
        regs.push(Opnd::Pool(i));
        regs_b.push(Opnd::Pool(i));
        if arch == Arch::Bh {
            regs.push(Opnd::NegPool(i));
        }
    }
    let mut out = Vec::new();
    for v in 0..10 {
        for &a in &regs {
            for &c in &regs {
                out.push(W::Mad(a, Opnd::Pool(v), c));
            }
            for &b in &regs_b {
                out.push(W::Mad(a, b, Opnd::Pool(v)));
            }
        }
    }
    if chains {
        let ks: Vec<Opnd> = consts.iter().map(|&k| Opnd::K(k)).collect();
        for v in 0..10 {
            for &a in &ks {
                for &c in &ks {
                    out.push(W::MadTwice(a, Opnd::Pool(v), c, true));
                    out.push(W::MadTwice(a, c, Opnd::Pool(v), false));
                }
            }
        }
    }
    out
}

/// SFPADDI `imm + v` and SFPMULI `imm·v` over the given 16-bit immediates (bf16 patterns).
pub fn addi_muli_values(imms: impl Iterator<Item = u16>) -> Vec<W> {
    let mut out = Vec::new();
    for imm in imms {
        let k = u32::from(imm) << 16;
        for v in 0..10 {
            out.push(W::Mad(Opnd::K(k), Opnd::K(0x3F80_0000), Opnd::Pool(v)));
            out.push(W::Mad(Opnd::K(k), Opnd::Pool(v), Opnd::K(0)));
        }
    }
    out
}

/// SFPSHFT2 of a pool value: by every immediate amount (one per distinct function), by a pool
/// register's amount, and (with `twice`) by two immediates in a row.
pub fn shift_values(twice: bool) -> Vec<W> {
    let amts: Vec<i16> = (-31..=31).filter(|&a| a != 0).collect();
    let mut out = Vec::new();
    for v in 0..10 {
        for &a in &amts {
            out.push(W::Shift(a, v));
            if twice {
                for &b in &amts {
                    out.push(W::ShiftTwice(a, b, v));
                }
            }
        }
        for amt in 0..10 {
            out.push(W::ShiftBy(amt, v));
        }
    }
    out
}

/// SFPSTOCHRND in its nearest modes on a pool value: FP32→FP16A, FP32→FP16B, FP32→(U)INT8/16,
/// and INT32→(U)INT8 with every imm5 shift or a pool register's shift.
pub fn rnd_values() -> Vec<W> {
    let mut out = Vec::new();
    for c in 0..10 {
        for m in [0u8, 1, 2, 3, 6, 7] {
            out.push(W::Rnd(m, 0, c, 0));
        }
        for m in [4u8, 5] {
            for b in 0..10 {
                out.push(W::Rnd(m, 0, c, b));
            }
            for imm5 in 0..32 {
                out.push(W::Rnd(m | 8, imm5, c, 0));
            }
        }
    }
    out
}
