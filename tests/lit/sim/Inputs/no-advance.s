sfpload L0, INT32, ADDR_MOD_7, 0
sfpstore L0, INT32, ADDR_MOD_7, 0
