//! The administrator's pages: creating leagues and naming their
//! secretaries. Who else is refused is walked in
//! `console::every_route_checks_the_role`.

use axum::http::StatusCode;
use boneyard::db::*;

use crate::harness::client::admin;
use crate::harness::forms::{PASSWORD, error_beside, signed_in, value_of};
use crate::support::on_both;

on_both!(leagues_are_created, secretaries_are_named_and_removed,);

async fn leagues_are_created(db: Db) {
    let mut admin = admin(&db).await;
    let page = admin.get("/admin").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.has("<label for=\"short_name\">Short name</label>"));
    // Bad: each reason beside its field, what was typed kept.
    let page = admin
        .submit(
            "/admin",
            "/admin",
            &[
                ("name", ""),
                ("short_name", "Black Country!"),
                ("rules_summary", "Fives & threes"),
                ("contact", "ann@example.org"),
            ],
        )
        .await;
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.body
    );
    assert_eq!(error_beside(&page, "name"), "Fill this in.");
    assert!(error_beside(&page, "short_name").contains("lowercase letters, digits and dashes"));
    assert_eq!(value_of(&page, "short_name"), "Black Country!");
    assert_eq!(value_of(&page, "rules_summary"), "Fives & threes");
    assert_eq!(value_of(&page, "contact"), "ann@example.org");
    let page = admin
        .submit(
            "/admin",
            "/admin",
            &[("name", "Dashes"), ("short_name", "-black-")],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_beside(&page, "short_name").contains("Start and end"));
    assert!(db.leagues().await.unwrap().is_empty());
    // Good.
    let page = admin
        .submit(
            "/admin",
            "/admin",
            &[
                ("name", "Black Country League"),
                ("short_name", "black-country"),
                ("rules_summary", "To 61"),
                ("contact", "ann@example.org"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    assert_eq!(
        page.location.as_deref(),
        Some("/admin/leagues/black-country/secretaries")
    );
    let league = db.league_by_short_name("black-country").await.unwrap();
    assert_eq!(
        (
            league.name.as_str(),
            league.rules_summary.as_str(),
            league.contact.as_str()
        ),
        ("Black Country League", "To 61", "ann@example.org")
    );
    // It starts with LEAGUE.md's penalty kinds, and the next page says so.
    assert!(
        admin
            .get("/admin/leagues/black-country/secretaries")
            .await
            .has("with the 10 penalty kinds of the standard list")
    );
    let kinds = db.penalty_kinds(league.id).await.unwrap();
    assert_eq!(kinds.len(), 10);
    assert!(kinds.iter().any(|k| k.code == "late" && k.amount == 1));
    assert!(admin.get("/admin").await.has("Black Country League"));
    // Duplicate short name.
    let page = admin
        .submit(
            "/admin",
            "/admin",
            &[("name", "Another"), ("short_name", "black-country")],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_beside(&page, "short_name").contains("already exists"));
    assert_eq!(value_of(&page, "name"), "Another");
    assert_eq!(db.leagues().await.unwrap().len(), 1);
}

async fn secretaries_are_named_and_removed(db: Db) {
    let mut admin = admin(&db).await;
    let league = db
        .create_league(&NewLeague {
            name: "Sandwell".into(),
            short_name: "sandwell".into(),
            ..Default::default()
        })
        .await
        .unwrap();
    let (_, ann) = signed_in(&db, &admin, "ann").await;
    let form = "/admin/leagues/sandwell/secretaries";
    let page = admin.get(form).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.has("None yet."));
    assert_eq!(
        admin.get("/admin/leagues/nowhere/secretaries").await.status,
        StatusCode::NOT_FOUND
    );
    // A bad new username.
    let page = admin.submit(form, form, &[("username", "b o b")]).await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_beside(&page, "username").contains("Use letters"));
    assert_eq!(value_of(&page, "username"), "b o b");
    assert!(db.league_roles(league.id).await.unwrap().is_empty());
    // An existing account is named at once.
    let page = admin.submit(form, form, &[("username", "ANN")]).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    assert_eq!(page.location.as_deref(), Some(form));
    let page = admin.get(form).await;
    assert!(
        page.has("ann is now a secretary of Sandwell."),
        "{}",
        page.body
    );
    // A username nobody has gets a one-time link, shown once; the
    // administrator never chooses the password.
    let page = admin.submit(form, form, &[("username", "bob")]).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    assert!(db.user_by_username("bob").await.is_err(), "no account yet");
    let page = admin.get(form).await;
    let link = invitation_path(&page.body);
    assert!(
        !admin.get(form).await.has("/invitations/"),
        "the link is shown once"
    );
    let mut b = admin.stranger();
    let invite = b.get(&link).await;
    assert_eq!(invite.status, StatusCode::OK);
    assert!(invite.has("secretary of Sandwell"), "{}", invite.body);
    assert_eq!(value_of(&invite, "username"), "bob");
    let short = b
        .submit(
            &link,
            &link,
            &[
                ("username", "bob"),
                ("password", "short"),
                ("confirm", "short"),
            ],
        )
        .await;
    assert_eq!(short.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_beside(&short, "password").contains("at least 10"));
    let page = b
        .submit(
            &link,
            &link,
            &[
                ("username", "bob"),
                ("password", PASSWORD),
                ("confirm", PASSWORD),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    assert_eq!(page.location.as_deref(), Some("/leagues/sandwell/console"));
    // Signed in at once, with the role, and told so.
    let console = b.get("/leagues/sandwell/console").await;
    assert_eq!(console.status, StatusCode::OK);
    assert!(console.has("Welcome, bob"), "{}", console.body);
    assert!(console.has(">Console</a>"), "the header links the console");
    // The link works once.
    let again = b.stranger().get(&link).await;
    assert_eq!(again.status, StatusCode::GONE);
    let bob = db.user_by_username("bob").await.unwrap();
    let roles = db.league_roles(league.id).await.unwrap();
    assert_eq!(roles.len(), 2);
    assert!(roles.iter().all(|r| r.kind == RoleKind::Secretary));
    assert!(roles.iter().any(|r| r.user_id == ann) && roles.iter().any(|r| r.user_id == bob.id));
    // Bob signs in with the password he chose.
    let mut b = admin.stranger();
    let page = b
        .submit(
            "/sign-in",
            "/sign-in",
            &[("username", "bob"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
    assert_eq!(
        b.get("/leagues/sandwell/console").await.status,
        StatusCode::OK
    );
    // Duplicate.
    let page = admin.submit(form, form, &[("username", "ann")]).await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_beside(&page, "username").contains("already exists"));
    let page = admin.get(form).await;
    assert!(page.has("Remove ann") && page.has("Remove bob"));
    // Removed, audited; a role of another league is not found here.
    let ann_role = roles.iter().find(|r| r.user_id == ann).unwrap();
    let remove = format!("{form}/{}/remove", ann_role.id);
    let page = admin.submit(form, &remove, &[]).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
    let roles = db.league_roles(league.id).await.unwrap();
    assert_eq!(
        roles.iter().map(|r| r.user_id).collect::<Vec<_>>(),
        vec![bob.id]
    );
    assert!(
        db.audit_log(league.id, 10)
            .await
            .unwrap()
            .iter()
            .any(|e| e.entity == "role" && e.action == "revoke")
    );
    let other = db
        .create_league(&NewLeague {
            name: "Other".into(),
            short_name: "other".into(),
            ..Default::default()
        })
        .await
        .unwrap();
    let page = admin
        .submit(
            form,
            &format!("/admin/leagues/other/secretaries/{}/remove", roles[0].id),
            &[],
        )
        .await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert_eq!(db.league_roles(league.id).await.unwrap().len(), 1);
    assert!(db.league_roles(other.id).await.unwrap().is_empty());
}

/// The path of the invitation link a page shows.
pub fn invitation_path(body: &str) -> String {
    let at = body.find("/invitations/").expect("an invitation link");
    body[at..at + "/invitations/".len() + 64].to_owned()
}
