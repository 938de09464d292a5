"""End-to-end `ptoc cast` benchmark against a NumPy/ml_dtypes script doing the same
read-convert-write, on one large f32 file (default 64M elements = 256 MiB).

    cargo build --release -p ptoc
    .venv/bin/python benches/cast_e2e.py [--elements N] [--repeat R] [--dir DIR] [--ptoc PATH]

Both sides are timed as whole processes (wall clock, `time.perf_counter` around
`subprocess.run`), so each figure includes process start-up, reading the input file,
converting and writing the output file; the best of R runs is reported (the input file is in
the page cache after the first run). The NumPy side also reports its own read/convert/write
phases. Every ptoc output is compared bit for bit with the ml_dtypes one (rounding RINT;
ptoc's cpu profile does not saturate by default, like ml_dtypes' astype).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

# ptoc --to, rmode, NumPy dtype expression used by the reference script.
CASES = [
    ("bf16", "RINT", "ml_dtypes.bfloat16"),
    ("f16", None, "numpy.float16"),
    ("f8E4M3FN", None, "ml_dtypes.float8_e4m3fn"),
]

NUMPY_SCRIPT = r"""
import sys, time, numpy, ml_dtypes
t0 = time.perf_counter()
a = numpy.fromfile(sys.argv[1], dtype='<f4')
t1 = time.perf_counter()
b = a.astype({dtype})
t2 = time.perf_counter()
b.tofile(sys.argv[2])
t3 = time.perf_counter()
print(f"{{t1 - t0:.3f}} {{t2 - t1:.3f}} {{t3 - t2:.3f}}")
"""


def timed(cmd):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr}")
    return dt, r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--elements", type=int, default=64 * 1024 * 1024)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default=None)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--ptoc", default=os.path.join(root, "target", "release", "ptoc"))
    args = ap.parse_args()

    work = args.dir or tempfile.mkdtemp(prefix="ptoc-cast-bench-")
    os.makedirs(work, exist_ok=True)
    inp = os.path.join(work, "in.bin")
    rng = np.random.default_rng(1)
    # Mostly moderate values, some huge ones (overflow paths) and specials.
    x = (rng.standard_normal(args.elements) * 300).astype("<f4")
    x[::97] *= np.float32(1e6)
    x[::1009] = np.inf
    x[::1013] = np.nan
    x.tofile(inp)
    del x
    print(f"input: {args.elements} f32 elements ({args.elements * 4 / 2**20:.0f} MiB), {work}")
    print(f"ptoc: {args.ptoc}; cpus: {os.cpu_count()}")
    print(f"{'pair':<16} {'ptoc best':>10} {'median':>8} {'numpy best':>11} {'median':>8}  numpy phases read/convert/write (best run)  equal")
    for dst, rmode, dtype in CASES:
        out_p = os.path.join(work, f"ptoc.{dst}.bin")
        out_n = os.path.join(work, f"numpy.{dst}.bin")
        cmd = [args.ptoc, "cast", "--from", "f32", "--to", dst]
        if rmode:
            cmd += ["--rmode", rmode]
        cmd += [inp, out_p]
        pt = [timed(cmd)[0] for _ in range(args.repeat)]
        script = NUMPY_SCRIPT.format(dtype=dtype)
        runs = [timed([sys.executable, "-c", script, inp, out_n]) for _ in range(args.repeat)]
        nt = [t for t, _ in runs]
        phases = min(runs)[1].strip()
        a = np.fromfile(out_p, dtype=np.uint8)
        b = np.fromfile(out_n, dtype=np.uint8)
        if a.shape != b.shape:
            equal = "NO (sizes differ)"
        else:
            diff = int(np.count_nonzero(a != b))
            equal = "yes" if diff == 0 else f"NO ({diff} bytes differ)"
        print(f"f32->{dst:<11} {min(pt):>9.3f}s {statistics.median(pt):>7.3f}s {min(nt):>10.3f}s {statistics.median(nt):>7.3f}s  {phases:<42} {equal}")
        os.remove(out_p)
        os.remove(out_n)
    if not args.dir:
        os.remove(inp)
        os.rmdir(work)


if __name__ == "__main__":
    main()
