"""`status.py N CMD ARGS...`: run CMD and succeed iff it exits with status exactly N."""

import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 3:
        print("usage: status.py N CMD [ARGS...]", file=sys.stderr)
        return 2
    want = int(sys.argv[1])
    rc = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if rc != want:
        print(f"status.py: {' '.join(sys.argv[2:])} exited {rc}, expected {want}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
