; i32 -> bf16 (ties away from zero), SFPLOADMACRO form: 4 cycles/row.
; The published listing i32_to_bf16.macro.s (tensix.md §8) through `ptoc sim` with its own `; @init` /
; `; @body` / `; @drain` sections; exact output words on edge inputs and the published
; steady-state cycles per row (§7 cycle model).
; Results are 32-bit words (the bf16 value in the high half); 257 -> 258.0, -257 -> -258.0.
; RUN: %python %S/Inputs/words.py gen 32 %t.in 0x0 0x1 0x7FFFFFFF 0x80000000 0xFFFFFFFF 0x80000001 0x1000001 0xFEFFFFFF 0x89ABCDEF 0x101 0xFFFFFEFF
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/i32_to_bf16.macro.s --input %t.in --output %t.out | FileCheck %s
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
; OUT-NEXT: 0xCEED0000
; OUT-NEXT: 0x43810000
; OUT-NEXT: 0xC3810000
; OUT-NOT:  {{.}}
