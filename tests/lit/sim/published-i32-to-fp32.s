; i32 -> fp32 (exact RNE), SFPLOADMACRO form: 4 cycles/row.
; The published listing i32_to_fp32.macro.s (tensix.md §8) through `ptoc sim` with its own `; @init` /
; `; @body` / `; @drain` sections; exact output words on edge inputs and the published
; steady-state cycles per row (§7 cycle model).
; RUN: %python %S/Inputs/words.py gen 32 %t.in 0x0 0x1 0x7FFFFFFF 0x80000000 0xFFFFFFFF 0x80000001 0x1000001 0xFEFFFFFF 0x89ABCDEF
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/i32_to_fp32.macro.s --input %t.in --output %t.out | FileCheck %s
; RUN: %python %S/Inputs/words.py dump 32 %t.out | FileCheck %s --check-prefix=OUT
;
; CHECK: rows: 1
; CHECK-NEXT: cycles_per_row: 4
; CHECK-NOT: {{.}}
; OUT:      0x00000000
; OUT-NEXT: 0x3F800000
; OUT-NEXT: 0x4F000000
; OUT-NEXT: 0xCF000000
; OUT-NEXT: 0xBF800000
; OUT-NEXT: 0xCF000000
; OUT-NEXT: 0x4B800000
; OUT-NEXT: 0xCB800000
; OUT-NEXT: 0xCEECA864
; OUT-NOT:  {{.}}
