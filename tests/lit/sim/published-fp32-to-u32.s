; fp32 -> u32 truncation with saturation, plain form (no macro form): 11 cycles/row.
; The published listing fp32_to_u32.plain.s (tensix.md §8) through `ptoc sim` with its own `; @init` /
; `; @body` / `; @drain` sections; exact output words on edge inputs and the published
; steady-state cycles per row (§7 cycle model).
; Every negative (incl. -0, -NaN) gives 0; +NaN and >= 2^32 give 0xFFFFFFFF (§8.3 ⚠).
; RUN: %python %S/Inputs/words.py gen 32 %t.in 0x3FC00000 0xBFC00000 0x80000000 0x4F7FFFFF 0x4F800000 0x4F000000 0x7FC00000 0xFFC00000 0x7F800000 0x3F7FFFFF
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/fp32_to_u32.plain.s --input %t.in --output %t.out | FileCheck %s
; RUN: %python %S/Inputs/words.py dump 32 %t.out | FileCheck %s --check-prefix=OUT
;
; CHECK: rows: 1
; CHECK-NEXT: cycles_per_row: 11
; CHECK-NOT: {{.}}
; OUT:      0x00000001
; OUT-NEXT: 0x00000000
; OUT-NEXT: 0x00000000
; OUT-NEXT: 0xFFFFFF00
; OUT-NEXT: 0xFFFFFFFF
; OUT-NEXT: 0x80000000
; OUT-NEXT: 0xFFFFFFFF
; OUT-NEXT: 0x00000000
; OUT-NEXT: 0xFFFFFFFF
; OUT-NEXT: 0x00000000
; OUT-NOT:  {{.}}
