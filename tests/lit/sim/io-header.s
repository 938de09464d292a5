; The `; @io` header of a lowered kernel fixes the I/O: files hold elements as `ptoc cast`
; writes them (here i8 in, ui16 out: 1 and 2 bytes per element), Dst holds 32-bit datums
; (tensix::io), and no other flag is needed. This listing is a hand-written i8 -> ui16 copy of the
; low 16 bits (sat off), so -1 -> 0xFFFF.
; RUN: %python %S/../cast/Inputs/bits.py pack i8 %t.in 0 1 -1 127 -128
; RUN: ptoc sim %s --input %t.in --output %t.out | FileCheck %s
; RUN: ptoc cast --from i8 --to ui16 %t.in %t.ref
; RUN: diff %t.out %t.ref
; CHECK: rows: 1
; CHECK-NEXT: cycles_per_row: 5
;
; A header that contradicts a flag, or names an unknown type, is an error:
; RUN: not ptoc sim %s --arch wormhole --input %t.in --output %t.x 2>&1 | FileCheck %s --check-prefix=ARCH
; ARCH: ptoc: error: --arch contradicts the listing's `; @io arch=` header (blackhole)
; RUN: %python -c "import sys; open(sys.argv[1], 'w').write('; @io src=f64 dst=i32\nsfpnop\n')" %t.badty.s
; RUN: not ptoc sim %t.badty.s --input %t.in --output %t.x 2>&1 | FileCheck %s --check-prefix=TYPE
; TYPE: ptoc: error[E0801]: {{.*}}badty.s:1: `; @io` header: unknown element type `f64` (expected f32, bf16, f16, i32, ui32, i16, ui16, i8 or ui8)
;
; A program that is not UTF-8 is a coded error (exit 1), as in `ptoc verify`:
; RUN: %python -c "import sys; open(sys.argv[1], 'wb').write(b'sfpnop \xff\n')" %t.latin1.s
; RUN: not ptoc sim %t.latin1.s --input %t.in --output %t.x 2>&1 | FileCheck %s --check-prefix=UTF8
; UTF8: error[E0002]: {{.*}}latin1.s: invalid UTF-8 at byte 7: programs are UTF-8 text
;
; The header fixes the word sides and the 32-bit Dst, so the flags that describe a headerless
; listing's words are refused (usage error, exit 2) rather than silently ignored (`--dest 32`
; agrees with the header and is accepted):
; RUN: %python %S/../tools/status.py 2 ptoc sim %s --input %t.in --output %t.x --out-width 16
; RUN: %python %S/../tools/status.py 2 ptoc sim %s --input %t.in --output %t.x --dst-format fp16a
; RUN: %python %S/../tools/status.py 2 ptoc sim %s --input %t.in --output %t.x --out-format uint16
; RUN: %python %S/../tools/status.py 2 ptoc sim %s --input %t.in --output %t.x --dest 16
; RUN: %python %S/../tools/status.py 2 ptoc sim %s --input %t.in --output %t.x --dst16-mode literal
; RUN: not ptoc sim %s --input %t.in --output %t.x --out-width 16 2>&1 | FileCheck %s --check-prefix=FLAG
; FLAG: ptoc: error: --out-width contradicts the listing's `; @io` header: its words are the header's src/dst elements in a 32-bit Dst (ptoc's kernel I/O contract); drop --out-width
; The help says what the files hold:
; RUN: ptoc sim --help | FileCheck %s --check-prefix=HELP
; HELP: with a `; @io` header, the header's src elements as `ptoc cast` writes them
; An input that is not whole elements of the header's source type: exit 1, E0802 (as for a vcvt
; listing and a headerless one):
; RUN: %python %S/../cast/Inputs/bits.py pack ui16 %t.u16 1
; RUN: %python %S/../cast/Inputs/bits.py pack i8 %t.i8 1 2 3
; RUN: ptoc sim %s --input %t.i8 --output %t.x
; RUN: %python -c "import sys; open(sys.argv[1], 'w').write(open(sys.argv[2]).read().replace('src=i8', 'src=i16'))" %t.i16.s %s
; RUN: %python %S/../tools/status.py 1 ptoc sim %t.i16.s --input %t.i8 --output %t.x
; RUN: not ptoc sim %t.i16.s --input %t.i8 --output %t.x 2>&1 | FileCheck %s --check-prefix=SIZE
; SIZE: ptoc: error[E0802]: {{.*}}.i8: 3 bytes is not a whole number of i16 elements (2 bytes each)
;
; A headerless listing that reads 16-bit cells of a 32-bit Dst gets a warning naming OPEN Q1
; unless --dst16-mode says which mapping to use:
; RUN: %python %S/Inputs/words.py gen 32 %t.w 1 2
; RUN: ptoc sim %S/u16-to-f32.s --input %t.w --output %t.x 2>&1 | FileCheck %s --check-prefix=Q1
; Q1: ptoc: warning: {{.*}}u16-to-f32.s: the listing accesses 32-bit Dst with the 16-bit mode {{[A-Z0-9_]+}}, whose meaning depends on how Dst16b maps onto Dst32b (tensix.md OPEN Q1); using --dst16-mode literal. Pass --dst16-mode literal|high-half to choose.
; RUN: ptoc sim %S/u16-to-f32.s --dst16-mode literal --input %t.w --output %t.x 2>&1 | FileCheck %s --check-prefix=NOWARN
; NOWARN-NOT: warning

; @io src=i8 dst=ui16 arch=blackhole
; @body
sfpload  L0, INT32, ADDR_MOD_7, 0   ; sign-extended i8
sfploadi L1, USHORT, 0xffff         ; low-16 mask
sfpand   0, L1, L0, 0               ; keep the low 16 bits (zero-extended ui16 datum)
sfpnop                              ; (padding, to show cycles count issue slots)
sfpstore L0, INT32, ADDR_MOD_6, 0
