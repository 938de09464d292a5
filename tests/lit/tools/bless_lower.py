"""Regenerates the golden FileCheck files of tests/lit/lower/golden-*.pto.

Each golden test lowers its file for blackhole and wormhole and checks the whole listing,
line by line, against Inputs/<name>.<arch>.check. When a lowering rule changes on purpose, run

    cargo build -p ptoc && python3 tests/lit/tools/bless_lower.py [target/debug/ptoc]

and review the diff of the .check files (git diff) before committing.
"""

import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LOWER = os.path.join(os.path.dirname(HERE), "lower")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def check_lines(text):
    out = []
    for i, line in enumerate(text.splitlines()):
        tag = "CHECK" if i == 0 else "CHECK-NEXT"
        if line.strip() == "":
            out.append("CHECK-EMPTY:" if i else "CHECK: {{^$}}")
        else:
            out.append(f"{tag}: {line}")
    return "\n".join(out) + "\n"


def main():
    ptoc = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "debug", "ptoc")
    for pto in sorted(glob.glob(os.path.join(LOWER, "golden-*.pto"))):
        name = os.path.splitext(os.path.basename(pto))[0]
        for arch, short in (("blackhole", "bh"), ("wormhole", "wh")):
            res = subprocess.run(
                [ptoc, "lower", "--target", "tensix", "--arch", arch, pto],
                capture_output=True, text=True, check=False,
            )
            if res.returncode != 0:
                sys.exit(f"{pto} ({arch}): ptoc lower failed:\n{res.stderr}")
            dest = os.path.join(LOWER, "Inputs", f"{name}.{short}.check")
            with open(dest, "w", encoding="utf-8") as f:
                f.write(check_lines(res.stdout))
            print(f"blessed {os.path.relpath(dest, ROOT)}")


if __name__ == "__main__":
    main()
