"""Prints a .npy file written by `ptoc run` exactly: its dtype and shape, then the data as hex
element patterns (little-endian, element width from the dtype). 2-D arrays print one line per
row (`r0: ...`); 1-D arrays 16 elements per line (`[0] ...`). No numpy needed.

usage: npyhex.py FILE
"""
import ast
import struct
import sys

raw = open(sys.argv[1], "rb").read()
assert raw[:6] == b"\x93NUMPY", "not a .npy file"
major = raw[6]
if major == 1:
    (hlen,) = struct.unpack("<H", raw[8:10])
    start = 10
else:
    (hlen,) = struct.unpack("<I", raw[8:12])
    start = 12
header = ast.literal_eval(raw[start : start + hlen].decode("latin1"))
data = raw[start + hlen :]
descr, shape = header["descr"], header["shape"]
width = int(descr[2:])
print(f"dtype {descr} shape {'x'.join(str(d) for d in shape)}")
items = [data[i : i + width][::-1].hex() for i in range(0, len(data), width)]
if len(shape) == 2:
    cols = shape[1]
    for r in range(shape[0]):
        print(f"r{r}: " + " ".join(items[r * cols : (r + 1) * cols]))
else:
    for i in range(0, len(items), 16):
        print(f"[{i}] " + " ".join(items[i : i + 16]))
