//! The one test harness, in the manner of crates.io's `TestApp`: an app on
//! either database with a typed client for each role, and a builder for the
//! league records a test starts from. Web, database and browser tests use
//! it; `support` runs each body on both databases.

// A harness offers more than any one test uses.
#![allow(dead_code)]

pub mod builder;
pub mod client;
pub mod forms;
pub mod pages;
pub mod results;

use boneyard::db::{Db, NewRole, UserId};

pub use builder::{Built, LeagueBuilder, PASSWORD};
use client::Client;

/// The app over a database, with a league built in it.
pub struct TestApp {
    pub db: Db,
    pub league: Built,
}

impl TestApp {
    /// Builds `builder`'s league in `db`.
    pub async fn new(db: &Db, builder: LeagueBuilder) -> TestApp {
        let league = builder.build(db).await;
        TestApp {
            db: db.clone(),
            league,
        }
    }

    async fn signed_in(&self, username: &str) -> Client {
        let mut c = Client::new(&self.db).await;
        c.sign_in(username, PASSWORD).await;
        c
    }

    /// Someone not signed in.
    pub async fn anonymous(&self) -> Client {
        Client::new(&self.db).await
    }

    /// The league's secretary, signed in.
    pub async fn with_secretary(&self) -> Client {
        self.signed_in(&self.league.secretary).await
    }

    /// The captain of team `team` (0: the first fixture's home team),
    /// signed in.
    pub async fn with_captain(&self, team: usize) -> Client {
        self.signed_in(&self.league.teams[team].captain).await
    }

    /// The installation's administrator, `admin` (made on the first call),
    /// signed in.
    pub async fn with_admin(&self) -> Client {
        if self.db.user_by_username("admin").await.is_err() {
            let user = client::account(&self.db, "admin", PASSWORD).await;
            self.db
                .grant_role(&NewRole::administrator(user), None)
                .await
                .unwrap();
        }
        self.signed_in("admin").await
    }

    /// A new account `username`, with no role, signed in.
    pub async fn with_account(&self, username: &str) -> (Client, UserId) {
        forms::signed_in(&self.db, &self.anonymous().await, username).await
    }

    /// A new account `username` made secretary of `league` (this app's,
    /// or another built in its database), signed in.
    pub async fn with_secretary_of(&self, league: &Built, username: &str) -> Client {
        forms::secretary(&self.db, &self.anonymous().await, league.id, username).await
    }
}
