; u16 -> fp32 (the published macro listing) with a drain too short: one SFPNOP leaves the last
; row's scheduled store pending.
; @init
sfpcast L0, L12, 0                   ; template 0
sfploadi L0, USHORT, 0x0044          ; m0: MAD 0 | Simple VD16,d0,t0
sfploadi L0, UPPER, 0x4b00           ; m0: Store VD16,d1 | Round 0
sfpconfig 0, 4, 0
sfpconfig 0x103, 8, 1                ; Misc: StoreMod0 FP32
; @body
sfploadmacro 0, LO16, ADDR_MOD_6, 0
; @drain
sfpnop
