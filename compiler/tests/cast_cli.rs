//! `ptoc cast` end to end, in process (`ptoc::cli::run`): the file written for every pair and
//! profile equals the numeric core applied element by element to the spec the resolver yields
//! (so file I/O, packing, parallel chunks and flag resolution are checked, not the arithmetic,
//! which the lit tests in tests/lit/cast/ pin to hand-derived values); `--target all`; `.npy`
//! shapes; exit statuses and messages on bad input.

use std::path::{Path, PathBuf};

use npyz::WriterBuilder;
use pto_runtime::convert::storage_len;
use pto_runtime::{Converter, ElemType};
use ptoc::cli::{run, Io};
use ptoc::exec::diff::element_bits;
use ptoc::exec::spec::{conv_spec, render_resolve_diag};
use ptoc::target::tcvt::{supported_pairs, Sat};
use ptoc::target::Profile;

struct Out {
    code: u8,
    stdout: String,
    stderr: String,
}

fn cast(args: &[&str]) -> Out {
    let mut stdin: &[u8] = &[];
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = {
        let mut io = Io {
            stdin: &mut stdin,
            stdout: &mut stdout,
            stderr: &mut stderr,
            color: false,
        };
        let mut argv = vec!["ptoc", "cast"];
        argv.extend_from_slice(args);
        run(argv, &mut io)
    };
    Out {
        code,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptoc-cast-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir.join(name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap_or_else(|| panic!("non-UTF-8 temp path"))
}

/// Random storage bytes for `count` elements, with the special patterns mixed in.
fn random_input(elem: ElemType, count: usize, seed: u64) -> Vec<u8> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut bytes: Vec<u8> = (0..storage_len(elem, count)).map(|_| rng.u8(..)).collect();
    if elem == ElemType::F32 {
        let specials: [u32; 8] = [
            0x7F80_0000,
            0xFF80_0000,
            0x7FC0_0000,
            0x0000_0001,
            0x8000_0000,
            0x4F32_D05E,
            0x4F00_0000,
            0x7F7F_FFFF,
        ];
        for (i, v) in specials.iter().enumerate() {
            if let Some(chunk) = bytes.get_mut(4 * i..4 * i + 4) {
                chunk.copy_from_slice(&v.to_le_bytes());
            }
        }
    }
    bytes
}

/// Checks OUT element by element against the core on the resolved spec.
fn check_against_core(
    profile: Profile,
    src: ElemType,
    dst: ElemType,
    sat: Option<Sat>,
    input: &[u8],
    output: &[u8],
    count: usize,
) {
    let (spec, _) =
        conv_spec(profile, src, dst, None, sat, false).unwrap_or_else(|e| panic!("{e}"));
    let conv = Converter::new(spec).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        output.len(),
        storage_len(dst, count),
        "{profile} {src}->{dst}"
    );
    for i in 0..count {
        let want = conv.convert_bits(element_bits(src, input, i));
        let got = element_bits(dst, output, i);
        assert_eq!(got, want, "{profile} {src}->{dst} element {i}");
    }
    if dst.is_packed() && count % 2 == 1 {
        assert_eq!(output.last().map(|b| b >> 4), Some(0), "padding nibble");
    }
}

