; u16 -> bf16 (ties away from zero), SFPLOADMACRO form: 1 cycle/row.
; The published listing u16_to_bf16.macro.s (tensix.md §8) through `ptoc sim` with its own `; @init` /
; `; @body` / `; @drain` sections; exact output words on edge inputs and the published
; steady-state cycles per row (§7 cycle model).
; 16-bit words in (raw u16 cells), bf16 words out (--out-format fp16b: the store's mode is
; BF16). 257 -> 258 and 0x8080 -> 0x4701: ties round away, not to even (§8.6).
; RUN: %python %S/Inputs/words.py gen 16 %t.in 0x0 0x1 0xFF 0x100 0x101 0x103 0x7FFF 0x8001 0x8080 0xFFFF
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/u16_to_bf16.macro.s --dest 16 --dst-format uint16 --out-format fp16b --input %t.in --output %t.out | FileCheck %s
; RUN: %python %S/Inputs/words.py dump 16 %t.out | FileCheck %s --check-prefix=OUT
;
; CHECK: rows: 1
; CHECK-NEXT: cycles_per_row: 1
; CHECK-NOT: {{.}}
; OUT:      0x0000
; OUT-NEXT: 0x3F80
; OUT-NEXT: 0x437F
; OUT-NEXT: 0x4380
; OUT-NEXT: 0x4381
; OUT-NEXT: 0x4382
; OUT-NEXT: 0x4700
; OUT-NEXT: 0x4700
; OUT-NEXT: 0x4701
; OUT-NEXT: 0x4780
; OUT-NOT:  {{.}}
