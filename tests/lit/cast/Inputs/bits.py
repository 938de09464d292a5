"""Element files for the `ptoc cast` lit tests, without NumPy.

  bits.py pack TYPE OUT V...   write raw little-endian elements; V is a hex bit pattern (0x...),
                               or, for f32/f16, a Python float literal (3e9, inf, -0.0, nan), or,
                               for integer types, a decimal integer. Packed types (s4x2, f4*x2)
                               take one nibble per V, element 2k in the low nibble of byte k.
  bits.py dump TYPE FILE       print one element per line as 0x-hex padded to the width (one digit
                               for packed types), then `end`. A .npy FILE is checked to be a
                               version-1 .npy and its header line is printed first.
  bits.py empty FILE           fail unless FILE is empty (e.g. a captured stderr)
"""

import struct
import sys

WIDTH = {
    "f32": 4, "f16": 2, "bf16": 2, "f8E4M3FN": 1, "f8E5M2": 1, "hif8": 1,
    "i8": 1, "ui8": 1, "i16": 2, "ui16": 2, "i32": 4, "ui32": 4, "i64": 8,
}
PACKED = {"s4x2", "f4E2M1x2", "f4E1M2x2"}


def value_bits(ty, text):
    if text.lower().startswith("0x") or text.lower().startswith("-0x"):
        return int(text, 16)
    if ty == "f32":
        return struct.unpack("<I", struct.pack("<f", float(text)))[0]
    if ty == "f16":
        return struct.unpack("<H", struct.pack("<e", float(text)))[0]
    n = int(text)
    width = 4 if ty in PACKED else WIDTH[ty] * 8
    return n % (1 << width)


def pack(ty, out, values):
    bits = [value_bits(ty, v) for v in values]
    if ty in PACKED:
        if len(bits) % 2:
            bits.append(0)
        data = bytes((bits[i] & 15) | ((bits[i + 1] & 15) << 4) for i in range(0, len(bits), 2))
    else:
        w = WIDTH[ty]
        data = b"".join(b.to_bytes(w, "little") for b in bits)
    with open(out, "wb") as f:
        f.write(data)


def dump(ty, path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".npy"):
        assert data[:8] == b"\x93NUMPY\x01\x00", data[:8]
        hlen = int.from_bytes(data[8:10], "little")
        assert (10 + hlen) % 64 == 0
        print(data[10:10 + hlen].decode("latin1").strip())
        data = data[10 + hlen:]
    if ty in PACKED:
        for b in data:
            print("0x%X" % (b & 15))
            print("0x%X" % (b >> 4))
        print("end")
        return
    w = WIDTH[ty]
    assert len(data) % w == 0, len(data)
    for i in range(0, len(data), w):
        print("0x%0*X" % (2 * w, int.from_bytes(data[i:i + w], "little")))
    print("end")


def empty(path):
    with open(path, "rb") as f:
        data = f.read()
    if data:
        print("expected an empty file, got:\n" + data.decode("utf-8", "replace"), file=sys.stderr)
        return 1
    return 0


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "pack":
        pack(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) == 4 and sys.argv[1] == "dump":
        dump(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "empty":
        return empty(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