#[test]
fn every_pair_on_every_profile_matches_the_core() {
    let count = 301; // odd: exercises the half-filled last byte of packed types
    for profile in Profile::ALL {
        for (src, dst) in supported_pairs(profile) {
            for sat in [None, Some(Sat::On), Some(Sat::Off)] {
                let tag = format!("{profile}-{src}-{dst}-{sat:?}").replace("!pto.", "");
                let inp = scratch(&format!("{tag}.in.bin"));
                let out = scratch(&format!("{tag}.out.bin"));
                let input = random_input(src, count, 7);
                std::fs::write(&inp, &input).unwrap_or_else(|e| panic!("{e}"));
                // Packed raw files hold an even count; the core is checked on the logical count.
                let logical = if src.is_packed() {
                    2 * input.len()
                } else {
                    count
                };
                let mut args = vec![
                    "--from",
                    src.ir_name(),
                    "--to",
                    dst.ir_name(),
                    "--target",
                    profile.as_str(),
                ];
                match sat {
                    Some(Sat::On) => args.extend(["--sat", "on"]),
                    Some(Sat::Off) => args.extend(["--sat", "off"]),
                    None => {}
                }
                args.extend([s(&inp), s(&out)]);
                let r = cast(&args);
                assert_eq!(r.code, 0, "{tag}: {}", r.stderr);
                assert!(r.stdout.is_empty(), "{tag}: {}", r.stdout);
                // Exactly the resolution's warnings.
                let (_, diags) = conv_spec(profile, src, dst, None, sat, false)
                    .unwrap_or_else(|e| panic!("{e}"));
                let want: String = diags
                    .iter()
                    .map(|d| format!("{}\n", render_resolve_diag(d, profile, src, dst)))
                    .collect();
                assert_eq!(r.stderr, want, "{tag}");
                let output = std::fs::read(&out).unwrap_or_else(|e| panic!("{e}"));
                check_against_core(profile, src, dst, sat, &input, &output, logical);
                let _ = std::fs::remove_file(&inp);
                let _ = std::fs::remove_file(&out);
            }
        }
    }
}

