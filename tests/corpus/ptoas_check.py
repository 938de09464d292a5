#!/usr/bin/env python3
"""Corpus check: how much of a directory of .pto files ptoc reads and verifies.

For every `*.pto` under DIR (recursively, sorted), runs

  ptoc fmt    [--split-input-file] FILE
  ptoc verify [--split-input-file] [--target ARCH] FILE

each with a timeout (default 1 s), where ARCH is the `--pto-arch`/`--target` of the file's
first RUN line that names one (PTOAS spellings: a2, a3, a2a3, a5, cpu), and
`--split-input-file` is passed when a RUN line asks for it. Prints the counts by outcome:

  read:   ok / error <first code> / timeout / panic
  verify: ok / error <first code> / timeout / panic

and the read rate over the files whose RUN lines expect no failure (no `not ...` command: the
issue-11 target), and how many of the others `verify` rejects,

then the failing files with their first diagnostic code (`--list N` limits the list; 0 = none).
Exit status 0 unless a run panicked or timed out (`--strict`: also when any file failed).

Written for issue 11 (the PTOAS lit corpus, `test/lit/**/*.pto`; see docs/corpus.md) and
usable on any directory, e.g. the repository's own `tests/lit` and `examples`. Standard
library only.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
from pathlib import Path

CODE = re.compile(r"\b(error)\[([EWN]\d{4})\]")
ARCH = re.compile(r"--(?:pto-arch|target)(?:=|\s+)([A-Za-z0-9_]+)")
KNOWN_ARCHS = {"a2", "a3", "a2a3", "a5", "cpu"}
PANIC_STATUS = 101


NEGATIVE = re.compile(r"RUN:\s*(?:.*\|\s*)?not\s")


def run_line_options(text: str) -> tuple[str | None, bool, bool]:
    """The arch of the first RUN line naming one (if ptoc knows it), whether any RUN line
    splits the input, and whether a RUN line expects its tool to fail (`not ...`)."""
    arch = None
    split = False
    negative = False
    for line in text.splitlines():
        if "RUN:" not in line:
            continue
        if "split-input-file" in line:
            split = True
        if NEGATIVE.search(line):
            negative = True
        if arch is None:
            m = ARCH.search(line)
            if m and m.group(1) in KNOWN_ARCHS:
                arch = m.group(1)
    return arch, split, negative


def classify(cmd: list[str], timeout: float) -> tuple[str, str | None]:
    """(outcome, first error code): outcome is ok, error, timeout or panic."""
    env = dict(os.environ, NO_COLOR="1")
    try:
        p = subprocess.run(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, env=env
        )
    except subprocess.TimeoutExpired:
        return "timeout", None
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode == PANIC_STATUS or "panicked at" in err or p.returncode < 0:
        return "panic", None
    if p.returncode == 0:
        return "ok", None
    m = CODE.search(err)
    return "error", (m.group(2) if m else f"exit{p.returncode}")


def check(path: Path, ptoc: str, timeout: float) -> dict:
    try:
        text = path.read_text("utf-8", "replace")
    except OSError:
        text = ""
    arch, split, negative = run_line_options(text)
    common = ["--split-input-file"] if split else []
    read = classify([ptoc, "fmt", *common, str(path)], timeout)
    target = ["--target", arch] if arch else []
    verify = classify([ptoc, "verify", *common, *target, str(path)], timeout)
    return {"path": path, "arch": arch, "negative": negative, "read": read, "verify": verify}


def label(outcome: tuple[str, str | None]) -> str:
    kind, code = outcome
    return f"error {code}" if kind == "error" else kind


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+", type=Path, help="directories (or files) of .pto files")
    ap.add_argument("--ptoc", default=os.environ.get("PTOC_BIN", "target/release/ptoc"))
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per run (default 1)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", type=int, default=-1, help="failing files listed (-1 = all)")
    ap.add_argument("--strict", action="store_true", help="exit 1 when any file fails")
    a = ap.parse_args()

    files: list[Path] = []
    for d in a.dirs:
        files.extend([d] if d.is_file() else sorted(d.rglob("*.pto")))
    if not files:
        print("no .pto files found", file=sys.stderr)
        return 2
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        results = list(ex.map(lambda f: check(f, a.ptoc, a.timeout), files))

    n = len(results)
    print(f"files: {n}")
    for stage in ("read", "verify"):
        counts = collections.Counter(label(r[stage]) for r in results)
        ok = counts.pop("ok", 0)
        print(f"{stage}: ok {ok} ({100.0 * ok / n:.1f}%)")
        for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {k}: {v}")
    # The read target (issue 11): files whose RUN lines expect no failure at all. A `not` RUN
    # line may expect a parse or a later failure; the script cannot tell, so all are set aside.
    positive = [r for r in results if not r["negative"]]
    ok = sum(1 for r in positive if r["read"][0] == "ok")
    pct = 100.0 * ok / max(1, len(positive))
    print(f"read, files with no `not` RUN line: ok {ok} of {len(positive)} ({pct:.1f}%)")
    neg = [r for r in results if r["negative"]]
    rejected = sum(1 for r in neg if r["verify"][0] == "error")
    print(f"files with a `not` RUN line: {len(neg)}, rejected by verify {rejected}")
    archs = collections.Counter(r["arch"] or "(none: module's target_arch, else cpu)" for r in results)
    print("verify target (from RUN lines): " + ", ".join(f"{k} {v}" for k, v in sorted(archs.items())))

    failing = [r for r in results if r["read"][0] != "ok" or r["verify"][0] != "ok"]
    shown = failing if a.list < 0 else failing[: a.list]
    if shown:
        print(f"failing files ({len(failing)}):")
        for r in shown:
            neg = " (expects failure)" if r["negative"] else ""
            print(f"  {r['path']}{neg}: read {label(r['read'])}; verify {label(r['verify'])}")
        if len(shown) < len(failing):
            print(f"  ... {len(failing) - len(shown)} more")
    crashed = any(r[s][0] in ("panic", "timeout") for r in results for s in ("read", "verify"))
    if crashed or (a.strict and failing):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
