; i32 -> u16 saturating, 3 cycles/row (tensix.md 8.13). a alternates L0/L1.
; @init
sfpswap 0, L9, L12, MAX_MIN                     ; template 0: a = max(a, +0) (tt-llk: Mod1 0xF)
sfpstochrnd 0, 0, L0, L0, L13, FP32_TO_UINT16   ; template 1: L16 = rnd(a)
sfploadi L0, USHORT, 0x008c                     ; m0: MAD 0 | Simple VB,d1,t0
sfploadi L0, UPPER, 0x635d                      ; m0: Store VD16,d4 | Round VD16,d3,t1
sfpconfig 0, 4, 0
sfpconfig 0x106, 8, 1                           ; Misc: StoreMod0 LO16 (UINT16)
; @body
sfploadmacro 0, INT32, ADDR_MOD_6, 0
sfpcast L0, L0, 0
sfpnop
sfploadmacro 1, INT32, ADDR_MOD_6, 0
sfpcast L1, L1, 0
sfpnop
; @drain
sfpnop
sfpnop
sfpnop
