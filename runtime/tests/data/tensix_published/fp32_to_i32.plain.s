; fp32 -> i32 truncation, 13 cycles/row (tensix.md 8.2, SEED-T listing; no macro form)
; @body
sfpload L0, 0, ADDR_MOD_7, 0 ; load fp32/bf16
sfploadi L1, 0, 0 ; result = 0
sfpexexp 0, L0, L2, CC_SGN|CC_COMP ; exp = in.Exp (LaneEnabled = exp >= 0)
sfploadi L1, FLOATB, 0x8000 ; result = INT_MIN (identical to fp32 -0.0)
sfpiadd -31, L2, L2, IMM|CC_LT0 ; exp -= 31 (LaneEnabled = exp < 31)
sfpiadd 8, L2, L2, IMM|CC_NONE ; exp += 8
sfpexman 0, L0, L1, 0 ; result = in.Man, including implicit bit
sfpshft 0, L2, L1, 0 ; result <<= exp
sfpencc 0, 0, 0, 0 ; LaneEnabled = true
sfpsetcc 0, L0, 0, LREG_LT0 ; LaneEnabled = in < 0
sfpiadd 0, L9, L1, NEG|CC_NONE ; result = 0 - result (two's complement; L9 is constant 0)
sfpencc 0, 0, 0, 0 ; LaneEnabled = true
sfpstore L1, INT32, ADDR_MOD_6, 0 ; store i32 (autoincrement addr)