#[test]
fn large_inputs_are_converted_whole() {
    // Several rayon chunks, odd count into a packed type.
    let count = 3_000_001;
    let input = random_input(ElemType::F32, count, 11);
    let inp = scratch("large.in.bin");
    std::fs::write(&inp, &input).unwrap_or_else(|e| panic!("{e}"));
    for dst in [ElemType::BF16, ElemType::F4E2M1x2, ElemType::I16] {
        let out = scratch("large.out.bin");
        let r = cast(&["--from", "f32", "--to", dst.ir_name(), s(&inp), s(&out)]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let output = std::fs::read(&out).unwrap_or_else(|e| panic!("{e}"));
        check_against_core(
            Profile::Cpu,
            ElemType::F32,
            dst,
            None,
            &input,
            &output,
            count,
        );
    }
}

#[test]
fn target_all_reports_the_differences() {
    let inp = scratch("all.in.bin");
    let values = [3e9f32, 1.0, f32::INFINITY, -2.5];
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(&inp, &bytes).unwrap_or_else(|e| panic!("{e}"));
    let out = scratch("all.out.bin");
    let r = cast(&[
        "--from",
        "f32",
        "--to",
        "i16",
        "--target",
        "all",
        s(&inp),
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("2 of 4 elements differ between cpu, a2a3, a5"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(
            "[0] in 0x4F32D05E (3000000000) -> cpu 0x0000 (0), a2a3 0x5E00 (24064), a5 0x5E00 (24064)"
        ),
        "{}",
        r.stdout
    );
    // OUT is the cpu result.
    let output = std::fs::read(&out).unwrap_or_else(|e| panic!("{e}"));
    check_against_core(
        Profile::Cpu,
        ElemType::F32,
        ElemType::I16,
        None,
        &bytes,
        &output,
        4,
    );
}

#[test]
fn npy_keeps_the_shape_and_halves_the_packed_axis() {
    let inp = scratch("shape.in.npy");
    let vals: Vec<f32> = (0..12).map(|i| i as f32 - 6.0).collect();
    let mut file = Vec::new();
    {
        let mut w = npyz::WriteOptions::<f32>::new()
            .default_dtype()
            .shape(&[3, 4])
            .writer(&mut file)
            .begin_nd()
            .unwrap_or_else(|e| panic!("{e}"));
        w.extend(vals.iter().copied())
            .unwrap_or_else(|e| panic!("{e}"));
        w.finish().unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(&inp, &file).unwrap_or_else(|e| panic!("{e}"));
    for (dst, shape, dtype) in [
        ("f16", vec![3u64, 4], "<f2"),
        ("s4x2", vec![3, 2], "|u1"),
        ("bf16", vec![3, 4], "<u2"),
    ] {
        let out = scratch(&format!("shape.{dst}.npy"));
        let r = cast(&["--from", "f32", "--to", dst, s(&inp), s(&out)]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let bytes = std::fs::read(&out).unwrap_or_else(|e| panic!("{e}"));
        let npy = npyz::NpyFile::new(&bytes[..]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(npy.shape(), &shape[..], "{dst}");
        assert_eq!(npy.dtype().descr(), format!("'{dtype}'"), "{dst}");
    }
}

#[test]
fn bad_input_gives_a_message_and_the_right_status() {
    let inp = scratch("bad.in.bin");
    std::fs::write(&inp, [0u8; 6]).unwrap_or_else(|e| panic!("{e}"));
    let out = scratch("bad.out.bin");
    let (i, o) = (s(&inp), s(&out));
    let cases: &[(&[&str], u8, &str)] = &[
        (
            &["--from", "f64", "--to", "f16", i, o],
            2,
            "unknown element type 'f64'",
        ),
        (
            &["--from", "f16", "--to", "f8E4M3FN", "--target", "a5", i, o],
            1,
            "accepted by: cpu",
        ),
        (
            &["--from", "f16", "--to", "f32", "--rmode", "h", i, o],
            1,
            "hybrid rounding",
        ),
        (
            &["--from", "f16", "--to", "f32", "--rmode", "UP", i, o],
            2,
            "unknown rounding mode 'UP'",
        ),
        // A file of the wrong size is an error about the data (E0802), as for `ptoc sim`.
        (
            &["--from", "f32", "--to", "f16", i, o],
            1,
            "error[E0802]: '",
        ),
        (
            &["--from", "f16", "--to", "f32", "/nonexistent/x.bin", o],
            2,
            "cannot read",
        ),
        (
            &["--from", "f16", "--to", "f32", i, "/nonexistent/y.bin"],
            2,
            "cannot create",
        ),
        (
            &["--from", "f16", "--to", "f32", "--sat", "maybe", i, o],
            2,
            "invalid value",
        ),
    ];
    for (args, code, msg) in cases {
        let r = cast(args);
        assert_eq!(r.code, *code, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(msg), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn garbage_npy_files_never_panic() {
    let mut rng = fastrand::Rng::with_seed(3);
    let out = scratch("garbage.out.bin");
    for k in 0..200 {
        let inp = scratch(&format!("garbage{k}.npy"));
        let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
        let len = rng.usize(0..200);
        if rng.bool() {
            bytes.extend_from_slice(&(len as u16).to_le_bytes());
            bytes.extend_from_slice(b"{'descr': '<f4', 'fortran_order': False, 'shape': (");
        }
        bytes.extend((0..len).map(|_| rng.u8(..)));
        std::fs::write(&inp, &bytes).unwrap_or_else(|e| panic!("{e}"));
        let r = cast(&["--from", "f32", "--to", "f16", s(&inp), s(&out)]);
        // A malformed .npy is E0804 (exit 1), a size beyond memory exit 2; never a panic.
        assert!(
            r.code == 0 || r.code == 2 || (r.code == 1 && r.stderr.contains("error[E080")),
            "{}",
            r.stderr
        );
        let _ = std::fs::remove_file(&inp);
    }
}

#[test]
fn target_all_indices_span_chunks() {
    // Differences past the first streaming chunk keep their global index.
    let n = 2_100_000;
    let mut vals = vec![0f32; n];
    vals[1_500_000] = 3e9;
    vals[2_000_001] = f32::INFINITY;
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    let inp = scratch("chunks.in.bin");
    let out = scratch("chunks.out.bin");
    std::fs::write(&inp, &bytes).unwrap_or_else(|e| panic!("{e}"));
    let r = cast(&[
        "--from",
        "f32",
        "--to",
        "i16",
        "--target",
        "all",
        s(&inp),
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("2 of 2100000 elements differ between cpu, a2a3, a5"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(
            "  [1500000] in 0x4F32D05E (3000000000) -> cpu 0x0000 (0), a2a3 0x5E00 (24064)"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("  [2000001] in 0x7F800000 (+Inf) -> cpu 0x0000 (0), a2a3 0xFFFF (-1)"),
        "{}",
        r.stdout
    );
    let _ = std::fs::remove_file(&inp);
    let _ = std::fs::remove_file(&out);
}
