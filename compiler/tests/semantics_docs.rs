//! `docs/semantics.md` must equal what the rule tables and the numeric core render.
//! Bless (rewrite the file): `PTOC_BLESS=1 cargo test -p ptoc --test semantics_docs`.

use std::path::PathBuf;

use ptoc::target::semantics_docs::render_semantics_markdown;

fn doc_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("docs")
        .join("semantics.md")
}

#[test]
fn generated_semantics_doc_is_up_to_date() {
    let path = doc_path();
    let text = render_semantics_markdown();
    if std::env::var_os("PTOC_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &text).expect("write docs/semantics.md");
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == text,
        "docs/semantics.md differs from the rule tables / numeric core; regenerate with: \
         PTOC_BLESS=1 cargo test -p ptoc --test semantics_docs"
    );
}

#[test]
fn the_examples_are_the_spec_values() {
    // Worked examples of semantics.md §4.2 and §4.3, as the generated document prints them.
    let text = render_semantics_markdown();
    for needle in [
        // §4.2.2-4.2.4, f32->i16 x = 3e9: cpu 0, NATIVE 24064, TORCH -1.
        "| 3000000000 | 0x0000 (0) | 0x5E00 (24064) | 0xFFFF (-1) |",
        // x = 40000: -25536 on every path; f32->ui8 X86 64.
        "| 40000 | 0x9C40 (-25536) | 0x9C40 (-25536) | 0x9C40 (-25536) | 0x40 (64) |",
        // +Inf: 0 / -1 / -1; f32->i32 X86 INT_MIN.
        "| +Inf | 0x0000 (0) | 0xFFFF (-1) | 0xFFFF (-1) |",
        // f16->i8 200 TORCH -56.
        "| 200 | 0xC8 (-56) | 0xC8 (-56) | 0xC8 (-56) |",
        // §4.3 table rows.
        "`ptoc cast --from f32 --to f16 --rmode RINT --sat off` | 65520 | 0x7C00 (+Inf) |",
        "`ptoc cast --from f32 --to f8E4M3FN --rmode RINT --sat off` | 465 | 0x7F (NaN) |",
        "`ptoc cast --from f32 --to f8E5M2 --rmode RINT --sat off` | 61440 | 0x7C (+Inf) |",
        "`ptoc cast --from f32 --to hif8 --rmode ROUND --sat on` | 40960 | 0x6E (32768) |",
    ] {
        assert!(text.contains(needle), "missing: {needle}");
    }
    assert!(
        !text.contains("error:"),
        "a conversion failed while rendering"
    );
}
