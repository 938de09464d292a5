; SFPLOADMACRO listings over several Dst chunks (tensix.md §4.7): after each chunk ptoc sim runs
; the listing's `; @drain` section (default: SFPNOPs) and requires the macro pipeline to be empty,
; so the scheduled stores of a chunk's last rows land in that chunk and none leaks into the next.
;
; 9 tiles + 100 words (a full chunk of 8 tiles, then 2 padded tiles): the macro form and the
; plain form of u32 -> fp32 give identical words, chunk boundaries included.
; RUN: %python %S/Inputs/words.py seq 32 %t.in 9316
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/u32_to_fp32.macro.s --input %t.in --output %t.macro | FileCheck %s --check-prefix=MACRO
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/u32_to_fp32.plain.s --input %t.in --output %t.plain
; RUN: %python %S/Inputs/words.py same 32 %t.macro %t.plain | FileCheck %s --check-prefix=SAME
; The same for a 2-row body (fp32 -> bf16 alternates L0/L1), 16-bit words out:
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/fp32_to_bf16.macro.s --out-width 16 --input %t.in --output %t.bf.macro
; RUN: ptoc sim %S/../../../runtime/tests/data/tensix_published/fp32_to_bf16.plain.s --out-width 16 --input %t.in --output %t.bf.plain
; RUN: %python %S/Inputs/words.py same 16 %t.bf.macro %t.bf.plain | FileCheck %s --check-prefix=SAME
;
; Without a `; @drain` section the default drain empties the pipeline:
; RUN: %python %S/Inputs/words.py gen 16 %t.u16 0 1 257 0xFFFF
; RUN: ptoc sim %S/Inputs/no-drain.s --dest 16 --dst-format uint16 --out-width 32 --input %t.u16 --output %t.nd
; RUN: %python %S/Inputs/words.py u16-to-f32 %t.u16 %t.nd | FileCheck %s --check-prefix=ND
; A drain that leaves a scheduled store pending is an error (exit 1), not a lost or leaked store:
; RUN: not ptoc sim %S/Inputs/short-drain.s --dest 16 --dst-format uint16 --out-width 32 --input %t.u16 --output %t.sd 2>&1 | FileCheck %s --check-prefix=SHORT
; Template writes are init code: in the loop body they are rejected.
; RUN: not ptoc sim %S/Inputs/body-backdoor.s --dest 16 --dst-format uint16 --out-width 32 --input %t.u16 --output %t.bb 2>&1 | FileCheck %s --check-prefix=BACKDOOR
;
; MACRO: init_cycles: 14
; MACRO-NEXT: rows: 292
; MACRO-NEXT: cycles_per_row: 3
; SAME: same 9316
; ND: ok 4
; SHORT: ptoc: error[E0803]: drain of the chunk from value 0: pc 0: SFPLOADMACRO: Undrained: 1 scheduled instruction(s) still pending
; BACKDOOR: ptoc: error[E0803]: loop body: pc 0 (line {{[0-9]+}}): writes macro template 1 through VD 13 (backdoor)
