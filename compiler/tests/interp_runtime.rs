//! The interpreter as a library (`ptoc::interp`), below the CLI: runtime checks that verified
//! input cannot reach through `ptoc run` (E0402 needs an unverified module, since the verifier
//! bounds the tmp by the worst case), SSA/DPS dst handling, and robustness: every function of
//! every test and example file runs (or fails with an error) on every profile, verified or
//! not, with random arguments — never a panic.

use std::path::{Path, PathBuf};

use pto_runtime::value::{Mask, Tile, VReg};
use ptoc::diag::Code;
use ptoc::front::{parse_module, InputFormat};
use ptoc::interp::{find_function, function_names, Interpreter, ParamKind, Value};
use ptoc::ir::Module;
use ptoc::target::Profile;

fn parse(text: &str) -> Module {
    let out = parse_module(text, 0, InputFormat::Pto);
    assert!(
        !out.diagnostics.iter().any(|d| d.is_error()),
        "{:?}",
        out.diagnostics
    );
    out.module.unwrap_or_else(|| panic!("no module"))
}

/// A value of `kind` with seeded random contents; tiles with dynamic valid dims get `valid`
/// (or their declared extents).
fn random_value(kind: &ParamKind, seed: u64, valid: Option<(u64, u64)>) -> Option<Value> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut bytes = |n: usize| (0..n).map(|_| rng.u8(..)).collect::<Vec<u8>>();
    Some(match *kind {
        ParamKind::Tile(d) => {
            let n = Tile::storage_len(d.elem, d.rows, d.cols).ok()?;
            if n > 1 << 22 {
                return None;
            }
            let (vr, vc) = valid.unwrap_or((d.rows, d.cols));
            Value::Tile(
                Tile::from_storage(
                    d.elem,
                    d.rows,
                    d.cols,
                    d.valid_rows.unwrap_or(vr),
                    d.valid_cols.unwrap_or(vc),
                    d.packed_dim,
                    bytes(n),
                )
                .ok()?,
            )
        }
        ParamKind::VReg { elem } => Value::VReg(VReg::from_storage(elem, &bytes(256)).ok()?),
        ParamKind::Mask { granularity } => {
            Value::Mask(Mask::from_storage(granularity, &bytes(32)).ok()?)
        }
        ParamKind::Scalar { .. } => Value::Scalar(u64::from(rng.u8(..16))),
    })
}

const TMP_KERNEL: &str = r#"
module attributes {pto.target_arch = "a2"} {
  func.func @k(%s: !pto.tile_buf<vec, 16x128xf32, valid=?x?>, %t: !pto.tile_buf<vec, 8x64xi32>,
               %d: !pto.tile_buf<vec, 16x128xi16, valid=?x?>) {
    pto.tcvt ins(%s, %t {satmode = #pto<saturation_mode OFF>} : !pto.tile_buf<vec, 16x128xf32, valid=?x?>, !pto.tile_buf<vec, 8x64xi32>)
             outs(%d : !pto.tile_buf<vec, 16x128xi16, valid=?x?>)
    return
  }
}
"#;

fn tmp_args(m: &Module, dst_valid: (u64, u64)) -> (Interpreter<'_>, Vec<Value>) {
    let f = find_function(m, "k").unwrap_or_else(|| panic!("no @k"));
    let it = Interpreter::new(m, f, Profile::A2a3);
    let args = it
        .params()
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let kind = p.kind.clone().unwrap_or_else(|e| panic!("{e}"));
            // src and dst get the same actual valid extents (tmp's are static).
            random_value(&kind, i as u64, Some(dst_valid)).unwrap_or_else(|| panic!("arg {i}"))
        })
        .collect();
    (it, args)
}

#[test]
fn runtime_tmp_check_uses_actual_extents() {
    let m = parse(TMP_KERNEL);
    // The §3.5 worked example: dst valid 16x100 needs 7840 bytes; the tmp holds 2048.
    let (it, args) = tmp_args(&m, (16, 100));
    let e = it
        .run(args)
        .err()
        .unwrap_or_else(|| panic!("expected E0402"));
    assert_eq!(e.code(), Code::RuntimeTmpTooSmall);
    let msg = e.to_string();
    assert!(
        msg.contains("at least 7840 bytes") && msg.contains("found 2048"),
        "{msg}"
    );
    // The span is the tcvt statement.
    assert!(TMP_KERNEL[e.span.start..e.span.end].starts_with("pto.tcvt ins("));
    // valid 16x128 needs only 512 bytes (C mod 64 = 0): the run succeeds.
    let (it, args) = tmp_args(&m, (16, 128));
    let r = it.run(args).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.written_args.len(), 1);
    assert_eq!(r.written_args[0].0, 2);
}

