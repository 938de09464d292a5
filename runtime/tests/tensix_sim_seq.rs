//! The published typecast sequences (tensix.md §8, SEED-T) on the functional simulator: the
//! plain (non-SFPLOADMACRO) bodies of §8.1 fp32→bf16 RNE, §8.2 fp32→i32, §8.3 fp32→u32 and §8.5
//! u16→fp32, over all 2^16 inputs or a large f32 sample plus specials, checked against the
//! numeric behaviour tensix.md describes (including its ⚠ deviations).

use pto_runtime::tensix::asm::assemble;
use pto_runtime::tensix::dest::{Dest, DestWidth};
use pto_runtime::tensix::formats::{Arch, Mod0};
use pto_runtime::tensix::isa::Program;
use pto_runtime::tensix::sim::{run_batch, BatchLayout, Machine, SimConfig};

const ROWS: usize = 256; // SFPU rows of a 32-bit Dst

fn prog(text: &str, arch: Arch) -> Program {
    match assemble(text, arch) {
        Ok(p) => p,
        Err(e) => panic!("assembly failed: {e}"),
    }
}

/// Runs `body` over `inputs` in Dst-sized chunks: inputs are placed through the inverse of
/// `load`, outputs read back through `out` (both on 32-bit Dst rows `0..`).
fn run_chunks(
    arch: Arch,
    init: &Program,
    body: &Program,
    inputs: &[u32],
    load: Mod0,
    out: Mod0,
) -> Vec<u32> {
    let mut m = Machine::new(arch);
    let mut dst = Dest::new();
    m.run(init, &mut dst).expect("init");
    let mut res = Vec::with_capacity(inputs.len());
    for chunk in inputs.chunks(ROWS * 32) {
        dst.write_rows(chunk, load, DestWidth::W32, arch)
            .expect("write");
        m.set_rwc_dst(0);
        let rows = chunk.len().div_ceil(32);
        m.run_rows(body, &mut dst, rows).expect("run");
        res.extend(
            dst.read_rows(chunk.len(), out, DestWidth::W32, arch)
                .expect("read"),
        );
    }
    assert_eq!(res.len(), inputs.len());
    res
}

fn addr_mods(arch: Arch) -> (&'static str, &'static str) {
    match arch {
        Arch::Bh => ("ADDR_MOD_7", "ADDR_MOD_6"),
        Arch::Wh => ("ADDR_MOD_3", "ADDR_MOD_2"),
    }
}

fn specials() -> Vec<u32> {
    let mut v = vec![
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007F_FFFF,
        0x807F_FFFF,
        0x0080_0000,
        0x8080_0000,
        0x7F7F_FFFF,
        0xFF7F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7F80_0001,
        0x7FBF_FFFF,
        0x7FC0_0000,
        0x7FFF_FFFF,
        0xFFFF_FFFF,
        0xFFC0_0000,
        0x3F80_0000,
        0xBF80_0000,
        0x4F00_0000,
        0xCF00_0000,
        0x4EFF_FFFF,
        0xCEFF_FFFF,
        0x4F80_0000,
        0x3F00_0000,
        0x3EFF_FFFF,
        0x7F7F_8000,
        0x7F7F_7FFF,
        0x3F80_8000,
        0x3F81_8000,
        0x3F80_7FFF,
    ];
    // Ties and near-ties at the bf16 rounding position, every binade.
    for e in 0..256u32 {
        for low in [0x7FFF, 0x8000, 0x8001, 0x1_8000, 0xFFFF] {
            v.push((e << 23) | low);
            v.push(0x8000_0000 | (e << 23) | low);
        }
    }
    v
}

fn sample(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut v = specials();
    v.extend((0..n).map(|_| rng.u32(..)));
    v
}

