"""Checks the pair tables of semantics.md against ptoc, one op per pair.

    pairs.py tcvt PTOC   every ordered pair of the 16 element types of semantics.md §2.1 as a tcvt:
                         cpu accepts all; a2a3 and a5 reject exactly the pairs outside the §3.1 matrix
                         with E0207 (tcvt-pair-unsupported) and nothing else.
    pairs.py vcvt PTOC   every §6.3 contract row with its required attributes: accepted on cpu and a5,
                         on a2a3 iff marked; every other (src, dst) combination gives E0303 everywhere.

The tables below are transcribed from the spec by hand, independently of the implementation's tables.
Prints `ok: ...` lines; exits 1 with a list of mismatches otherwise.
"""

import json
import subprocess
import sys
import tempfile

TYPES = ["f32", "f16", "bf16", "f8E4M3FN", "f8E5M2", "!pto.hif8", "!pto.f4E2M1x2", "!pto.f4E1M2x2",
         "i8", "ui8", "i16", "ui16", "i32", "ui32", "i64", "!pto.s4x2"]
PACKED = {"!pto.f4E2M1x2", "!pto.f4E1M2x2", "!pto.s4x2"}
BITS = {"f32": 32, "f16": 16, "bf16": 16, "i16": 16, "ui16": 16, "i32": 32, "ui32": 32, "i64": 64}

# semantics.md §3.1: src -> {dst: cell}; "2" a2a3, "5" a5, "25" both, "c" cpu-tests only.
FP8 = ["f8E4M3FN", "f8E5M2", "!pto.hif8"]
FP4 = ["!pto.f4E2M1x2", "!pto.f4E1M2x2"]
MATRIX = {
    "f32": {"f32": "25", "f16": "25", "bf16": "25", "f8E4M3FN": "5", "f8E5M2": "5", "!pto.hif8": "5",
            "!pto.f4E2M1x2": "c", "!pto.f4E1M2x2": "c", "ui8": "c", "i16": "25", "ui16": "c", "i32": "25",
            "i64": "25", "!pto.s4x2": "c"},
    "f16": {"f32": "25", "!pto.hif8": "5", "i8": "25", "ui8": "25", "i16": "25", "i32": "25", "!pto.s4x2": "2"},
    "bf16": {"f32": "25", "f16": "5", "!pto.f4E2M1x2": "5", "!pto.f4E1M2x2": "5", "i32": "25"},
    **{t: {"f32": "5"} for t in FP8},
    **{t: {"f32": "c", "bf16": "5"} for t in FP4},
    "i8": {"f32": "c", "f16": "25", "i16": "5", "i32": "5"},
    "ui8": {"f16": "25", "ui16": "5"},
    "i16": {"f32": "25", "f16": "25", "ui8": "5", "i32": "5", "ui32": "5"},
    "ui16": {"f32": "c", "i32": "c"},
    "i32": {"f32": "25", "f16": "2", "ui8": "5", "i16": "25", "ui16": "5", "i64": "25"},
    "ui32": {"ui8": "5", "i16": "5", "ui16": "5"},
    "i64": {"f32": "25", "i32": "25"},
    "!pto.s4x2": {"f32": "c", "f16": "2"},
}

# semantics.md §6.3: (src, dst, rnd letters or "", takes sat, part family "EO"/"P"/"", in a2a3 subset).
ANY = "RAFCZO"
CONTRACT = []
def row(srcs, dsts, rnd, sat, part, a2a3):
    for s in srcs:
        for d in dsts:
            CONTRACT.append((s, d, rnd, sat, part, a2a3 if isinstance(a2a3, bool) else d in a2a3))
row(["f32"], ["f8E4M3FN", "f8E5M2"], "RAHZ", True, "P", False)
row(["f32"], ["!pto.hif8"], "AH", True, "P", False)
row(["f32"], ["f16", "bf16", "i16", "i64"], ANY, True, "EO", True)
row(["f32"], ["i32"], ANY, True, "", True)
row(["f16"], ["f8E4M3FN", "f8E5M2"], "RAFZC", True, "EO", False)
row(["f16"], ["!pto.hif8"], "AH", True, "EO", False)
row(["f16"], ["f32"], "", False, "EO", True)
row(["f16"], ["i32"], ANY, False, "EO", True)
row(["f16"], ["i16"], ANY, True, "", True)
row(["f16"], ["i8", "ui8"], ANY, True, "EO", True)
row(["f16"], ["bf16"], ANY, False, "", False)
row(["bf16"], ["f8E4M3FN", "f8E5M2"], "RAFZC", True, "EO", False)
row(["bf16"], FP4, "RAFZC", False, "P", False)
row(["bf16"], ["f16"], ANY, True, "", False)
row(["bf16"], ["f32"], "", False, "EO", True)
row(["bf16"], ["i32"], ANY, True, "EO", True)
row(["ui8"], ["f16", "ui16"], "", False, "EO", {"f16"})
row(["ui8"], ["ui32"], "", False, "P", False)
row(["i8"], ["f16", "i16"], "", False, "EO", {"f16"})
row(["i8"], ["i32"], "", False, "P", False)
row(["ui16"], ["ui8"], "", True, "EO", False)
row(["ui16"], ["ui32"], "", False, "EO", False)
row(["i16"], ["f16"], ANY, False, "", True)
row(["i16"], ["f32"], "", False, "EO", True)
row(["i16"], ["ui32", "i32"], "", False, "EO", False)
row(["i16"], ["ui8"], "", True, "EO", False)
row(["ui32"], ["ui8"], "", True, "P", False)
row(["ui32"], ["ui16", "i16"], "", True, "EO", False)
row(["i32"], ["f32"], ANY, False, "", True)
row(["i32"], ["ui8"], "", True, "P", False)
row(["i32"], ["ui16"], "", True, "EO", False)
row(["i32"], ["i16"], "", True, "EO", True)
row(["i32"], ["i64"], "", False, "EO", True)
row(["i64"], ["f32"], ANY, False, "EO", True)
row(["i64"], ["i32"], "", True, "EO", True)
row(FP8, ["f32"], "", False, "P", False)
row(FP4, ["bf16"], "", False, "P", False)


