; fp32 -> u32 truncation, 11 cycles/row (tensix.md 8.3, SEED-T listing; no macro form)
; @body
sfpload L0, 0, ADDR_MOD_7, 0 ; load fp32/bf16
sfploadi L1, 0, 0 ; result = 0
sfpsetcc 0, L0, 0, LREG_GTE0 ; LaneEnabled = in >= 0
sfpexexp 0, L0, L2, CC_SGN|CC_COMP ; exp = in.Exp (LaneEnabled = exp >= 0)
sfploadi L1, SHORT, -1 ; result = 0xffffffff
sfpiadd -32, L2, L2, IMM|CC_LT0 ; exp -= 32 (LaneEnabled = exp < 32)
sfpiadd 9, L2, L2, IMM|CC_NONE ; exp += 9
sfpexman 0, L0, L1, 0 ; result = in.Man, including implicit bit
sfpshft 0, L2, L1, 0 ; result <<= exp
sfpencc 0, 0, 0, 0 ; LaneEnabled = true
sfpstore L1, INT32, ADDR_MOD_6, 0 ; store i32 (autoincrement addr)
