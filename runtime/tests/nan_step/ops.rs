//! Scalar models of the SFPU Simple-unit instructions that compute a value from one or two
//! register operands (no lane flags, no lane moves), as functions `f(c, d)` of VC and VD/VB, and
//! the assembly text that runs each one on the simulator (c in L0, d in L1), so that a test can pin
//! every model against the simulator.

use pto_runtime::tensix::formats::Arch;

/// Sign-magnitude order key of SFPSWAP / SFPGT / SFPLE (two patterns tie only when equal).
fn key(x: u32) -> i32 {
    if x & 0x8000_0000 != 0 {
        (x ^ 0x7FFF_FFFF) as i32
    } else {
        x as i32
    }
}

/// SFPSHFT's shift: a non-negative amount shifts left by `amt & 31`, a negative one right by
/// `-amt & 31` (logical, or arithmetic on BH with ARITHMETIC).
fn shift(x: u32, amt: i32, arith: bool) -> u32 {
    if amt >= 0 {
        x << (amt & 31)
    } else {
        let s = amt.wrapping_neg() & 31;
        if arith {
            ((x as i32) >> s) as u32
        } else {
            x >> s
        }
    }
}

/// One Simple-unit instruction mode. Immediates are kept as the instruction field holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    // One register operand c.
    Not,
    ExExp,
    ExExpNoBias,
    ExMan,
    ExManPad9,
    Lz,
    LzNoSgn,
    AbsInt,
    AbsFloat,
    Mov,
    MovNeg,
    Cast,
    /// BH SFPCAST INT32_SM32 (two's complement → sign-magnitude).
    CastSm32,
    // c and an immediate.
    /// SFPIADD IMM: c + sign-extended imm12.
    IAddImm(i16),
    /// SFPSHFT IMM, logical (the operand is VD, or VC with BH IMM_USE_VC).
    ShftImm(i16),
    /// BH SFPSHFT IMM|ARITHMETIC.
    ShftImmArith(i16),
    SetSgnImm(u8),
    SetExpImm(u8),
    /// SFPSETMAN ARG_IMM: the mantissa is imm12 << 11 (non-strict simulator only, D1).
    SetManImm(u16),
    /// SFPDIVP2 without ADD: the exponent becomes imm12 & 0xFF.
    DivP2Set(u16),
    /// SFPDIVP2 ADD: the exponent grows by imm12 (mod 256), exponent 255 kept.
    DivP2Add(u16),
    // Two register operands c, d.
    /// SFPIADD register: c + d.
    IAdd,
    /// SFPIADD NEG: c − d.
    ISub,
    And,
    Or,
    Xor,
    /// SFPSHFT by register: d shifted by the amount in c.
    ShftReg,
    /// BH SFPSHFT ARITHMETIC by register.
    ShftRegArith,
    /// SFPSETSGN: c's magnitude, d's sign.
    SetSgn,
    /// SFPSETEXP: c with exponent d & 0xFF.
    SetExp,
    /// SFPSETEXP ARG_EXPONENT: c with d's exponent field.
    SetExpExp,
    /// SFPSETMAN: c's sign and exponent, d's mantissa.
    SetMan,
    /// SFPSWAP MIN_MAX / MAX_MIN, the smaller operand.
    Min,
    /// SFPSWAP, the larger operand.
    Max,
    /// BH SFPGT SET_VD: −1 where key(c) < key(d), else 0.
    Gt,
    /// BH SFPLE SET_VD: −1 where key(d) ≤ key(c), else 0.
    Le,
}

/// How many register operands an op reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    One,
    Imm,
    Two,
}

pub const UNARY: [Op; 13] = [
    Op::Not,
    Op::ExExp,
    Op::ExExpNoBias,
    Op::ExMan,
    Op::ExManPad9,
    Op::Lz,
    Op::LzNoSgn,
    Op::AbsInt,
    Op::AbsFloat,
    Op::Mov,
    Op::MovNeg,
    Op::Cast,
    Op::CastSm32,
];