#[test]
fn dps_dst_keeps_bits_outside_the_valid_region_and_ssa_dst_is_zero() {
    let m = parse(
        r#"
func.func @dps(%s: !pto.tile_buf<vec, 2x4xi8, valid=1x2>, %d: !pto.tile_buf<vec, 2x4xi32, valid=1x2>) {
  pto.tcvt ins(%s : !pto.tile_buf<vec, 2x4xi8, valid=1x2>) outs(%d : !pto.tile_buf<vec, 2x4xi32, valid=1x2>)
  return
}
func.func @ssa(%s: !pto.tile_buf<vec, 2x4xi8, valid=1x2>) -> !pto.tile_buf<vec, 2x4xi32, valid=1x2> {
  %d = pto.tcvt %s : !pto.tile_buf<vec, 2x4xi8, valid=1x2> -> !pto.tile_buf<vec, 2x4xi32, valid=1x2>
  return %d : !pto.tile_buf<vec, 2x4xi32, valid=1x2>
}
"#,
    );
    let src = |elem, bytes: Vec<u8>, w: usize| {
        Value::Tile(
            Tile::from_storage(elem, 2, 4, 1, 2, pto_runtime::value::PackedDim::Cols, {
                let mut b = bytes;
                b.resize(8 * w, 0x5A);
                b
            })
            .unwrap_or_else(|e| panic!("{e}")),
        )
    };
    let s = src(pto_runtime::ElemType::I8, vec![0x80, 0x7F], 1);
    let d = src(pto_runtime::ElemType::I32, vec![], 4);
    let f = find_function(&m, "dps").unwrap_or_else(|| panic!("@dps"));
    let r = Interpreter::new(&m, f, Profile::Cpu)
        .run(vec![s.clone(), d])
        .unwrap_or_else(|e| panic!("{e}"));
    let Value::Tile(t) = &r.written_args[0].1.value else {
        panic!("not a tile")
    };
    assert_eq!(t.get(0, 0), 0xFFFF_FF80);
    assert_eq!(t.get(0, 1), 0x7F);
    assert_eq!(t.get(0, 2), 0x5A5A_5A5A);
    assert_eq!(t.get(1, 0), 0x5A5A_5A5A);
    let origin = r.written_args[0]
        .1
        .origin
        .as_ref()
        .unwrap_or_else(|| panic!("origin"));
    assert_eq!(origin.stats.converted, 2);

    let f = find_function(&m, "ssa").unwrap_or_else(|| panic!("@ssa"));
    let r = Interpreter::new(&m, f, Profile::A5)
        .run(vec![s])
        .unwrap_or_else(|e| panic!("{e}"));
    let Value::Tile(t) = &r.results[0].value else {
        panic!("not a tile")
    };
    assert_eq!(
        (t.get(0, 0), t.get(0, 1), t.get(0, 2), t.get(1, 3)),
        (0xFFFF_FF80, 0x7F, 0, 0)
    );
    assert!(r.written_args.is_empty());
}

#[test]
fn wrong_argument_count_is_an_error() {
    let m = parse(TMP_KERNEL);
    let f = find_function(&m, "k").unwrap_or_else(|| panic!("@k"));
    let e = Interpreter::new(&m, f, Profile::Cpu).run(Vec::new());
    assert!(e.is_err_and(|e| e.code() == Code::InterpUnsupported));
}

fn inputs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            inputs(&p, out);
        } else if p.extension().is_some_and(|x| x == "pto" || x == "ptoasm") {
            out.push(p);
        }
    }
}

#[test]
fn no_panic_on_any_function_of_any_test_file() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    inputs(&root.join("tests"), &mut files);
    inputs(&root.join("examples"), &mut files);
    assert!(files.len() > 20, "found only {} files", files.len());
    let mut runs = 0;
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let format = if path.extension().is_some_and(|x| x == "ptoasm") {
            InputFormat::PtoAsm
        } else {
            InputFormat::Pto
        };
        for chunk in text.split("// -----\n") {
            let out = parse_module(chunk, 0, format);
            let Some(m) = out.module else { continue };
            for name in function_names(&m) {
                let Some(f) = find_function(&m, &name) else {
                    continue;
                };
                for profile in Profile::ALL {
                    let it = Interpreter::new(&m, f, profile);
                    let args: Option<Vec<Value>> = it
                        .params()
                        .iter()
                        .enumerate()
                        .map(|(i, p)| random_value(p.kind.as_ref().ok()?, i as u64, None))
                        .collect();
                    if let Some(args) = args {
                        // Ok or a structured error; a panic fails the test.
                        let _ = it.run(args);
                        runs += 1;
                    }
                }
            }
        }
    }
    assert!(runs > 50, "only {runs} runs");
}
