"""Writes a .npy file with a hand-made header (to test what ptoc refuses): mknpy.py OUT HEADER NBYTES."""
import struct
import sys

out, header, nbytes = sys.argv[1], sys.argv[2], int(sys.argv[3])
h = header.encode("latin1")
pad = 64 - (10 + len(h) + 1) % 64
h = h + b" " * pad + b"\n"
with open(out, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + b"\0" * nbytes)
