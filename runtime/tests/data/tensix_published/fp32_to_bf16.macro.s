; fp32 -> bf16 RNE, 3 cycles/row (tensix.md 8.1). 2 rows per body (a alternates L0/L1).
; @init
sfploadi L0, USHORT, 1
sfpconfig 0, 12, 0                   ; L12 = 1
sfploadi L0, USHORT, 0x7fff
sfpconfig 0, 13, 0                   ; L13 = 0x7fff
sfpshft2 -16, L0, L12, SHFT_IMM      ; template 0: >>= 16
sfpiadd 0, L13, L13, CC_NONE         ; template 1: += 0x7fff
sfpiadd 0, L2, L14, CC_NONE          ; template 2: + b
sfploadi L0, USHORT, 0x00de          ; m0: MAD 0 | Simple VB,VD16,d3,t2
sfploadi L0, UPPER, 0x1b84           ; m0: Store d3 | Round VB,d0,t0
sfpconfig 0, 4, 0
sfploadi L0, USHORT, 0x008d          ; m1: MAD 0 | Simple VB,d1,t1
sfploadi L0, UPPER, 0x5b00           ; m1: Store VD16,d3 | Round 0
sfpconfig 0, 5, 0
sfpconfig 0x312, 8, 1                ; Misc: StoreMod0 FP16B, m0 uses load Mod0, Simple+MAD by instructions
; @body
sfploadmacro 0, DEFAULT, ADDR_MOD_7, 0   ; m0 [a = L0]
sfploadmacro 6, DEFAULT, ADDR_MOD_6, 0   ; m1 [b = L2]
sfpand 0, L12, L0, 0                     ; a &= 1
sfploadmacro 1, DEFAULT, ADDR_MOD_7, 0   ; m0 [a = L1]
sfploadmacro 6, DEFAULT, ADDR_MOD_6, 0   ; m1 [b = L2]
sfpand 0, L12, L1, 0
; @drain
sfpnop
sfpnop
sfpnop
