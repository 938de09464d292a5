; u32 -> bf16, SFPLOADMACRO form: 3 cycles/row.
; The published listing u32_to_bf16.macro.s (tensix.md §8) through `ptoc sim` with its own `; @init` /
; `; @body` / `; @drain` sections; exact output words on edge inputs and the published
; steady-state cycles per row (§7 cycle model).
; Results are 32-bit words (the bf16 value in the high half). Triple rounding (§8.9 ⚠):
; 257 -> 258.0 (0x43810000; one RNE rounding gives 256.0).
; RUN: %python %S/Inputs/words.py gen 32 %t.in 0x0 0x1 0x101 0x7FFFFFFF 0x80000000 0xFFFFFFFF 0xC0000081 0x80000081 0x89ABCDEF
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/u32_to_bf16.macro.s --input %t.in --output %t.out | FileCheck %s
; RUN: %python %S/Inputs/words.py dump 32 %t.out | FileCheck %s --check-prefix=OUT
;
; CHECK: rows: 1
; CHECK-NEXT: cycles_per_row: 3
; CHECK-NOT: {{.}}
; OUT:      0x00000000
; OUT-NEXT: 0x3F800000
; OUT-NEXT: 0x43810000
; OUT-NEXT: 0x4F000000
; OUT-NEXT: 0x4F000000
; OUT-NEXT: 0x4F800000
; OUT-NEXT: 0x4F400000
; OUT-NEXT: 0x4F000000
; OUT-NEXT: 0x4F0A0000
; OUT-NOT:  {{.}}
