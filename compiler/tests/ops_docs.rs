//! `docs/ops.md`, the op index, must equal what the op catalog renders.
//! Bless (rewrite the file): `PTOC_BLESS=1 cargo test -p ptoc --test ops_docs`.

use std::path::PathBuf;

use ptoc::front::catalog::ops_markdown;

#[test]
fn generated_op_index_is_up_to_date() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("docs")
        .join("ops.md");
    let text = ops_markdown();
    if std::env::var_os("PTOC_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &text).expect("write docs/ops.md");
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == text,
        "docs/ops.md differs from the op catalog; regenerate with: \
         PTOC_BLESS=1 cargo test -p ptoc --test ops_docs"
    );
}
