; u32 -> bf16 (cast, add, ties-away round), 3 cycles/row (tensix.md 8.9). v alternates L2/L3.
; @init
sfploadi L0, SHORT, -31
sfpconfig 0, 12, 0                            ; L12 = -31 (read by the regular SFPSHFT2)
sfpcast L0, L12, 0                            ; template 0: v = cast(v)
sfpmad L0, L10, L0, L13, INDIRECT_VA          ; template 1: v = L[L7] * 1.0 + v
sfpstochrnd 0, 0, L0, L0, L14, FP32_TO_FP16B  ; template 2: L16 = rnd(v)
sfploadi L0, USHORT, 0x1d14                   ; m0: MAD d3,t1 | Simple d2,t0
sfploadi L0, UPPER, 0x736e                    ; m0: Store VD16,d6 | Round VD16,d5,t2
sfpconfig 0, 4, 0
sfpconfig 0x100, 8, 1                         ; Misc: StoreMod0 DEFAULT
sfploadi L0, USHORT, 0
sfploadi L1, FLOATB, 0x4f00
; @body
sfploadmacro 2, INT32, ADDR_MOD_6, 0
sfpshft2 2, L12, L7, SHFT_LREG
sfpsetsgn 0, L2, L2, ARG_IMM
sfploadmacro 3, INT32, ADDR_MOD_6, 0
sfpshft2 3, L12, L7, SHFT_LREG
sfpsetsgn 0, L3, L3, ARG_IMM
; @drain
sfpnop
sfpnop
sfpnop
sfpnop
sfpnop
