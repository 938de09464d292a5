; fp32 -> u32 with truncation, the 11-cycle listing of SEED-T (tensix.md §8.3): negatives (incl.
; -0, -NaN) -> 0; +Inf, +NaN, >= 2^32 -> 0xFFFFFFFF; else truncation.
;
; RUN: %python %S/Inputs/words.py gen 32 %t.in 0xBF800000 0x3F000000 0x3F800000 0x4F7FFFFF 0x4F800000 0x7F800000 0x7FC00000 0xFFC00000 0x4F32D05E 0x80000000
; RUN: ptoc sim %s --input %t.in --output %t.out | FileCheck %s --check-prefix=CYCLES
; RUN: %python %S/Inputs/words.py dump 32 %t.out | FileCheck %s
;
; CYCLES: cycles_per_row: 11
;
; CHECK:      0x00000000
; CHECK-NEXT: 0x00000000
; CHECK-NEXT: 0x00000001
; CHECK-NEXT: 0xFFFFFF00
; CHECK-NEXT: 0xFFFFFFFF
; CHECK-NEXT: 0xFFFFFFFF
; CHECK-NEXT: 0xFFFFFFFF
; CHECK-NEXT: 0x00000000
; CHECK-NEXT: 0xB2D05E00
; CHECK-NEXT: 0x00000000
; CHECK-NOT:  {{.}}

sfpload L0, 0, ADDR_MOD_7, 0              ; load fp32/bf16
sfploadi L1, 0, 0                         ; result = 0
sfpsetcc 0, L0, 0, LREG_GTE0              ; LaneEnabled = in >= 0
sfpexexp 0, L0, L2, CC_SGN|CC_COMP        ; exp = in.Exp (LaneEnabled = exp >= 0)
sfploadi L1, SHORT, -1                    ; result = 0xffffffff
sfpiadd -32, L2, L2, IMM|CC_LT0           ; exp -= 32 (LaneEnabled = exp < 32)
sfpiadd 9, L2, L2, IMM|CC_NONE            ; exp += 9
sfpexman 0, L0, L1, 0                     ; result = in.Man, including implicit bit
sfpshft 0, L2, L1, 0                      ; result <<= exp
sfpencc 0, 0, 0, 0                        ; LaneEnabled = true
sfpstore L1, INT32, ADDR_MOD_6, 0         ; store i32 (autoincrement addr)
