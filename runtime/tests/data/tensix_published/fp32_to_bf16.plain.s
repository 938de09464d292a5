; plain equivalent of fp32_to_bf16.macro.s (L16 renamed: a + b computed into L2)
; @init
sfploadi L0, USHORT, 1
sfpconfig 0, 12, 0
sfploadi L0, USHORT, 0x7fff
sfpconfig 0, 13, 0
; @body
sfpload L0, DEFAULT, ADDR_MOD_7, 0
sfpload L2, DEFAULT, ADDR_MOD_7, 0
sfpshft -16, L0, L0, IMM
sfpand 0, L12, L0, 0
sfpiadd 0, L13, L2, CC_NONE
sfpiadd 0, L0, L2, CC_NONE
sfpstore L0, DEFAULT, ADDR_MOD_7, 0      ; 32-bit store of the 0/1 LSB (m0 store, load Mod0)
sfpstore L2, FP16B, ADDR_MOD_6, 0        ; bf16 store (m1 store)
