; Inputs larger than Dst run in Dst-sized chunks of whole tiles (8 tiles with a 32-bit Dst); the
; last chunk is padded with zeros that are run but not written (tensix.md §4.7). A raw INT32
; copy reproduces its input bit for bit, NaNs and denormals included.
;
; 9 tiles + 100 words: a full chunk of 8 tiles (256 rows), then 1 tile + 100 words padded to
; 2 tiles (64 rows run). `rows:` counts the rows that carry input: 9316 / 32 rounded up = 292.
; RUN: %python %S/Inputs/words.py seq 32 %t.in 9316
; RUN: ptoc sim %s --input %t.in --output %t.out | FileCheck %s
; RUN: %python %S/Inputs/words.py same 32 %t.in %t.out | FileCheck %s --check-prefix=SAME
; An empty input runs one zero tile (to measure cycles), writes an empty file and reports 0 rows.
; RUN: %python %S/Inputs/words.py gen 32 %t.empty
; RUN: ptoc sim %s --input %t.empty --output %t.empty.out | FileCheck %s --check-prefix=EMPTY
; RUN: %python %S/Inputs/words.py same 32 %t.empty %t.empty.out | FileCheck %s --check-prefix=EMPTYSAME
;
; CHECK: rows: 292
; CHECK-NEXT: cycles_per_row: 2
; SAME: same 9316
; EMPTY: rows: 0
; EMPTY-NEXT: cycles_per_row: 2
; EMPTYSAME: same 0

sfpload L0, INT32, ADDR_MOD_7, 0
sfpstore L0, INT32, ADDR_MOD_6, 0
