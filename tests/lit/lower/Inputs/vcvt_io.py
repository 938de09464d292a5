"""Files for the vcvt `ptoc sim` test.

gen IN MASK SEED   -- one 64-lane f32 register (random bits plus specials) and 32 random mask bytes
npy2raw NPY RAW    -- the data bytes of a .npy file (drops the header)
"""
import random
import struct
import sys

cmd = sys.argv[1]
if cmd == "gen":
    rng = random.Random(int(sys.argv[4]))
    specials = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001,
                0x477FF000, 0x477FE000, 0x38800000, 0x33800000, 0x3F800000, 0xC7800000]
    words = specials + [rng.getrandbits(32) for _ in range(64 - len(specials))]
    with open(sys.argv[2], "wb") as f:
        f.write(b"".join(struct.pack("<I", w) for w in words))
    with open(sys.argv[3], "wb") as f:
        f.write(bytes(rng.getrandbits(8) for _ in range(32)))
elif cmd == "npy2raw":
    data = open(sys.argv[2], "rb").read()
    major = data[6]
    if major == 1:
        start = 10 + struct.unpack("<H", data[8:10])[0]
    else:
        start = 12 + struct.unpack("<I", data[8:12])[0]
    open(sys.argv[3], "wb").write(data[start:])
else:
    sys.exit(f"unknown command {cmd}")
