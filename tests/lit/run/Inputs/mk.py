"""Writes a raw little-endian data file for `ptoc run` tests.

usage: mk.py OUT FMT VALUE...
  FMT   a struct code: f (f32) e (f16) b B h H i I q Q, or x1/x2/x4/x8 for raw hex patterns of
        that many bytes.
  VALUE a Python literal for the format (1.5, -3, nan, inf, -inf) or, with x*, a hex pattern;
        VALUE*N repeats it N times; A..B (integer formats) is A, A+1, ..., B-1.
"""
import struct
import sys

out, fmt, *values = sys.argv[1:]
data = bytearray()
for v in values:
    if ".." in v and not fmt.startswith("x") and fmt not in "fe":
        a, b = v.split("..")
        for k in range(int(a, 0), int(b, 0)):
            data += struct.pack("<" + fmt, k)
        continue
    v, _, n = v.partition("*")
    n = int(n) if n else 1
    if fmt.startswith("x"):
        width = int(fmt[1:])
        item = int(v, 16).to_bytes(width, "little")
    elif fmt in "fe":
        item = struct.pack("<" + fmt, float(v))
    else:
        item = struct.pack("<" + fmt, int(v, 0))
    data += item * n
with open(out, "wb") as f:
    f.write(data)
