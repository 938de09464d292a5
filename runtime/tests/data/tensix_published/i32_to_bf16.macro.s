; i32 -> bf16 (exact fp32, then ties-away round), 4 cycles/row (tensix.md 8.10). v alternates L2/L3.
; @init
sfploadi L0, SHORT, -31
sfpconfig 0, 12, 0                            ; L12 = -31
sfpsetsgn 0, L4, L12, 0                       ; template 0: v = setsgn(t, v)
sfpmad L0, L10, L0, L13, INDIRECT_VA          ; template 1: v = L[L7] * 1.0 + v
sfpstochrnd 0, 0, L0, L0, L14, FP32_TO_FP16B  ; template 2: L16 = rnd(v)
sfploadi L0, USHORT, 0x259c                   ; m0: MAD d4,t1 | Simple VB,d3,t0
sfploadi L0, UPPER, 0x7b76                    ; m0: Store VD16,d7 | Round VD16,d6,t2
sfpconfig 0, 4, 0
sfpconfig 0x100, 8, 1                         ; Misc: StoreMod0 DEFAULT
sfploadi L0, USHORT, 0
sfploadi L1, FLOATB, 0xcf00
; @body
sfploadmacro 2, INT32, ADDR_MOD_6, 0
sfpabs 0, L2, L4, 0
sfpshft2 4, L12, L7, SHFT_LREG
sfpcast L4, L4, 0
sfploadmacro 3, INT32, ADDR_MOD_6, 0
sfpabs 0, L3, L4, 0
sfpshft2 4, L12, L7, SHFT_LREG
sfpcast L4, L4, 0
; @drain
sfpnop
sfpnop
sfpnop
sfpnop
sfpnop
