; u32 -> fp32, SFPLOADMACRO form: 3 cycles/row.
; The published listing u32_to_fp32.macro.s (tensix.md §8) through `ptoc sim` with its own `; @init` /
; `; @body` / `; @drain` sections; exact output words on edge inputs and the published
; steady-state cycles per row (§7 cycle model).
; Values >= 2^31 are converted as float(v & 0x7FFFFFFF) + 2^31: two roundings (§8.7 ⚠).
; 2^31 + 2^30 + 129 (0xC0000081) -> 0x4F400000, where one RNE rounding gives 0x4F400001:
; the low part 2^30 + 129 first rounds to 2^30 + 128 (ulp 128), and adding 2^31 then meets an
; exact tie (ulp 256) that goes to even.
; RUN: %python %S/Inputs/words.py gen 32 %t.in 0x0 0x1 0x101 0x7FFFFFFF 0x80000000 0xFFFFFFFF 0xC0000081 0x80000081 0x89ABCDEF
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/u32_to_fp32.macro.s --input %t.in --output %t.out | FileCheck %s
; RUN: %python %S/Inputs/words.py dump 32 %t.out | FileCheck %s --check-prefix=OUT
; The double rounding on its own:
; RUN: %python %S/Inputs/words.py gen 32 %t.dr 0xC0000081
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/u32_to_fp32.macro.s --input %t.dr --output %t.dr.out
; RUN: %python %S/Inputs/words.py dump 32 %t.dr.out | FileCheck %s --check-prefix=DOUBLE
; DOUBLE: 0x4F400000
; DOUBLE-NOT: {{.}}
;
; CHECK: rows: 1
; CHECK-NEXT: cycles_per_row: 3
; CHECK-NOT: {{.}}
; OUT:      0x00000000
; OUT-NEXT: 0x3F800000
; OUT-NEXT: 0x43808000
; OUT-NEXT: 0x4F000000
; OUT-NEXT: 0x4F000000
; OUT-NEXT: 0x4F800000
; OUT-NEXT: 0x4F400000
; OUT-NEXT: 0x4F000001
; OUT-NEXT: 0x4F09ABCE
; OUT-NOT:  {{.}}