/// §8.1 plain sequence: a = (v >> 16) & 1; b = v + 0x7FFF + a; store b FP16B (truncating).
fn bf16_rne(arch: Arch) -> (Program, Program) {
    let (keep, next) = addr_mods(arch);
    let init = prog(
        "sfploadi L0, USHORT, 1\nsfpconfig 0, 12, 0\nsfploadi L0, USHORT, 0x7fff\nsfpconfig 0, 13, 0\n",
        arch,
    );
    let body = prog(
        &format!(
            "sfpload L0, FP32, {keep}, 0        ; a
             sfpload L1, FP32, {keep}, 0        ; b
             sfpshft -16, L0, L0, IMM           ; a >>= 16
             sfpand 0, L12, L0, 0               ; a &= 1
             sfpiadd 0, L13, L1, CC_NONE        ; b += 0x7FFF
             sfpiadd 0, L0, L1, CC_NONE         ; b += a
             sfpstore L1, FP16B, {next}, 0      ; truncating bf16 store"
        ),
        arch,
    );
    (init, body)
}

fn expected_bf16(x: u32) -> u16 {
    let nan = (x & 0x7FFF_FFFF) > 0x7F80_0000;
    let r = x.wrapping_add(0x7FFF + ((x >> 16) & 1));
    // FP16B store: exponent 0 flushes to signed zero, then truncation (tensix.md §4.5).
    let r = if r & 0x7F80_0000 == 0 {
        r & 0x8000_0000
    } else {
        r
    };
    let got = (r >> 16) as u16;
    if !nan {
        // For non-NaN inputs this is exact RNE except that denormal results flush (§8.1 ⚠).
        let rne = x.wrapping_add(0x7FFF + ((x >> 16) & 1)) >> 16;
        if rne & 0x7F80 != 0 {
            assert_eq!(u32::from(got), rne);
        }
    }
    got
}

#[test]
fn fp32_to_bf16_rne_matches_section_8_1() {
    for arch in [Arch::Bh, Arch::Wh] {
        let (init, body) = bf16_rne(arch);
        let inputs = sample(1 << 18, 81);
        let out = run_chunks(arch, &init, &body, &inputs, Mod0::Fp32, Mod0::Bf16);
        for (&x, &y) in inputs.iter().zip(&out) {
            assert_eq!(
                y,
                u32::from(expected_bf16(x)) << 16,
                "{arch:?} input {x:#010x}"
            );
        }
        // The NaN cases §8.1 lists explicitly.
        let nans = [0x7FC0_0000u32, 0x7F80_0001, 0x7FFF_FFFF, 0xFFFF_FFFF];
        let out = run_chunks(arch, &init, &body, &nans, Mod0::Fp32, Mod0::Bf16);
        assert_eq!(out, vec![0x7FC0_0000, 0x7F80_0000, 0x8000_0000, 0]);
        // Overflow to Inf from 0x7F7F8000 up; a denormal result flushes to signed zero.
        let edge = [
            0x7F7F_8000u32,
            0x7F7F_7FFF,
            0x0000_1234,
            0x8000_1234,
            0x007F_8000,
        ];
        let out = run_chunks(arch, &init, &body, &edge, Mod0::Fp32, Mod0::Bf16);
        assert_eq!(
            out,
            vec![0x7F80_0000, 0x7F7F_0000, 0, 0x8000_0000, 0x0080_0000]
        );
    }
}

