; A template write (backdoor, VD >= 12) in the loop body: rejected, templates belong in init.
; @init
sfpcast L0, L12, 0                   ; template 0
sfploadi L0, USHORT, 0x0044          ; m0: MAD 0 | Simple VD16,d0,t0
sfploadi L0, UPPER, 0x4b00           ; m0: Store VD16,d1 | Round 0
sfpconfig 0, 4, 0
sfpconfig 0x103, 8, 1                ; Misc: StoreMod0 FP32
; @body
sfpiadd 0, L0, L13, CC_NONE          ; VD 13: a template write in the loop body
sfploadmacro 0, LO16, ADDR_MOD_6, 0
