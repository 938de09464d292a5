; fp32 -> i32 with truncation, the 13-cycle listing of SEED-T (tensix.md §8.2), Blackhole.
; Semantics: |x| < 1 and denormals -> 0; |x| >= 2^31, +-Inf and NaN -> INT_MIN; else trunc.
;
; RUN: %python %S/Inputs/words.py gen 32 %t.in 0x00000000 0x80000000 0x3FC00000 0xBFC00000 0x4EFFFFFF 0x4F000000 0xCF000000 0x7FC00000 0xFF800000 0x00000001 0x47F1205A 0xC7F1205A 0x3F7FFFFF
; RUN: ptoc sim %s --arch blackhole --input %t.in --output %t.out | FileCheck %s --check-prefix=CYCLES
; RUN: %python %S/Inputs/words.py dump 32 %t.out | FileCheck %s
; The default arch is blackhole and the default Dst is 32-bit.
; RUN: ptoc sim %s --input %t.in --output %t.default.out
; RUN: %python %S/Inputs/words.py same 32 %t.out %t.default.out
;
; CYCLES: rows: 1
; CYCLES-NEXT: cycles_per_row: 13
; CYCLES-NOT: {{.}}
;
; CHECK:      0x00000000
; CHECK-NEXT: 0x00000000
; CHECK-NEXT: 0x00000001
; CHECK-NEXT: 0xFFFFFFFF
; CHECK-NEXT: 0x7FFFFF80
; CHECK-NEXT: 0x80000000
; CHECK-NEXT: 0x80000000
; CHECK-NEXT: 0x80000000
; CHECK-NEXT: 0x80000000
; CHECK-NEXT: 0x00000000
; CHECK-NEXT: 0x0001E240
; CHECK-NEXT: 0xFFFE1DC0
; CHECK-NEXT: 0x00000000
; CHECK-NOT:  {{.}}

sfpload L0, 0, ADDR_MOD_7, 0              ; load fp32/bf16
sfploadi L1, 0, 0                         ; result = 0
sfpexexp 0, L0, L2, CC_SGN|CC_COMP        ; exp = in.Exp (LaneEnabled = exp >= 0)
sfploadi L1, FLOATB, 0x8000               ; result = INT_MIN (identical to fp32 -0.0)
sfpiadd -31, L2, L2, IMM|CC_LT0           ; exp -= 31 (LaneEnabled = exp < 31)
sfpiadd 8, L2, L2, IMM|CC_NONE            ; exp += 8
sfpexman 0, L0, L1, 0                     ; result = in.Man, including implicit bit
sfpshft 0, L2, L1, 0                      ; result <<= exp
sfpencc 0, 0, 0, 0                        ; LaneEnabled = true
sfpsetcc 0, L0, 0, LREG_LT0               ; LaneEnabled = in < 0
sfpiadd 0, L9, L1, NEG|CC_NONE            ; result = 0 - result
sfpencc 0, 0, 0, 0                        ; LaneEnabled = true
sfpstore L1, INT32, ADDR_MOD_6, 0         ; store i32 (autoincrement addr)