pub const BINARY: [Op; 15] = [
    Op::IAdd,
    Op::ISub,
    Op::And,
    Op::Or,
    Op::Xor,
    Op::ShftReg,
    Op::ShftRegArith,
    Op::SetSgn,
    Op::SetExp,
    Op::SetExpExp,
    Op::SetMan,
    Op::Min,
    Op::Max,
    Op::Gt,
    Op::Le,
];

impl Op {
    pub fn arity(self) -> Arity {
        use Op::*;
        match self {
            Not | ExExp | ExExpNoBias | ExMan | ExManPad9 | Lz | LzNoSgn | AbsInt | AbsFloat
            | Mov | MovNeg | Cast | CastSm32 => Arity::One,
            IAddImm(_) | ShftImm(_) | ShftImmArith(_) | SetSgnImm(_) | SetExpImm(_)
            | SetManImm(_) | DivP2Set(_) | DivP2Add(_) => Arity::Imm,
            _ => Arity::Two,
        }
    }

    /// f(c, d) = f(d, c) for every pair.
    pub fn commutes(self) -> bool {
        matches!(
            self,
            Op::IAdd | Op::And | Op::Or | Op::Xor | Op::Min | Op::Max
        )
    }

    /// Executable on Wormhole (every op runs on Blackhole).
    pub fn on_wh(self) -> bool {
        !matches!(
            self,
            Op::CastSm32 | Op::ShftImmArith(_) | Op::ShftRegArith | Op::Gt | Op::Le
        )
    }

    /// The result for VC = c and VD (or VB) = d; `d` is ignored by one-operand ops.
    #[inline(always)]
    pub fn eval(self, c: u32, d: u32) -> u32 {
        use Op::*;
        match self {
            Not => !c,
            ExExp => ((c >> 23) & 255).wrapping_sub(127),
            ExExpNoBias => (c >> 23) & 255,
            ExMan => (c & 0x7F_FFFF) | 0x80_0000,
            ExManPad9 => c & 0x7F_FFFF,
            Lz => c.leading_zeros(),
            LzNoSgn => (c & 0x7FFF_FFFF).leading_zeros(),
            AbsInt => {
                if c & 0x8000_0000 == 0 {
                    c
                } else {
                    c.wrapping_neg()
                }
            }
            AbsFloat => {
                if c & 0x8000_0000 != 0 && c <= 0xFF80_0000 {
                    c & 0x7FFF_FFFF
                } else {
                    c
                }
            }
            Mov => c,
            MovNeg => c ^ 0x8000_0000,
            Cast => {
                let sign = c & 0x8000_0000;
                let mag = c & 0x7FFF_FFFF;
                let lz = if mag != 0 { mag.leading_zeros() } else { 157 };
                let norm = mag << (lz & 31);
                let d = sign.wrapping_add((157 - lz) << 23).wrapping_add(norm >> 8);
                d + u32::from(norm & 0x80 != 0 && norm & 0x17F != 0)
            }
            CastSm32 => {
                let sign = c & 0x8000_0000;
                sign | if sign != 0 { c.wrapping_neg() } else { c }
            }
            IAddImm(i) => c.wrapping_add(i32::from(i) as u32),
            ShftImm(i) => shift(c, i32::from(i), false),
            ShftImmArith(i) => shift(c, i32::from(i), true),
            SetSgnImm(s) => (c & 0x7FFF_FFFF) | (u32::from(s & 1) << 31),
            SetExpImm(e) => (c & 0x807F_FFFF) | (u32::from(e) << 23),
            SetManImm(m) => (c & 0xFF80_0000) | (u32::from(m & 0xFFF) << 11),
            DivP2Set(i) => (c & 0x807F_FFFF) | (u32::from(i & 0xFF) << 23),
            DivP2Add(i) => {
                let e = (c >> 23) & 255;
                let e = if e == 255 {
                    e
                } else {
                    (e + u32::from(i & 0xFF)) & 255
                };
                (c & 0x807F_FFFF) | (e << 23)
            }
            IAdd => c.wrapping_add(d),
            ISub => c.wrapping_sub(d),
            And => c & d,
            Or => c | d,
            Xor => c ^ d,
            ShftReg => shift(d, c as i32, false),
            ShftRegArith => shift(d, c as i32, true),
            SetSgn => (c & 0x7FFF_FFFF) | (d & 0x8000_0000),
            SetExp => (c & 0x807F_FFFF) | ((d & 0xFF) << 23),
            SetExpExp => (c & 0x807F_FFFF) | (d & 0x7F80_0000),
            SetMan => (c & 0xFF80_0000) | (d & 0x7F_FFFF),
            Min => {
                if key(c) < key(d) {
                    c
                } else {
                    d
                }
            }
            Max => {
                if key(c) < key(d) {
                    d
                } else {
                    c
                }
            }
            Gt => {
                if key(c) < key(d) {
                    !0
                } else {
                    0
                }
            }
            Le => {
                if key(d) <= key(c) {
                    !0
                } else {
                    0
                }
            }
        }
    }

