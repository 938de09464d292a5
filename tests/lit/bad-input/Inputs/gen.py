"""Writes one hostile input for the bad-input lit tests: gen.py KIND OUT.

KIND: long-line  one function whose second line is 1 MiB of '$ ' (a lexical error per '$':
                 the parser stops after its error limit)
      long-use   a 1 MiB line: an op whose operand is an undefined value with a 1 MiB name
      long-op    a custom-form op whose name is 200,000 characters (unknown op)
      binary     'mod' then 4 MiB of seeded pseudo-random bytes starting with 0xFF 0xFE
      bad-tcvt   1,000 identical tcvt lines rejected on a5 (E0207 each), then 1,000 lines that
                 warn on cpu (W0202 each) in a second split chunk
"""
import random
import sys

kind, out = sys.argv[1], sys.argv[2]
if kind == "long-line":
    data = ("func.func @f() {\n  " + "$ " * (1 << 19) + "\n  return\n}\n").encode()
elif kind == "long-use":
    name = "%" + "v" * (1 << 20)
    data = ('func.func @f() {\n  "x.y"(' + name + ") : (i32) -> ()\n  return\n}\n").encode()
elif kind == "long-op":
    data = ("func.func @f(%a: i32) {\n  pto." + "x" * 200000 + " %a : i32\n  return\n}\n").encode()
elif kind == "binary":
    rng = random.Random(7)
    data = b"mod\xff\xfe" + bytes(rng.getrandbits(8) for _ in range(4 << 20))
elif kind == "bad-tcvt":
    bad = ("  pto.tcvt ins(%a : !pto.tile_buf<vec, 8x8xi8>) outs(%b : !pto.tile_buf<vec, 8x8xf8E4M3FN>)"
           " {rmode = #pto<round_mode ODD>}\n")
    sig = "func.func @f(%a: !pto.tile_buf<vec, 8x8xi8>, %b: !pto.tile_buf<vec, 8x8xf8E4M3FN>) {\n"
    data = ('module attributes {pto.target_arch = "a5"} {\n' + sig + bad * 1000 + "  return\n}\n}\n"
            + "// -----\n" + sig + bad * 1000 + "  return\n}\n").encode()
else:
    sys.exit(f"unknown kind {kind}")
with open(out, "wb") as f:
    f.write(data)
