; Usage and I/O errors exit 2 (`ptoc: error:`); assembly (E0801), input-size (E0802) and simulation
; (E0803) errors exit 1, with the code and a located message.
;
; RUN: %python %S/Inputs/words.py gen 32 %t.in 0x3F800000
; RUN: %python %S/../tools/status.py 0 ptoc sim %s --input %t.in --output %t.out
; Input size not a whole number of words: exit 1, E0802 (as for a vcvt listing and `ptoc cast`).
; RUN: %python -c "open(r'%t.odd', 'wb').write(b'abc')"
; RUN: %python %S/../tools/status.py 1 ptoc sim %s --input %t.odd --output %t.out
; RUN: not ptoc sim %s --input %t.odd --output %t.out 2>&1 | FileCheck %s --check-prefix=ODD
; Missing files and bad flags.
; RUN: %python %S/../tools/status.py 2 ptoc sim %S/Inputs/does-not-exist.s --input %t.in --output %t.out
; RUN: %python %S/../tools/status.py 2 ptoc sim %s --input %t.does-not-exist --output %t.out
; RUN: %python %S/../tools/status.py 2 ptoc sim %s --input %t.in --output %t.out --dest 24
; RUN: %python %S/../tools/status.py 2 ptoc sim %s --input %t.in --output %t.out --arch grayskull
; Assembly errors carry file:line:col.
; RUN: %python %S/../tools/status.py 1 ptoc sim %S/Inputs/bad-mnemonic.s --input %t.in --output %t.out
; RUN: not ptoc sim %S/Inputs/bad-mnemonic.s --input %t.in --output %t.out 2>&1 | FileCheck %s --check-prefix=ASM
; A body that never advances RWC.Dst would process one address forever: rejected.
; RUN: %python %S/../tools/status.py 1 ptoc sim %S/Inputs/no-advance.s --input %t.in --output %t.out
; RUN: not ptoc sim %S/Inputs/no-advance.s --input %t.in --output %t.out 2>&1 | FileCheck %s --check-prefix=RWC
; Simulation errors name FILE:LINE of the faulting instruction and its pc.
; RUN: %python %S/../tools/status.py 1 ptoc sim %S/Inputs/uninit.s --input %t.in --output %t.out
; RUN: not ptoc sim %S/Inputs/uninit.s --input %t.in --output %t.out 2>&1 | FileCheck %s --check-prefix=SIM
;
; ODD: ptoc: error[E0802]: {{.*}}3 bytes is not a whole number of 32-bit words
; ASM: ptoc: error[E0801]: {{.*}}bad-mnemonic.s:2:1: unknown mnemonic `sfpfrobnicate`
; RWC: ptoc: error[E0803]: the program advances RWC.Dst by 0 per run
; SIM: ptoc: error[E0803]: {{.*}}uninit.s:4: simulation: pc 1: read of uninitialised L5 in lanes 0xffffffff

sfpload L0, INT32, ADDR_MOD_7, 0
sfpstore L0, INT32, ADDR_MOD_6, 0
