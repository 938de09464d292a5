"""Checks that a captured output stays small: bound.py FILE MAX_BYTES MAX_LINE_CHARS [--ascii].

Fails (exit 1, with the figures) when FILE is larger than MAX_BYTES, has a line longer than
MAX_LINE_CHARS characters, or, with --ascii, holds a byte that is not printable ASCII, a newline
or part of a box-drawing character (U+2500-U+257F): no raw input bytes, no U+FFFD.
"""
import sys

path, max_bytes, max_line = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = open(path, "rb").read()
problems = []
if len(data) > max_bytes:
    problems.append(f"{len(data)} bytes > {max_bytes}")
text = data.decode("utf-8", errors="replace")
longest = max((len(line) for line in text.split("\n")), default=0)
if longest > max_line:
    problems.append(f"a line of {longest} characters > {max_line}")
if "--ascii" in sys.argv[4:]:
    bad = [c for c in text if not (c == "\n" or " " <= c <= "~" or "\u2500" <= c <= "\u257f")]
    if bad:
        problems.append(f"{len(bad)} characters that are not printable ASCII: {bad[:5]!r}")
if problems:
    sys.exit(f"{path}: " + "; ".join(problems))
print(f"{path}: {len(data)} bytes, longest line {longest} characters")
