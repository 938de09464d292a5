; plain equivalent of u32_to_fp32.macro.s (L16 renamed to L4)
; @init
sfploadi L0, SHORT, -31
sfpconfig 0, 12, 0
sfploadi L0, USHORT, 0
sfploadi L1, FLOATB, 0x4f00
; @body
sfpload L2, INT32, ADDR_MOD_7, 0
sfpload L3, INT32, ADDR_MOD_7, 0
sfpload L7, INT32, ADDR_MOD_7, 0
sfpsetsgn 0, L2, L2, ARG_IMM
sfpcast L2, L3, 0
sfpshft2 7, L12, L7, SHFT_LREG
sfpmad L0, L10, L3, L4, INDIRECT_VA
sfpnop
sfpstore L4, FP32, ADDR_MOD_6, 0
