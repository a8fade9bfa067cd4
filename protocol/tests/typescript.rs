use std::path::PathBuf;

use protocol::typescript::{typescript_bindings, TYPES_PATH};

#[test]
fn generated_typescript_types_are_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(TYPES_PATH);
    let fresh = typescript_bindings();
    if std::env::var_os("UPDATE_TS_TYPES").is_some() {
        std::fs::write(&path, &fresh).expect("write generated types");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale: run `UPDATE_TS_TYPES=1 cargo test -p sitecast-protocol` and commit it",
        path.display()
    );
}
