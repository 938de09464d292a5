//! Unit tests of the macro configuration words against published hex.

use super::*;

#[test]
fn words_match_the_published_hex() {
    // u16 -> fp32 (tensix.md §8.5): Simple = template 0, VD16, d0; Store VD16 d1.
    let seq = SequenceWord {
        simple: Slot {
            src: SlotSrc::Template(0),
            delay: 0,
            vd16: true,
            use_vb: false,
        },
        mad: Slot::EMPTY,
        round: Slot::EMPTY,
        store: Slot {
            src: SlotSrc::Store,
            delay: 1,
            vd16: true,
            use_vb: false,
        },
    };
    assert_eq!(seq.word(), 0x4B00_0044);
    let misc = MiscWord {
        store_mod0: Mod0::Fp32,
        uses_load_mod0: 0,
        delay_in_instructions: 1,
    };
    assert_eq!(misc.word(), 0x103);
}
