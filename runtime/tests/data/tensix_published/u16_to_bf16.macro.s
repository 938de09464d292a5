; u16 -> bf16 (ties away), 1 cycle/row (tensix.md 8.6). v alternates L0/L1. Store DEFAULT: 16-bit Dst.
; @init
sfpcast L0, L12, 0                               ; template 0
sfpstochrnd 0, 0, L0, L0, L13, FP32_TO_FP16B     ; template 1
sfploadi L0, USHORT, 0x0004                      ; m0: MAD 0 | Simple d0,t0
sfploadi L0, UPPER, 0x534d                       ; m0: Store VD16,d2 | Round VD16,d1,t1
sfpconfig 0, 4, 0
sfpconfig 0x100, 8, 1                            ; Misc: StoreMod0 DEFAULT
; @body
sfploadmacro 0, LO16, ADDR_MOD_6, 0
sfploadmacro 1, LO16, ADDR_MOD_6, 0
; @drain
sfpnop
sfpnop
sfpnop
