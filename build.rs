//! Migrations are embedded with `sqlx::migrate!` and static/ with
//! `rust-embed`; rebuild when either changes, a file added included.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
    println!("cargo:rerun-if-changed=static");
}
