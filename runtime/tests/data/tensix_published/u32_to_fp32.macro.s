; u32 -> fp32, 3 cycles/row (tensix.md 8.7)
; @init
sfploadi L0, SHORT, -31
sfpconfig 0, 12, 0                        ; L12 = -31
sfpsetsgn 0, L0, L12, ARG_IMM             ; template 0: a = setsgn(a, 0)
sfpcast L2, L13, 0                        ; template 1: b = cast(a)
sfpshft2 0, L12, L14, SHFT_LREG           ; template 2: L7 >>= 31
sfpmad L0, L10, L0, L15, INDIRECT_VA      ; template 3: L[L7] * 1.0 + b
sfpconfig 0x0004, 4, 1                    ; m0 [a]: Simple d0,t0
sfpconfig 0x5785, 5, 1                    ; m1 [b]: MAD VD16,d2,t3 | Simple VB,d0,t1
sfploadi L0, USHORT, 0
sfploadi L0, UPPER, 0x5b86                ; m2 [L7]: Store VD16,d3 | Round VB,d0,t2
sfpconfig 0, 6, 0
sfpconfig 0x703, 8, 1                     ; Misc: StoreMod0 FP32
sfploadi L0, USHORT, 0                    ; L0 = 0.0
sfploadi L1, FLOATB, 0x4f00               ; L1 = 2^31
; @body
sfploadmacro 2, INT32, ADDR_MOD_7, 0      ; m0 [a = L2]
sfploadmacro 7, INT32, ADDR_MOD_7, 0      ; m1 [b = L3]
sfploadmacro 11, INT32, ADDR_MOD_6, 1     ; m2 [L7]
; @drain
sfpnop
sfpnop
sfpnop
sfpnop
