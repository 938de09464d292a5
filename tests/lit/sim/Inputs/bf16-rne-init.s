; init for fp32-to-bf16-rne.s: L12 = 1, L13 = 0x7FFF (tt-llk programs them with SFPCONFIG).
sfploadi L0, USHORT, 1
sfpconfig 0, 12, 0
sfploadi L0, USHORT, 0x7FFF
sfpconfig 0, 13, 0