    /// Every encoding of this op on `arch` as `(text, result register, strict machine)`, with c in
    /// L0 and d in L1. Empty when the op does not exist on `arch`.
    pub fn asm(self, arch: Arch) -> Vec<(String, usize, bool)> {
        use Op::*;
        if arch == Arch::Wh && !self.on_wh() {
            return Vec::new();
        }
        let bh = arch == Arch::Bh;
        let one = |m: &str, mods: &str| vec![(format!("{m} 0, L0, L2, {mods}"), 2, true)];
        let mut v = match self {
            Not => one("sfpnot", "0"),
            ExExp => one("sfpexexp", "0"),
            ExExpNoBias => one("sfpexexp", "NODEBIAS"),
            ExMan => one("sfpexman", "0"),
            ExManPad9 => one("sfpexman", "PAD9"),
            Lz => one("sfplz", "0"),
            LzNoSgn => one("sfplz", "NOSGN"),
            AbsInt => one("sfpabs", "0"),
            AbsFloat => one("sfpabs", "FLOAT"),
            Mov => one("sfpmov", "0"),
            MovNeg => one("sfpmov", "NEGATE"),
            Cast => vec![("sfpcast L0, L2, 0".into(), 2, true)],
            CastSm32 => vec![("sfpcast L0, L2, INT32_SM32".into(), 2, true)],
            IAddImm(i) => vec![(format!("sfpiadd {i}, L0, L2, IMM|CC_NONE"), 2, true)],
            ShftImm(i) => {
                let mut v = vec![(
                    format!("sfpmov 0, L0, L2, 0\nsfpshft {i}, L2, L2, IMM"),
                    2,
                    true,
                )];
                if bh {
                    v.push((format!("sfpshft {i}, L0, L2, IMM|IMM_USE_VC"), 2, true));
                }
                v
            }
            ShftImmArith(i) => vec![
                (
                    format!("sfpmov 0, L0, L2, 0\nsfpshft {i}, L2, L2, IMM|ARITHMETIC"),
                    2,
                    true,
                ),
                (
                    format!("sfpshft {i}, L0, L2, IMM|ARITHMETIC|IMM_USE_VC"),
                    2,
                    true,
                ),
            ],
            SetSgnImm(s) => one_imm("sfpsetsgn", u32::from(s), "ARG_IMM", true),
            SetExpImm(e) => one_imm("sfpsetexp", u32::from(e), "ARG_IMM", true),
            SetManImm(m) => one_imm("sfpsetman", u32::from(m), "ARG_IMM", m == 0),
            DivP2Set(i) => one_imm("sfpdivp2", u32::from(i), "0", !(0x80..0xF80).contains(&i)),
            DivP2Add(i) => one_imm("sfpdivp2", u32::from(i), "ADD", !(0x80..0xF80).contains(&i)),
            IAdd => two("sfpiadd 0, L0, L1, CC_NONE"),
            ISub => two("sfpiadd 0, L0, L1, NEG|CC_NONE"),
            And | Or => {
                let m = if self == And { "sfpand" } else { "sfpor" };
                let mut v = two(&format!("{m} 0, L0, L1, 0"));
                if bh {
                    v.push((format!("{m} L1, L0, L2, USE_VB"), 2, true));
                }
                v
            }
            Xor => two("sfpxor 0, L0, L1, 0"),
            ShftReg => two("sfpshft 0, L0, L1, 0"),
            ShftRegArith => two("sfpshft 0, L0, L1, ARITHMETIC"),
            SetSgn => two("sfpsetsgn 0, L0, L1, 0"),
            SetExp => two("sfpsetexp 0, L0, L1, 0"),
            SetExpExp => two("sfpsetexp 0, L0, L1, ARG_EXPONENT"),
            SetMan => two("sfpsetman 0, L0, L1, 0"),
            // MIN_MAX: VD gets the min, VC the max; MAX_MIN the other way round.
            Min => vec![
                ("sfpswap 0, L0, L1, MIN_MAX".into(), 1, true),
                ("sfpswap 0, L0, L1, MAX_MIN".into(), 0, true),
            ],
            Max => vec![
                ("sfpswap 0, L0, L1, MIN_MAX".into(), 0, true),
                ("sfpswap 0, L0, L1, MAX_MIN".into(), 1, true),
            ],
            Gt => two("sfpgt 0, L0, L1, SET_VD"),
            Le => two("sfple 0, L0, L1, SET_VD"),
        };
        // A one-operand op may also write in place.
        if self.arity() == Arity::One {
            let (t, _, s) = v[0].clone();
            v.push((t.replace("L0, L2", "L0, L0"), 0, s));
        }
        v
    }
}

