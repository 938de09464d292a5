; fp32 -> bf16 round to nearest even, SFPLOADMACRO form: 3 cycles/row.
; The published listing fp32_to_bf16.macro.s (tensix.md §8) through `ptoc sim` with its own `; @init` /
; `; @body` / `; @drain` sections; exact output words on edge inputs and the published
; steady-state cycles per row (§7 cycle model).
; Ties to even (0x3F808000 -> 0x3F80, 0x3F818000 -> 0x3F82), overflow to Inf, denormals flushed
; by the FP16B store, infinities kept.
; RUN: %python %S/Inputs/words.py gen 32 %t.in 0x0 0x80000000 0x3F808000 0x3F818000 0x3F808001 0x7F7F8000 0x400000 0xC0490FDB 0x7F800000 0xFF800000
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/fp32_to_bf16.macro.s --out-width 16 --input %t.in --output %t.out | FileCheck %s
; RUN: %python %S/Inputs/words.py dump 16 %t.out | FileCheck %s --check-prefix=OUT
;
; CHECK: rows: 1
; CHECK-NEXT: cycles_per_row: 3
; CHECK-NOT: {{.}}
; OUT:      0x0000
; OUT-NEXT: 0x8000
; OUT-NEXT: 0x3F80
; OUT-NEXT: 0x3F82
; OUT-NEXT: 0x3F81
; OUT-NEXT: 0x7F80
; OUT-NEXT: 0x0000
; OUT-NEXT: 0xC049
; OUT-NEXT: 0x7F80
; OUT-NEXT: 0xFF80
; OUT-NOT:  {{.}}
