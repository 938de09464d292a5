"""Binary word files for the `ptoc sim` lit tests (raw little-endian, 16- or 32-bit words).

  words.py gen WIDTH OUT HEX...     write the listed words
  words.py seq WIDTH OUT N          write N pseudo-random words (fixed LCG, reproducible)
  words.py all16 OUT                write all 65536 16-bit patterns in order
  words.py dump WIDTH FILE          print one `0x…` word per line
  words.py same WIDTH A B           succeed iff A and B hold the same words (prints the count)
  words.py u16-to-f32 IN OUT        check OUT (32-bit) = the fp32 bits of each 16-bit IN word
  words.py bf16grid OUT              write every bf16 pattern with low halves 0, 0x7FFF, 0x8000,
                                    0x8001, 0xFFFF (32-bit words)
  words.py bf16-rne IN OUT          check OUT (16-bit) = IN rounded to bf16 (nearest, ties to
                                    even; bf16 denormal results flushed to signed zero, §8.1)
                                    for every non-NaN IN; prints the count
  words.py store16 KIND IN OUT      check OUT = IN with exponent-0 values (KIND bf16: exponent
                                    bits 0x7F80; fp16: 0x7C00) flushed to signed zero
"""

import struct
import sys


def fmt(width):
    return "<H" if width == 16 else "<I"


def read(width, path):
    data = open(path, "rb").read()
    size = width // 8
    if len(data) % size:
        sys.exit(f"{path}: {len(data)} bytes is not a whole number of {width}-bit words")
    return [struct.unpack_from(fmt(width), data, i)[0] for i in range(0, len(data), size)]


def write(width, path, words):
    with open(path, "wb") as f:
        for w in words:
            f.write(struct.pack(fmt(width), w & ((1 << width) - 1)))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "gen":
        write(int(args[0]), args[1], [int(a, 0) for a in args[2:]])
    elif cmd == "seq":
        x, out = 12345, []
        for _ in range(int(args[2])):
            x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
            out.append(x >> 32)
        write(int(args[0]), args[1], out)
    elif cmd == "all16":
        write(16, args[0], range(1 << 16))
    elif cmd == "dump":
        width = int(args[0])
        for w in read(width, args[1]):
            print(f"0x{w:0{width // 4}X}")
    elif cmd == "same":
        width = int(args[0])
        a, b = read(width, args[1]), read(width, args[2])
        if a != b:
            bad = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            sys.exit(f"differ at word {bad} (lengths {len(a)}, {len(b)})")
        print(f"same {len(a)}")
    elif cmd == "u16-to-f32":
        a, b = read(16, args[0]), read(32, args[1])
        if len(a) != len(b):
            sys.exit(f"lengths {len(a)} vs {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            want = struct.unpack("<I", struct.pack("<f", float(x)))[0]
            if y != want:
                sys.exit(f"word {i}: in {x} out 0x{y:08X}, expected 0x{want:08X}")
        print(f"ok {len(a)}")
    elif cmd == "bf16grid":
        write(32, args[0], [(h << 16) | lo for h in range(1 << 16)
                            for lo in (0, 0x7FFF, 0x8000, 0x8001, 0xFFFF)])
    elif cmd == "bf16-rne":
        a, b = read(32, args[0]), read(16, args[1])
        if len(a) != len(b):
            sys.exit(f"lengths {len(a)} vs {len(b)}")
        checked = 0
        for i, (x, y) in enumerate(zip(a, b)):
            if (x & 0x7F800000) == 0x7F800000 and (x & 0x7FFFFF):
                continue  # NaN: the published kernel's quirks are checked separately
            # Nearest-even by exact comparison with the two bf16 neighbours of |x|.
            sign, mag = x & 0x80000000, x & 0x7FFFFFFF
            lo, rest = mag >> 16, mag & 0xFFFF
            up = rest > 0x8000 or (rest == 0x8000 and lo & 1)
            r = lo + up  # may carry into the exponent, up to Inf
            if (r & 0x7F80) == 0:
                r = 0  # the FP16B store flushes denormal results
            want = (sign >> 16) | r
            if y != want:
                sys.exit(f"word {i}: in 0x{x:08X} out 0x{y:04X}, expected 0x{want:04X}")
            checked += 1
        print(f"ok {checked}")
    elif cmd == "store16":
        mask = {"bf16": 0x7F80, "fp16": 0x7C00}[args[0]]
        a, b = read(16, args[1]), read(16, args[2])
        if len(a) != len(b):
            sys.exit(f"lengths {len(a)} vs {len(b)}")
        flushed = 0
        for i, (x, y) in enumerate(zip(a, b)):
            want = x & 0x8000 if (x & mask) == 0 else x
            if y != want:
                sys.exit(f"word {i}: in 0x{x:04X} out 0x{y:04X}, expected 0x{want:04X}")
            flushed += want != x
        print(f"ok {len(a)} flushed {flushed}")
    else:
        sys.exit(f"unknown command {cmd}")


if __name__ == "__main__":
    main()
