; u16 -> fp32, SFPLOADMACRO form: 1 cycle/row (tensix.md §8.5). The published listing
; u16_to_fp32.macro.s through `ptoc sim` with its own `; @init` / `; @body` / `; @drain`
; sections: all 65536 inputs (64 tiles, 8 chunks of 8 tiles bounded by the 32-bit output side),
; exactly. Every chunk ends with the listing's drain, so the scheduled stores of each chunk's last
; rows land in that chunk.
;
; The LO16 load reads Dst16b and the scheduled FP32 store writes Dst32b at the same address
; (OPEN Q1, as in u16-to-f32.s): with the high-half mapping each row overwrites only its own cells.
; RUN: %python %S/Inputs/words.py all16 %t.in
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/u16_to_fp32.macro.s --dest 16 --dst-format uint16 --out-width 32 --dst16-mode high-half --input %t.in --output %t.out | FileCheck %s
; RUN: %python %S/Inputs/words.py u16-to-f32 %t.in %t.out | FileCheck %s --check-prefix=EXACT
; With the literal mapping the 32-bit store of SFPU row k lands on the 16-bit cells of row k + 4
; (physical rows A(r) and A(r) + 8) before that row is loaded: value 128 (row 4) reads as 0.
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/u16_to_fp32.macro.s --dest 16 --dst-format uint16 --out-width 32 --input %t.in --output %t.literal
; RUN: not %python %S/Inputs/words.py u16-to-f32 %t.in %t.literal 2>&1 | FileCheck %s --check-prefix=LITERAL
;
; CHECK: init_cycles: 5
; CHECK-NEXT: rows: 2048
; CHECK-NEXT: cycles_per_row: 1
; CHECK-NOT: {{.}}
; EXACT: ok 65536
; LITERAL: word 128: in 128 out 0x00000000, expected 0x43000000
