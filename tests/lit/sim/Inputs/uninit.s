; Stores L5, which nothing wrote: a simulation error at line 4 (pc 1).
sfpload L0, INT32, ADDR_MOD_7, 0

sfpstore L5, INT32, ADDR_MOD_6, 0
