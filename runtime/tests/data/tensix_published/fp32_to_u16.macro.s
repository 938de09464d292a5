; fp32 -> u16, round half away + clamp, 2 cycles/row (tensix.md 8.4). v alternates L0/L1.
; @init
sfpswap 0, L9, L12, MAX_MIN                     ; template 0: v = max(v, +0) (tt-llk: Mod1 0xF)
sfpstochrnd 0, 0, L0, L0, L13, FP32_TO_UINT16   ; template 1
sfploadi L0, USHORT, 0x0084                     ; m0: MAD 0 | Simple VB,d0,t0
sfploadi L0, UPPER, 0x5b55                      ; m0: Store VD16,d3 | Round VD16,d2,t1
sfpconfig 0, 4, 0
sfpconfig 0x106, 8, 1                           ; Misc: StoreMod0 LO16(UINT16), Simple by instructions
; @body
sfploadmacro 0, DEFAULT, ADDR_MOD_6, 0
sfpnop
sfploadmacro 1, DEFAULT, ADDR_MOD_6, 0
sfpnop
; @drain
sfpnop
sfpnop
sfpnop