def bits(t):
    return BITS.get(t, 8)


def run(ptoc, text, target):
    with tempfile.NamedTemporaryFile("w", suffix=".pto", delete=False) as f:
        f.write(text)
        path = f.name
    out = subprocess.run([ptoc, "verify", "--target", target, "--error-format=json",
                          "--error-limit=0", path],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"ptoc exited {out.returncode}: {out.stderr}")
    try:
        diags = json.loads(out.stdout)["diagnostics"]
    except (ValueError, KeyError) as e:
        sys.exit(f"bad JSON from ptoc ({e}): {out.stdout[:500]}")
    return [d for d in diags if d["severity"] == "error"]


def check(ptoc, text, ops, expect_code, expected_bad):
    """ops: line -> label. expected_bad: profile -> set of lines that must have expect_code."""
    problems = []
    for profile, bad in expected_bad.items():
        errors = run(ptoc, text, profile)
        got = {}
        for d in errors:
            got.setdefault(d["line"], set()).add(d["code"])
        for line, label in ops.items():
            codes = got.pop(line, set())
            want = {expect_code} if line in bad else set()
            if codes != want:
                problems.append(f"{profile}: {label}: errors {sorted(codes) or 'none'}, expected {sorted(want) or 'none'}")
        for line, codes in got.items():
            problems.append(f"{profile}: line {line}: unexpected errors {sorted(codes)}")
        print(f"ok-count {profile}: {len(ops) - len(bad)} accepted, {len(bad)} rejected (expected)")
    return problems


def tile(t):
    return f"!pto.tile_buf<vec, 16x{16 if t in PACKED else 32}x{t}>"


def tcvt(ptoc):
    lines = ["func.func @pairs() {"]
    ops = {}
    bad = {"cpu": set(), "a2a3": set(), "a5": set()}
    for s in TYPES:
        for d in TYPES:
            lines.append(f'  %s{len(ops)} = "test.src"() : () -> {tile(s)}')
            lines.append(f'  %d{len(ops)} = "test.dst"() : () -> {tile(d)}')
            lines.append(f"  pto.tcvt ins(%s{len(ops)} : {tile(s)}) outs(%d{len(ops)} : {tile(d)})")
            line = len(lines)
            ops[line] = f"tcvt {s} -> {d}"
            cell = MATRIX.get(s, {}).get(d, "")
            if "2" not in cell:
                bad["a2a3"].add(line)
            if "5" not in cell:
                bad["a5"].add(line)
    lines += ["  return", "}", ""]
    assert len(bad["a2a3"]) == 256 - 25 and len(bad["a5"]) == 256 - 45
    return check(ptoc, "\n".join(lines), ops, "E0207", bad)


def vreg(t):
    return f"!pto.vreg<{2048 // bits(t)}x{t}>"


def vcvt(ptoc):
    lines = ["func.func @pairs() {"]
    ops = {}
    bad = {"cpu": set(), "a2a3": set(), "a5": set()}
    rows = {(s, d): r for (s, d, *r) in CONTRACT}
    assert len(CONTRACT) == 52 and sum(1 for r in CONTRACT if r[5]) == 21
    for s in TYPES:
        for d in TYPES:
            if s in ("!pto.s4x2",) or d in ("!pto.s4x2",):
                continue  # no s4 vcvt at all; keeps the element type checks out of this test
            mask = f"!pto.mask<b{min(bits(s), 32)}>"
            r = rows.get((s, d))
            attrs = []
            if r:
                rnd, sat, part, _ = r
                if rnd:
                    attrs.append(f'rnd = "{"A" if rnd.startswith("A") else rnd[0]}"')
                if sat:
                    attrs.append('sat = "SAT"')
                if part:
                    attrs.append(f'part = "{"EVEN" if part == "EO" else "P0"}"')
            dict_ = " {" + ", ".join(attrs) + "}" if attrs else ""
            n = len(ops)
            lines.append(f'  %v{n} = "test.src"() : () -> {vreg(s)}')
            lines.append(f'  %m{n} = "test.mask"() : () -> {mask}')
            lines.append(f"  %r{n} = pto.vcvt %v{n}, %m{n}{dict_} : {vreg(s)}, {mask} -> {vreg(d)}")
            line = len(lines)
            ops[line] = f"vcvt {s} -> {d}"
            if not r:
                for p in bad:
                    bad[p].add(line)
            elif not r[3]:
                bad["a2a3"].add(line)
    lines += ["  return", "}", ""]
    return check(ptoc, "\n".join(lines), ops, "E0303", bad)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("tcvt", "vcvt"):
        sys.exit("usage: pairs.py tcvt|vcvt PTOC")
    problems = (tcvt if sys.argv[1] == "tcvt" else vcvt)(sys.argv[2])
    if problems:
        print(f"{len(problems)} mismatches:")
        for p in problems:
            print("  " + p)
        return 1
    print(f"ok: {sys.argv[1]} pair tables agree with the spec on cpu, a2a3 and a5")
    return 0


if __name__ == "__main__":
    sys.exit(main())
