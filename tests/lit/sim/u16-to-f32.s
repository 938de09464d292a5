; u16 -> fp32 (tensix.md §8.5, the §10.1 example): zero-extending 16-bit load, SFPCAST (exact
; below 2^24), FP32 store. 16-bit words in (--dest 16, opaque --dst-format uint16), 32-bit
; words out (--out-width 32). All 65536 inputs, exactly.
;
; The load reads Dst16b and the store writes Dst32b at the same address, i.e. the kernel mixes
; views (OPEN Q1). With the high-half mapping each row only overwrites its own cells:
; RUN: %python %S/Inputs/words.py all16 %t.in
; RUN: ptoc sim %s --dest 16 --dst-format uint16 --out-width 32 --dst16-mode high-half --input %t.in --output %t.out | FileCheck %s
; RUN: %python %S/Inputs/words.py u16-to-f32 %t.in %t.out | FileCheck %s --check-prefix=EXACT
; With the literal mapping the 32-bit stores of a row land on 16-bit cells of rows not yet loaded
; (Dst32b row r spans physical rows A(r) and A(r) + 8), so the results differ:
; RUN: ptoc sim %s --dest 16 --dst-format uint16 --out-width 32 --input %t.in --output %t.literal
; RUN: not %python %S/Inputs/words.py u16-to-f32 %t.in %t.literal
;
; 64 tiles in chunks of 8 (the 32-bit output side bounds the chunk).
; CHECK: rows: 2048
; CHECK-NEXT: cycles_per_row: 3
; EXACT: ok 65536

sfpload  L0, LO16, ADDR_MOD_7, 0   ; v = zero-extended u16
sfpcast  L0, L0, 0                 ; v = float(v), exact below 2^24
sfpstore L0, FP32, ADDR_MOD_6, 0   ; write fp32, advance 2
