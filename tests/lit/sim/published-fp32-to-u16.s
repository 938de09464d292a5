; fp32 -> u16, round half away from zero and clamp, SFPLOADMACRO form: 2 cycles/row.
; The published listing fp32_to_u16.macro.s (tensix.md §8) through `ptoc sim` with its own `; @init` /
; `; @body` / `; @drain` sections; exact output words on edge inputs and the published
; steady-state cycles per row (§7 cycle model).
; 0.5 -> 1, 1.5 -> 2, 2.5 -> 3 (ties away), 65535.5 and above -> 65535, negatives -> 0,
; +NaN -> 65535 (§8.4 ⚠). The LO16 store writes the raw 16-bit cell (--dst-format uint16).
; RUN: %python %S/Inputs/words.py gen 32 %t.in 0x3EFFFFFF 0x3F000000 0x3FC00000 0x40200000 0x477FFF7F 0x477FFF80 0x47800000 0xBF800000 0x7FC00000 0x7F800000 0x80000000
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/fp32_to_u16.macro.s --out-width 16 --dst-format uint16 --input %t.in --output %t.out | FileCheck %s
; RUN: %python %S/Inputs/words.py dump 16 %t.out | FileCheck %s --check-prefix=OUT
;
; CHECK: rows: 1
; CHECK-NEXT: cycles_per_row: 2
; CHECK-NOT: {{.}}
; OUT:      0x0000
; OUT-NEXT: 0x0001
; OUT-NEXT: 0x0002
; OUT-NEXT: 0x0003
; OUT-NEXT: 0xFFFF
; OUT-NEXT: 0xFFFF
; OUT-NEXT: 0xFFFF
; OUT-NEXT: 0x0000
; OUT-NEXT: 0xFFFF
; OUT-NEXT: 0xFFFF
; OUT-NEXT: 0x0000
; OUT-NOT:  {{.}}
