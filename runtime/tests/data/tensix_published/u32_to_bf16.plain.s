; plain equivalent of u32_to_bf16.macro.s (L16 renamed to L4)
; @init
sfploadi L0, SHORT, -31
sfpconfig 0, 12, 0
sfploadi L0, USHORT, 0
sfploadi L1, FLOATB, 0x4f00
; @body
sfpload L2, INT32, ADDR_MOD_7, 0
sfpshft2 2, L12, L7, SHFT_LREG
sfpsetsgn 0, L2, L2, ARG_IMM
sfpcast L2, L2, 0
sfpmad L0, L10, L2, L2, INDIRECT_VA
sfpnop
sfpstochrnd 0, 0, L0, L2, L4, FP32_TO_FP16B
sfpstore L4, DEFAULT, ADDR_MOD_6, 0
