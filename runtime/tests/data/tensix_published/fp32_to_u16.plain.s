; plain equivalent of fp32_to_u16.macro.s (L16 renamed to L1)
; @body
sfpload L0, DEFAULT, ADDR_MOD_7, 0
sfpswap 0, L9, L0, MAX_MIN
sfpnop
sfpstochrnd 0, 0, L0, L0, L1, FP32_TO_UINT16
sfpstore L1, LO16, ADDR_MOD_6, 0
