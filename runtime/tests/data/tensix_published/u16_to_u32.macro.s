; u16 -> u32, 1 cycle/row (tensix.md 8.11): load UINT16 (zero-extend), macro Store d0 as INT32.
; @init
sfploadi L0, USHORT, 0
sfploadi L0, UPPER, 0x0300           ; m0: Store d0 (VD = macro VD) | Round 0
sfpconfig 0, 4, 0
sfpconfig 0x104, 8, 1                ; Misc: StoreMod0 INT32
; @body
sfploadmacro 0, LO16, ADDR_MOD_6, 0
; @drain
sfpnop
