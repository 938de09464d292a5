sfpload L0, INT32, ADDR_MOD_7, 0
sfpfrobnicate L0
