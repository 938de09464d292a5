; 16-bit Dst (--dest 16): Mod0 DEFAULT resolves to BF16 (--dst-format fp16b, the default) or to
; FP16 (--dst-format fp16a). All 65536 16-bit words (64 tiles, 4 chunks of 16 tiles) go through
; load + store: everything survives except exponent-0 values, which the stores flush to signed
; zero (SFPSTORE BF16 ToBF16 / FP16 ToFP16).
;
; RUN: %python %S/Inputs/words.py all16 %t.in
; RUN: ptoc sim %s --dest 16 --input %t.in --output %t.bf16 | FileCheck %s
; RUN: %python %S/Inputs/words.py store16 bf16 %t.in %t.bf16 | FileCheck %s --check-prefix=BF16
; RUN: ptoc sim %s --dest 16 --dst-format fp16a --input %t.in --output %t.fp16 | FileCheck %s
; RUN: %python %S/Inputs/words.py store16 fp16 %t.in %t.fp16 | FileCheck %s --check-prefix=FP16
;
; CHECK: rows: 2048
; CHECK-NEXT: cycles_per_row: 2
; BF16: ok 65536 flushed 254
; FP16: ok 65536 flushed 2046

sfpload L0, DEFAULT, ADDR_MOD_7, 0
sfpstore L0, DEFAULT, ADDR_MOD_6, 0
