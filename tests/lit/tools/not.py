"""`not CMD ARGS...`: run CMD and invert success, like LLVM's `not`.

Exit 0 iff CMD exited with a non-zero status. A crash (killed by a signal, or a Rust panic,
exit code 101) is never a success: nothing in ptoc may panic on any input.
"""

import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 2:
        print("usage: not CMD [ARGS...]", file=sys.stderr)
        return 2
    try:
        rc = subprocess.call(sys.argv[1:])
    except OSError as e:
        print(f"not: cannot run {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    if rc < 0 or rc == 101:
        print(f"not: {sys.argv[1]} crashed (status {rc})", file=sys.stderr)
        return 1
    return 0 if rc != 0 else 1


if __name__ == "__main__":
    sys.exit(main())
