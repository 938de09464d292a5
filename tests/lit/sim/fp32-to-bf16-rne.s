; fp32 -> bf16 round-to-nearest-even, the plain form of the published kernel (tensix.md §8.1,
; SEED-T): b = v + 0x7FFF + ((v >> 16) & 1), then a truncating FP16B store. Constants come from
; an init program (--init). 32-bit words in, the 16-bit Dst cells the FP16B store wrote out
; (--out-width 16).
;
; Every bf16 pattern with low halves 0, 0x7FFF, 0x8000 (tie), 0x8001 and 0xFFFF: exact RNE for
; all non-NaN inputs, denormal results flushed by the store (a documented mismatch, §8.1):
; RUN: %python %S/Inputs/words.py bf16grid %t.in
; RUN: ptoc sim %s --init %S/Inputs/bf16-rne-init.s --out-width 16 --input %t.in --output %t.out | FileCheck %s
; RUN: %python %S/Inputs/words.py bf16-rne %t.in %t.out | FileCheck %s --check-prefix=RNE
; The NaN quirks of §8.1: 0x7FC00000 -> 0x7FC0, 0x7F800001 -> +Inf, 0x7FFFFFFF -> -0 (carry through
; the sign), 0xFFFFFFFF -> +0; and ties: 0x3F808000 -> 0x3F80, 0x3F818000 -> 0x3F82.
; RUN: %python %S/Inputs/words.py gen 32 %t.nan 0x7FC00000 0x7F800001 0x7FFFFFFF 0xFFFFFFFF 0x3F808000 0x3F818000 0x7F7F8000
; RUN: ptoc sim %s --init %S/Inputs/bf16-rne-init.s --out-width 16 --input %t.nan --output %t.nan.out
; RUN: %python %S/Inputs/words.py dump 16 %t.nan.out | FileCheck %s --check-prefix=NAN
; Both Dst16b mappings agree for this kernel (each row's 16-bit store lands on cells already read).
; RUN: ptoc sim %s --init %S/Inputs/bf16-rne-init.s --out-width 16 --dst16-mode high-half --input %t.in --output %t.hh
; RUN: %python %S/Inputs/words.py same 16 %t.out %t.hh
;
; CHECK: init_cycles: 4
; CHECK-NEXT: rows: 10240
; CHECK-NEXT: cycles_per_row: 7
; RNE: ok 326402
; NAN:      0x7FC0
; NAN-NEXT: 0x7F80
; NAN-NEXT: 0x8000
; NAN-NEXT: 0x0000
; NAN-NEXT: 0x3F80
; NAN-NEXT: 0x3F82
; NAN-NEXT: 0x7F80
; NAN-NOT:  {{.}}

sfpload  L0, DEFAULT, ADDR_MOD_7, 0   ; a = v (FP32: Dst is 32-bit)
sfpload  L1, DEFAULT, ADDR_MOD_7, 0   ; b = v
sfpshft  -16, L0, L0, IMM             ; a >>= 16
sfpand   0, L12, L0, 0                ; a &= 1 (L12 = 1)
sfpiadd  0, L13, L1, CC_NONE          ; b += 0x7FFF (L13)
sfpiadd  0, L0, L1, CC_NONE           ; b += a
sfpstore L1, FP16B, ADDR_MOD_6, 0     ; truncating bf16 store
