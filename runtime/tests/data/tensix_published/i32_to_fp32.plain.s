; plain equivalent of i32_to_fp32.macro.s (L16 renamed to L5)
; @init
sfploadi L0, SHORT, -31
sfpconfig 0, 12, 0
sfploadi L0, USHORT, 0
sfploadi L1, FLOATB, 0xcf00
; @body
sfpload L2, INT32, ADDR_MOD_7, 0
sfpabs 0, L2, L4, 0
sfpshft2 4, L12, L7, SHFT_LREG
sfpcast L4, L4, 0
sfpsetsgn 0, L4, L2, 0
sfpmad L0, L10, L2, L5, INDIRECT_VA
sfpnop
sfpstore L5, FP32, ADDR_MOD_6, 0
