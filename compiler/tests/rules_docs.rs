//! The generated rule documents under `docs/rules/` must equal what the tables render.
//! Bless (rewrite the files): `PTOC_BLESS=1 cargo test -p ptoc --test rules_docs`.

use std::path::PathBuf;

use ptoc::target::docs::rendered_documents;

fn docs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("docs")
        .join("rules")
}

#[test]
fn generated_rule_docs_are_up_to_date() {
    let dir = docs_dir();
    let bless = std::env::var_os("PTOC_BLESS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for (name, text) in rendered_documents() {
        let path = dir.join(name);
        if bless {
            std::fs::create_dir_all(&dir).expect("create docs/rules");
            std::fs::write(&path, &text).expect("write generated doc");
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(on_disk) if on_disk == text => {}
            _ => stale.push(name),
        }
    }
    assert!(
        stale.is_empty(),
        "docs/rules/{{{}}} differ from the rule tables; regenerate with: \
         PTOC_BLESS=1 cargo test -p ptoc --test rules_docs",
        stale.join(",")
    );
}
