"""The user guide's `--nan any` f32->bf16 figure is the tool's: guide_nan_figure.py GUIDE REPORT.

REPORT is `ptoc lower --target tensix --nan any --report` of an f32->bf16 RINT tcvt (columns
conversion | arch | rule | instructions/row | cycles/row plain | cycles/row macro | proven); the guide
must say "f32→bf16 RINT <instructions> instructions, <macro cycles> c/row with SFPLOADMACRO".
"""
import sys

guide, report = sys.argv[1], sys.argv[2]
row = [line for line in open(report, encoding="utf-8") if line.startswith("tcvt f32 -> bf16")][0]
cols = [c.strip() for c in row.split("|")]
instructions, macro = cols[3], cols[5]
want = f"f32→bf16 RINT {instructions} instructions, {macro} c/row with SFPLOADMACRO"
text = " ".join(open(guide, encoding="utf-8").read().split())
if want not in text:
    sys.exit(f"docs/user-guide.md does not say '{want}' (the tool's figure)")
print("ok")
