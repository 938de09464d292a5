; plain equivalent of u16_to_fp32.macro.s
; @body
sfpload L0, LO16, ADDR_MOD_7, 0
sfpcast L0, L1, 0
sfpstore L1, FP32, ADDR_MOD_6, 0