/// §8.2 (seed listing, 13 instructions).
fn fp32_to_i32(arch: Arch) -> Program {
    let (keep, next) = addr_mods(arch);
    prog(
        &format!(
            "sfpload L0, 0, {keep}, 0 ; load fp32/bf16
sfploadi L1, 0, 0 ; result = 0
sfpexexp 0, L0, L2, CC_SGN|CC_COMP ; exp = in.Exp (LaneEnabled = exp >= 0)
sfploadi L1, FLOATB, 0x8000 ; result = INT_MIN (identical to fp32 -0.0)
sfpiadd -31, L2, L2, IMM|CC_LT0 ; exp -= 31 (LaneEnabled = exp < 31)
sfpiadd 8, L2, L2, IMM|CC_NONE ; exp += 8
sfpexman 0, L0, L1, 0 ; result = in.Man, including implicit bit
sfpshft 0, L2, L1, 0 ; result <<= exp
sfpencc 0, 0, 0, 0 ; LaneEnabled = true
sfpsetcc 0, L0, 0, LREG_LT0 ; LaneEnabled = in < 0
sfpiadd 0, L9, L1, NEG|CC_NONE ; result = 0 - result (two's complement; L9 is constant 0)
sfpencc 0, 0, 0, 0 ; LaneEnabled = true
sfpstore L1, INT32, {next}, 0 ; store i32 (autoincrement addr)"
        ),
        arch,
    )
}

fn cvttss2si(x: u32) -> u32 {
    let f = f32::from_bits(x);
    if f.is_nan() || !(-2147483648.0..2147483648.0).contains(&f) {
        0x8000_0000
    } else {
        (f as i32) as u32
    }
}

#[test]
fn fp32_to_i32_truncation_matches_x86() {
    for arch in [Arch::Bh, Arch::Wh] {
        let body = fp32_to_i32(arch);
        let inputs = sample(1 << 18, 82);
        let out = run_chunks(
            arch,
            &Program::default(),
            &body,
            &inputs,
            Mod0::Fp32,
            Mod0::Int32,
        );
        for (&x, &y) in inputs.iter().zip(&out) {
            assert_eq!(y, cvttss2si(x), "{arch:?} input {x:#010x}");
        }
    }
}

#[test]
fn fp32_to_u32_truncation_saturates_as_section_8_3_says() {
    for arch in [Arch::Bh, Arch::Wh] {
        let (keep, next) = addr_mods(arch);
        let body = prog(
            &format!(
                "sfpload L0, 0, {keep}, 0 ; load fp32/bf16
sfploadi L1, 0, 0 ; result = 0
sfpsetcc 0, L0, 0, LREG_GTE0 ; LaneEnabled = in ≥ 0
sfpexexp 0, L0, L2, CC_SGN|CC_COMP ; exp = in.Exp (LaneEnabled = exp >= 0)
sfploadi L1, SHORT, -1 ; result = 0xffffffff
sfpiadd -32, L2, L2, IMM|CC_LT0 ; exp -= 32 (LaneEnabled = exp < 32)
sfpiadd 9, L2, L2, IMM|CC_NONE ; exp += 9
sfpexman 0, L0, L1, 0 ; result = in.Man, including implicit bit
sfpshft 0, L2, L1, 0 ; result <<= exp
sfpencc 0, 0, 0, 0 ; LaneEnabled = true
sfpstore L1, INT32, {next}, 0 ; store i32 (autoincrement addr)"
            ),
            arch,
        );
        let inputs = sample(1 << 18, 83);
        let out = run_chunks(
            arch,
            &Program::default(),
            &body,
            &inputs,
            Mod0::Fp32,
            Mod0::Int32,
        );
        for (&x, &y) in inputs.iter().zip(&out) {
            let f = f32::from_bits(x);
            // Negative inputs (incl. −0, −Inf, −NaN) → 0; +NaN, +Inf, ≥ 2^32 → max; else trunc.
            let want = if x & 0x8000_0000 != 0 {
                0
            } else if f.is_nan() || f >= 4294967296.0 {
                u32::MAX
            } else {
                f as u32
            };
            assert_eq!(y, want, "{arch:?} input {x:#010x}");
        }
    }
}

#[test]
fn u16_to_fp32_exhaustive() {
    for arch in [Arch::Bh, Arch::Wh] {
        let (keep, next) = addr_mods(arch);
        // tensix.md §10.1 example (BH address modes; WH uses ADDR_MOD_3/2).
        let body = prog(
            &format!(
                "sfpload  L0, LO16, {keep}, 0   ; v = zero-extended u16
                 sfpcast  L0, L0, 0                 ; v = float(v), exact below 2^24
                 sfpstore L0, FP32, {next}, 0   ; write fp32, advance 2"
            ),
            arch,
        );
        let mut m = Machine::new(arch);
        let mut dst = Dest::new();
        // One SFPU row at a time: the 32-bit store of a row overlaps later rows' 16-bit cells.
        for row in 0..(65536 / 32) {
            let vals: Vec<u32> = (0..32).map(|l| (row * 32 + l) as u32).collect();
            dst.write_rows(&vals, Mod0::Uint16, DestWidth::W16, arch)
                .expect("write");
            m.set_rwc_dst(0);
            m.run_rows(&body, &mut dst, 1).expect("run");
            let got = dst
                .read_rows(32, Mod0::Fp32, DestWidth::W32, arch)
                .expect("read");
            for (v, g) in vals.iter().zip(got) {
                assert_eq!(g, (*v as f32).to_bits(), "{arch:?} {v}");
            }
        }
    }
}

/// §8.4 plain: v = max(v, +0) via SFPSWAP with L9; rnd FP32_TO_UINT16 (ties away); store LO16.
#[test]
fn fp32_to_u16_round_clamp_section_8_4() {
    for arch in [Arch::Bh, Arch::Wh] {
        let (keep, next) = addr_mods(arch);
        let body = prog(
            &format!(
                "sfpload L0, FP32, {keep}, 0
                 sfpswap 0, L9, L0, MAX_MIN        ; v = max(v, +0): the min half (VC = L9) is dropped
                 sfpnop
                 sfpstochrnd 0, 0, L0, L0, L1, FP32_TO_UINT16
                 sfpstore L1, LO16, {next}, 0"
            ),
            arch,
        );
        let mut inputs = sample(1 << 17, 85);
        inputs.extend([0.5f32, 1.5, 2.5, 65535.49, 65535.5, 70000.0, -0.4, -3.0].map(f32::to_bits));
        let out = run_chunks(
            arch,
            &Program::default(),
            &body,
            &inputs,
            Mod0::Fp32,
            Mod0::Uint16,
        );
        for (&x, &y) in inputs.iter().zip(&out) {
            let f = f32::from_bits(x);
            let want = if x & 0x8000_0000 != 0 || f.abs() < 0.5 {
                0 // negatives (incl. -0, -Inf, -NaN), |x| < 0.5, denormals
            } else if f.is_nan() || f >= 65535.5 {
                65535
            } else {
                (f + 0.5).floor() as u32 // ties away from zero
            };
            assert_eq!(y, want, "{arch:?} {x:#010x}");
        }
    }
}

/// §8.6: u16 → bf16 via SFPCAST then FP32_TO_FP16B: ties away, not RNE (257 → 258) ⚠.
#[test]
fn u16_to_bf16_rounds_ties_away_section_8_6() {
    for arch in [Arch::Bh, Arch::Wh] {
        let (keep, next) = addr_mods(arch);
        let body = prog(
            &format!(
                "sfpload L0, LO16, {keep}, 0
                 sfpcast L0, L0, 0
                 sfpstochrnd 0, 0, L0, L0, L0, FP32_TO_FP16B
                 sfpstore L0, FP16B, {next}, 0"
            ),
            arch,
        );
        let inputs: Vec<u32> = (0..65536).collect();
        let out = run_chunks(
            arch,
            &Program::default(),
            &body,
            &inputs,
            Mod0::Uint16,
            Mod0::Bf16,
        );
        let mut ties = 0;
        for (&v, &y) in inputs.iter().zip(&out) {
            let x = (v as f32).to_bits();
            let dropped = x & 0xFFFF;
            let want = (x - dropped) + if dropped >= 0x8000 { 0x1_0000 } else { 0 };
            assert_eq!(y, want, "{arch:?} {v}");
            ties += usize::from(dropped == 0x8000);
        }
        assert!(ties > 0);
        assert_eq!(out[257], 258.0f32.to_bits(), "RNE would give 256");
    }
}

/// §8.7 plain u32 → fp32: cast of the low 31 bits, then `L[L7]·1.0 + b` (SFPMAD INDIRECT_VA)
/// adds 2^31 when the top bit is set — double rounding above 2^31 ⚠.
#[test]
fn u32_to_fp32_double_rounds_above_2_pow_31_section_8_7() {
    for arch in [Arch::Bh, Arch::Wh] {
        let (keep, next) = addr_mods(arch);
        let init = prog("sfploadi L0, FLOATB, 0\nsfploadi L1, FLOATB, 0x4f00", arch);
        let body = prog(
            &format!(
                "sfpload L2, INT32, {keep}, 0
                 sfpsetsgn 0, L2, L2, ARG_IMM          ; a = low 31 bits
                 sfpcast L2, L3, 0                     ; b = RNE(a)
                 sfpload L7, INT32, {keep}, 0
                 sfpshft -31, L0, L7, IMM              ; L7 = v >> 31
                 sfpmad L0, L10, L3, L4, INDIRECT_VA   ; L[L7] * 1.0 + b
                 sfpnop
                 sfpstore L4, FP32, {next}, 0"
            ),
            arch,
        );
        let witness = (1u32 << 31) + (1 << 30) + 129;
        let mut inputs = sample(1 << 17, 87);
        inputs.extend([witness, u32::MAX, 1 << 31, (1 << 31) - 1, 0, 1, 16_777_217]);
        let out = run_chunks(arch, &init, &body, &inputs, Mod0::Int32, Mod0::Fp32);
        let mut double = 0;
        for (&v, &y) in inputs.iter().zip(&out) {
            let exact = (v as f32).to_bits();
            if v < 1 << 31 {
                assert_eq!(y, exact, "{arch:?} {v:#x}");
            } else {
                // Two RNE roundings: cast(v - 2^31) then + 2^31.
                let low = ((v & 0x7FFF_FFFF) as f32).to_bits();
                let two = f32::from_bits(low) + 2147483648.0f32;
                assert_eq!(y, two.to_bits(), "{arch:?} {v:#x}");
                double += usize::from(y != exact);
            }
        }
        assert_eq!(
            out[out.len() - 7],
            0x4F40_0000,
            "witness: correct RNE is 0x4F400001"
        );
        assert!(double > 0);
    }
}

/// §8.8 plain i32 → fp32: abs, INT_MIN detection via `t >> 31`, cast, copy the sign, and the
/// indirect MAD adds −2^31 only for INT_MIN. Exact RNE for every input ✓.
#[test]
fn i32_to_fp32_matches_reference_section_8_8() {
    for arch in [Arch::Bh, Arch::Wh] {
        let (keep, next) = addr_mods(arch);
        let init = prog("sfploadi L0, FLOATB, 0\nsfploadi L1, FLOATB, 0xcf00", arch);
        let body = prog(
            &format!(
                "sfpload L2, INT32, {keep}, 0
                 sfpabs 0, L2, L3, 0                   ; t = |v| (INT_MIN stays)
                 sfpmov 0, L3, L7, 0
                 sfpshft -31, L0, L7, IMM              ; L7 = 1 only for INT_MIN
                 sfpcast L3, L3, 0                     ; INT_MIN → -0.0
                 sfpsetsgn 0, L3, L2, 0                ; v = {{v.sign, t.exp, t.man}}
                 sfpmad L0, L10, L2, L4, INDIRECT_VA   ; + (-2^31 or 0)
                 sfpnop
                 sfpstore L4, FP32, {next}, 0"
            ),
            arch,
        );
        let mut inputs = sample(1 << 17, 88);
        inputs.extend([
            0x8000_0000u32,
            0x8000_0001,
            0x7FFF_FFFF,
            0,
            0xFFFF_FFFF,
            16_777_217,
        ]);
        let out = run_chunks(arch, &init, &body, &inputs, Mod0::Int32, Mod0::Fp32);
        for (&v, &y) in inputs.iter().zip(&out) {
            assert_eq!(y, (v as i32 as f32).to_bits(), "{arch:?} {v:#x}");
        }
    }
}

/// §8.13 plain i32 → u16 (sat ON): SFPCAST reads two's complement as sign-magnitude (every
/// negative stays negative, INT_MIN → −0.0), SWAP clamps at +0, FP32_TO_UINT16 clamps at 65535.
#[test]
fn i32_to_u16_saturating_section_8_13() {
    for arch in [Arch::Bh, Arch::Wh] {
        let (keep, next) = addr_mods(arch);
        let body = prog(
            &format!(
                "sfpload L0, INT32, {keep}, 0
                 sfpcast L0, L0, 0
                 sfpswap 0, L9, L0, MAX_MIN
                 sfpnop
                 sfpstochrnd 0, 0, L0, L0, L1, FP32_TO_UINT16
                 sfpstore L1, LO16, {next}, 0"
            ),
            arch,
        );
        let mut inputs = sample(1 << 17, 90);
        inputs.extend([0x8000_0000u32, 0x7FFF_FFFF, 65535, 65536, 0xFFFF_FFFF, 0, 1]);
        let out = run_chunks(
            arch,
            &Program::default(),
            &body,
            &inputs,
            Mod0::Int32,
            Mod0::Uint16,
        );
        for (&v, &y) in inputs.iter().zip(&out) {
            assert_eq!(y, (v as i32).clamp(0, 65535) as u32, "{arch:?} {v:#x}");
        }
    }
}

#[test]
fn throughput_report() {
    // Not a pass/fail benchmark: prints measured lane-instructions per second (test profile,
    // opt-level 3, one thread) of the 13-instruction fp32→i32 body, with and without Dst I/O.
    let arch = Arch::Bh;
    let body = fp32_to_i32(arch);
    let inputs = sample(ROWS * 32 * 8, 84);
    let t = std::time::Instant::now();
    let out = run_chunks(
        arch,
        &Program::default(),
        &body,
        &inputs,
        Mod0::Fp32,
        Mod0::Int32,
    );
    let dt = t.elapsed().as_secs_f64();
    let lane_insns = (inputs.len() as f64) * 13.0;
    eprintln!(
        "fp32->i32 incl. Dst I/O: {} values in {:.4}s = {:.3e} lane-instructions/s",
        out.len(),
        dt,
        lane_insns / dt
    );
    let mut m = Machine::new(arch);
    let mut dst = Dest::new();
    dst.write_rows(&inputs[..ROWS * 32], Mod0::Fp32, DestWidth::W32, arch)
        .expect("write");
    let reps = 400;
    let t = std::time::Instant::now();
    for _ in 0..reps {
        m.set_rwc_dst(0);
        m.run_rows(&body, &mut dst, ROWS).expect("run");
    }
    let dt = t.elapsed().as_secs_f64();
    eprintln!(
        "fp32->i32 simulator only: {:.3e} lane-instructions/s",
        (reps * ROWS * 32 * 13) as f64 / dt
    );
    // Parallel batch path (rayon, all cores) must agree with the sequential one.
    let big = sample(1 << 21, 89);
    let layout = BatchLayout {
        load: Mod0::Fp32,
        out: Mod0::Int32,
        width: DestWidth::W32,
        rows_per_chunk: ROWS,
    };
    let t = std::time::Instant::now();
    let par = run_batch(
        arch,
        SimConfig::default(),
        &Program::default(),
        &body,
        &big,
        layout,
    )
    .expect("batch");
    let dt = t.elapsed().as_secs_f64();
    eprintln!(
        "fp32->i32 run_batch ({} threads): {} values in {:.3}s = {:.3e} lane-instructions/s",
        rayon::current_num_threads(),
        big.len(),
        dt,
        big.len() as f64 * 13.0 / dt
    );
    for (&x, &y) in big.iter().zip(&par) {
        assert_eq!(y, cvttss2si(x), "{x:#010x}");
    }
    assert_eq!(par.len(), big.len());
}
