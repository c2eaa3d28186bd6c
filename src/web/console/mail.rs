//! The league's messages by email: who was told or reminded of what, and
//! when; whether each was sent, waits, failed, or was kept (no mail server
//! configured).

use askama::Template;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;

use crate::db::League;
use crate::db::mail::Mail;
use crate::web::AppState;
use crate::web::auth::Secretary;
use crate::web::error::Result;
use crate::web::page::{Ctx, html};
use crate::web::routes::Routes;
use crate::web::views::mail_log::{MailRow, mail_rows};

use super::PREFIX;

/// Messages a page lists.
const SHOWN: i64 = 200;

pub fn router() -> Routes {
    Routes::new().league(&format!("{PREFIX}/mail"), get(mail))
}

#[derive(Template)]
#[template(path = "console/mail.html")]
struct MailPage {
    ctx: Ctx,
    league: League,
    rows: Vec<MailRow>,
}

async fn mail(secretary: Secretary, State(state): State<AppState>) -> Result<Response> {
    let mail: Vec<Mail> = state
        .db()
        .recent_mail(Some(secretary.league.id), SHOWN)
        .await?;
    Ok(html(&MailPage {
        ctx: secretary.user.ctx(),
        rows: mail_rows(&mail, secretary.league.time_zone),
        league: secretary.league,
    }))
}
