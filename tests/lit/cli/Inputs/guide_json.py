"""Checks the user guide's JSON example against the tool: guide_json.py GUIDE ACTUAL.

GUIDE is docs/user-guide.md; its first ```json block after '### JSON format' is one line broken for
reading (continuation lines indented). Joined, it must equal ACTUAL (the output of `ptoc verify
--error-format json kernel.pto` on Inputs/kernel.pto) exactly: same keys, same order, same values.
"""
import sys

guide, actual = sys.argv[1], sys.argv[2]
text = open(guide, encoding="utf-8").read()
section = text.split("### JSON format", 1)[1]
block = section.split("```json\n", 1)[1].split("```", 1)[0]
joined = "".join(line.strip() for line in block.splitlines())
got = open(actual, encoding="utf-8").read().strip()
if joined != got:
    sys.exit(f"the guide's JSON example differs from the tool:\nguide: {joined}\ntool:  {got}")
print("ok")