fn one_imm(m: &str, imm: u32, mods: &str, strict: bool) -> Vec<(String, usize, bool)> {
    vec![(format!("{m} {imm}, L0, L2, {mods}"), 2, strict)]
}

fn two(text: &str) -> Vec<(String, usize, bool)> {
    vec![(text.to_string(), 1, true)]
}

/// A random immediate for `op`'s field over its whole encodable range (the ranges the simulator
/// accepts: DIVP2 takes 0..=0xFF and 0xF80..=0xFFF, SETSGN one bit, SETEXP eight).
pub fn random_imm(op: Op, rng: &mut fastrand::Rng) -> Op {
    use Op::*;
    let imm12 = rng.i16(-2048..2048);
    match op {
        IAddImm(_) => IAddImm(imm12),
        ShftImm(_) => ShftImm(imm12),
        ShftImmArith(_) => ShftImmArith(imm12),
        SetSgnImm(_) => SetSgnImm(rng.u8(0..2)),
        SetExpImm(_) => SetExpImm(rng.u8(..)),
        SetManImm(_) => SetManImm(rng.u16(0..0x1000)),
        DivP2Set(_) | DivP2Add(_) => {
            let i = if rng.bool() {
                rng.u16(0..0x100)
            } else {
                rng.u16(0xF80..0x1000)
            };
            if matches!(op, DivP2Set(_)) {
                DivP2Set(i)
            } else {
                DivP2Add(i)
            }
        }
        other => other,
    }
}

/// Every op with a placeholder immediate (for the pinning test).
pub fn all_ops() -> Vec<Op> {
    let mut v: Vec<Op> = UNARY.to_vec();
    v.extend([
        Op::IAddImm(0),
        Op::ShftImm(0),
        Op::ShftImmArith(0),
        Op::SetSgnImm(0),
        Op::SetExpImm(0),
        Op::SetManImm(0),
        Op::DivP2Set(0),
        Op::DivP2Add(0),
    ]);
    v.extend(BINARY);
    v
}
