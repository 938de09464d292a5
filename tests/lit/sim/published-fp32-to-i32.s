; fp32 -> i32 truncation, plain form (no macro form): 13 cycles/row.
; The published listing fp32_to_i32.plain.s (tensix.md §8) through `ptoc sim` with its own `; @init` /
; `; @body` / `; @drain` sections; exact output words on edge inputs and the published
; steady-state cycles per row (§7 cycle model).
; Out of range, Inf and NaN give 0x80000000 (as x86 cvttss2si); denormals 0.
; RUN: %python %S/Inputs/words.py gen 32 %t.in 0x3FC00000 0xBFC00000 0xBF666666 0x4EFFFFFF 0x4F000000 0xCF000000 0xCF000001 0x7FC00000 0x7F800000 0xFF800000 0x1
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/fp32_to_i32.plain.s --input %t.in --output %t.out | FileCheck %s
; RUN: %python %S/Inputs/words.py dump 32 %t.out | FileCheck %s --check-prefix=OUT
;
; CHECK: rows: 1
; CHECK-NEXT: cycles_per_row: 13
; CHECK-NOT: {{.}}
; OUT:      0x00000001
; OUT-NEXT: 0xFFFFFFFF
; OUT-NEXT: 0x00000000
; OUT-NEXT: 0x7FFFFF80
; OUT-NEXT: 0x80000000
; OUT-NEXT: 0x80000000
; OUT-NEXT: 0x80000000
; OUT-NEXT: 0x80000000
; OUT-NEXT: 0x80000000
; OUT-NEXT: 0x80000000
; OUT-NEXT: 0x00000000
; OUT-NOT:  {{.}}
