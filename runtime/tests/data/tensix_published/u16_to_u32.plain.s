; plain equivalent of u16_to_u32.macro.s
; @body
sfpload L0, LO16, ADDR_MOD_7, 0
sfpstore L0, INT32, ADDR_MOD_6, 0
