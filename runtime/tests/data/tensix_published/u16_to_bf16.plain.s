; plain equivalent of u16_to_bf16.macro.s
; @body
sfpload L0, LO16, ADDR_MOD_7, 0
sfpcast L0, L0, 0
sfpstochrnd 0, 0, L0, L0, L2, FP32_TO_FP16B
sfpstore L2, DEFAULT, ADDR_MOD_6, 0
