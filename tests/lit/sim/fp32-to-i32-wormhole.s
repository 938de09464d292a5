; The same fp32 -> i32 listing on Wormhole, whose typecast address modes are ADDR_MOD_3 (+0) and
; ADDR_MOD_2 (+2) (tensix.md §4.7, §11). Same results, same 13 cycles per row.
;
; RUN: %python %S/Inputs/words.py gen 32 %t.in 0x3FC00000 0xBFC00000 0x4F000000 0x7FC00000 0x00000001 0x47F1205A
; RUN: ptoc sim %s --arch wormhole --input %t.in --output %t.out | FileCheck %s --check-prefix=CYCLES
; RUN: %python %S/Inputs/words.py dump 32 %t.out | FileCheck %s
; Blackhole has no ADDR_MOD_2 increment configured: the program is rejected there.
; RUN: not ptoc sim %s --arch blackhole --input %t.in --output %t.bh.out 2>&1 | FileCheck %s --check-prefix=BH
;
; CYCLES: rows: 1
; CYCLES-NEXT: cycles_per_row: 13
;
; CHECK:      0x00000001
; CHECK-NEXT: 0xFFFFFFFF
; CHECK-NEXT: 0x80000000
; CHECK-NEXT: 0x80000000
; CHECK-NEXT: 0x00000000
; CHECK-NEXT: 0x0001E240
; CHECK-NOT:  {{.}}
;
; BH: ptoc: error[E0803]: {{.*}}ADDR_MOD

sfpload L0, 0, ADDR_MOD_3, 0
sfploadi L1, 0, 0
sfpexexp 0, L0, L2, CC_SGN|CC_COMP
sfploadi L1, FLOATB, 0x8000
sfpiadd -31, L2, L2, IMM|CC_LT0
sfpiadd 8, L2, L2, IMM|CC_NONE
sfpexman 0, L0, L1, 0
sfpshft 0, L2, L1, 0
sfpencc 0, 0, 0, 0
sfpsetcc 0, L0, 0, LREG_LT0
sfpiadd 0, L9, L1, NEG|CC_NONE
sfpencc 0, 0, 0, 0
sfpstore L1, INT32, ADDR_MOD_2, 0
