//! One statement, written once, run on whichever database is there: the
//! values bound to a statement are kept as [`Arg`]s until it runs, and are
//! then handed to SQLite or Postgres with their own types (so dates and
//! times keep theirs, unlike `sqlx::Any`). Rows are read with the same
//! `#[derive(FromRow)]` structs on both.
//!
//! Reads run on [`Db`] (its read pool), writes on a [`Tx`]: one
//! transaction, opened by [`Db::write`] and friends, that the functions of
//! `db/` take by `&mut` and compose, and that raises the page generation
//! of what it wrote as it commits. Dropped without [`Tx::commit`], it rolls
//! back.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::postgres::{PgArguments, PgRow};
use sqlx::sqlite::{SqliteArguments, SqliteRow};
use sqlx::{
    Arguments, FromRow, PgConnection, PgPool, Postgres, Sqlite, SqliteConnection, SqlitePool,
};

use super::{Db, LeagueId, Result, generation};
use crate::domain::ids::Id;

/// A value bound to a statement, with its type even when it is NULL.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Int(Option<i64>),
    Text(Option<String>),
    Bool(Option<bool>),
    Date(Option<NaiveDate>),
    Time(Option<DateTime<Utc>>),
}

/// A value that can be bound to a statement.
pub trait Bind {
    fn arg(self) -> Arg;
    /// NULL of this type.
    fn null() -> Arg
    where
        Self: Sized;
}

impl Bind for i64 {
    fn arg(self) -> Arg {
        Arg::Int(Some(self))
    }
    fn null() -> Arg {
        Arg::Int(None)
    }
}

impl Bind for bool {
    fn arg(self) -> Arg {
        Arg::Bool(Some(self))
    }
    fn null() -> Arg {
        Arg::Bool(None)
    }
}

impl Bind for String {
    fn arg(self) -> Arg {
        Arg::Text(Some(self))
    }
    fn null() -> Arg {
        Arg::Text(None)
    }
}

impl Bind for &str {
    fn arg(self) -> Arg {
        Arg::Text(Some(self.to_owned()))
    }
    fn null() -> Arg {
        Arg::Text(None)
    }
}

impl Bind for &String {
    fn arg(self) -> Arg {
        Arg::Text(Some(self.clone()))
    }
    fn null() -> Arg {
        Arg::Text(None)
    }
}

impl Bind for NaiveDate {
    fn arg(self) -> Arg {
        Arg::Date(Some(self))
    }
    fn null() -> Arg {
        Arg::Date(None)
    }
}

impl Bind for DateTime<Utc> {
    fn arg(self) -> Arg {
        Arg::Time(Some(self))
    }
    fn null() -> Arg {
        Arg::Time(None)
    }
}

impl<T: Id> Bind for T {
    fn arg(self) -> Arg {
        Arg::Int(Some(self.raw()))
    }
    fn null() -> Arg {
        Arg::Int(None)
    }
}

impl<T: Bind> Bind for Option<T> {
    fn arg(self) -> Arg {
        match self {
            Some(v) => v.arg(),
            None => T::null(),
        }
    }
    fn null() -> Arg {
        T::null()
    }
}

impl Bind for &Option<String> {
    fn arg(self) -> Arg {
        Arg::Text(self.clone())
    }
    fn null() -> Arg {
        Arg::Text(None)
    }
}

impl Bind for Arg {
    fn arg(self) -> Arg {
        self
    }
    fn null() -> Arg {
        Arg::Int(None)
    }
}

/// Where a statement runs: a pool (reads) or a transaction's connection.
pub enum On<'a> {
    SqlitePool(&'a SqlitePool),
    PgPool(&'a PgPool),
    Sqlite(&'a mut SqliteConnection),
    Postgres(&'a mut PgConnection),
}

/// What a statement can run on: the database (its read pool) or a
/// transaction.
pub trait Exec<'a> {
    fn on(self) -> On<'a>;
}

impl<'a> Exec<'a> for &'a Db {
    fn on(self) -> On<'a> {
        match self {
            Db::Sqlite(s) => On::SqlitePool(&s.read),
            Db::Postgres(p) => On::PgPool(p),
        }
    }
}

impl<'a> Exec<'a> for &'a mut Tx {
    fn on(self) -> On<'a> {
        match &mut self.inner {
            Inner::Sqlite(t) => On::Sqlite(&mut *t),
            Inner::Postgres(t) => On::Postgres(&mut *t),
        }
    }
}

/// A place several statements run on in turn (`&mut db.on()`, `&mut
/// (&mut tx).on()`), for reads that serve a page and a transaction alike.
impl<'a, 'b: 'a> Exec<'a> for &'a mut On<'b> {
    fn on(self) -> On<'a> {
        match self {
            On::SqlitePool(p) => On::SqlitePool(p),
            On::PgPool(p) => On::PgPool(p),
            On::Sqlite(c) => On::Sqlite(c),
            On::Postgres(c) => On::Postgres(c),
        }
    }
}

fn sqlite_args(args: Vec<Arg>) -> Result<SqliteArguments<'static>> {
    let mut out = SqliteArguments::default();
    for a in args {
        match a {
            Arg::Int(v) => out.add(v),
            Arg::Text(v) => out.add(v),
            Arg::Bool(v) => out.add(v),
            Arg::Date(v) => out.add(v),
            Arg::Time(v) => out.add(v),
        }
        .map_err(sqlx::Error::Encode)?;
    }
    Ok(out)
}

fn pg_args(args: Vec<Arg>) -> Result<PgArguments> {
    let mut out = PgArguments::default();
    for a in args {
        match a {
            Arg::Int(v) => out.add(v),
            Arg::Text(v) => out.add(v),
            Arg::Bool(v) => out.add(v),
            Arg::Date(v) => out.add(v),
            Arg::Time(v) => out.add(v),
        }
        .map_err(sqlx::Error::Encode)?;
    }
    Ok(out)
}

/// Runs `$q` (a sqlx query built from `$sql` and the arguments) on `$on`
/// with `$method`: the one place a statement meets a backend.
macro_rules! run {
    ($on:expr, $args:expr, |$a:ident| $build:expr, $method:ident) => {
        match $on {
            On::SqlitePool(p) => {
                let $a = sqlite_args($args)?;
                $build.$method(p).await
            }
            On::Sqlite(c) => {
                let $a = sqlite_args($args)?;
                $build.$method(c).await
            }
            On::PgPool(p) => {
                let $a = pg_args($args)?;
                $build.$method(p).await
            }
            On::Postgres(c) => {
                let $a = pg_args($args)?;
                $build.$method(c).await
            }
        }
    };
}

/// A row type both backends read (a `#[derive(FromRow)]` struct or a
/// tuple of plain values).
pub trait Row: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin {}
impl<T> Row for T where T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin
{}

/// A statement that returns no rows to read.
#[must_use = "a statement does nothing until it is executed"]
pub struct Query<'q> {
    sql: &'q str,
    args: Vec<Arg>,
}

/// How many rows a statement changed.
pub struct Done(u64);

impl Done {
    pub fn rows_affected(&self) -> u64 {
        self.0
    }
}

/// A statement.
pub fn query(sql: &str) -> Query<'_> {
    Query {
        sql,
        args: Vec::new(),
    }
}

impl<'q> Query<'q> {
    pub fn bind(mut self, value: impl Bind) -> Self {
        self.args.push(value.arg());
        self
    }

    /// Binds each of `values` in turn.
    pub fn bind_all(mut self, values: impl IntoIterator<Item = Arg>) -> Self {
        self.args.extend(values);
        self
    }

    pub async fn execute<'a>(self, on: impl Exec<'a>) -> Result<Done> {
        let sql = self.sql;
        let rows = match on.on() {
            On::SqlitePool(p) => sqlx::query_with::<Sqlite, _>(sql, sqlite_args(self.args)?)
                .execute(p)
                .await?
                .rows_affected(),
            On::Sqlite(c) => sqlx::query_with::<Sqlite, _>(sql, sqlite_args(self.args)?)
                .execute(c)
                .await?
                .rows_affected(),
            On::PgPool(p) => sqlx::query_with::<Postgres, _>(sql, pg_args(self.args)?)
                .execute(p)
                .await?
                .rows_affected(),
            On::Postgres(c) => sqlx::query_with::<Postgres, _>(sql, pg_args(self.args)?)
                .execute(c)
                .await?
                .rows_affected(),
        };
        Ok(Done(rows))
    }
}

/// A statement whose rows are read as `T`s.
#[must_use = "a statement does nothing until it is fetched"]
pub struct QueryAs<'q, T> {
    sql: &'q str,
    args: Vec<Arg>,
    row: std::marker::PhantomData<fn() -> T>,
}

pub fn query_as<T: Row>(sql: &str) -> QueryAs<'_, T> {
    QueryAs {
        sql,
        args: Vec::new(),
        row: std::marker::PhantomData,
    }
}

impl<'q, T: Row> QueryAs<'q, T> {
    pub fn bind(mut self, value: impl Bind) -> Self {
        self.args.push(value.arg());
        self
    }

    /// Binds each of `values` in turn.
    pub fn bind_all(mut self, values: impl IntoIterator<Item = Arg>) -> Self {
        self.args.extend(values);
        self
    }

    pub async fn fetch_all<'a>(self, on: impl Exec<'a>) -> Result<Vec<T>> {
        let sql = self.sql;
        Ok(run!(
            on.on(),
            self.args,
            |a| sqlx::query_as_with::<_, T, _>(sql, a),
            fetch_all
        )?)
    }

    pub async fn fetch_one<'a>(self, on: impl Exec<'a>) -> Result<T> {
        let sql = self.sql;
        Ok(run!(
            on.on(),
            self.args,
            |a| sqlx::query_as_with::<_, T, _>(sql, a),
            fetch_one
        )?)
    }

    pub async fn fetch_optional<'a>(self, on: impl Exec<'a>) -> Result<Option<T>> {
        let sql = self.sql;
        Ok(run!(
            on.on(),
            self.args,
            |a| sqlx::query_as_with::<_, T, _>(sql, a),
            fetch_optional
        )?)
    }
}

/// A statement whose rows are one value each.
#[must_use = "a statement does nothing until it is fetched"]
pub struct QueryScalar<'q, T> {
    sql: &'q str,
    args: Vec<Arg>,
    value: std::marker::PhantomData<fn() -> T>,
}

pub fn query_scalar<T>(sql: &str) -> QueryScalar<'_, T>
where
    (T,): Row,
{
    QueryScalar {
        sql,
        args: Vec::new(),
        value: std::marker::PhantomData,
    }
}

impl<'q, T> QueryScalar<'q, T>
where
    (T,): Row,
{
    pub fn bind(mut self, value: impl Bind) -> Self {
        self.args.push(value.arg());
        self
    }

    fn rows(self) -> QueryAs<'q, (T,)> {
        QueryAs {
            sql: self.sql,
            args: self.args,
            row: std::marker::PhantomData,
        }
    }

    pub async fn fetch_all<'a>(self, on: impl Exec<'a>) -> Result<Vec<T>> {
        Ok(self
            .rows()
            .fetch_all(on)
            .await?
            .into_iter()
            .map(|r| r.0)
            .collect())
    }

    pub async fn fetch_one<'a>(self, on: impl Exec<'a>) -> Result<T> {
        Ok(self.rows().fetch_one(on).await?.0)
    }

    pub async fn fetch_optional<'a>(self, on: impl Exec<'a>) -> Result<Option<T>> {
        Ok(self.rows().fetch_optional(on).await?.map(|r| r.0))
    }
}

/// `($1, $2, $3), ($4, $5, $6)`: the placeholders of `rows` rows of
/// `columns` values each, numbered from `$first`, for an insert of many
/// rows at once.
pub fn value_rows(rows: usize, columns: usize, first: usize) -> String {
    (0..rows)
        .map(|r| {
            let cells: Vec<String> = (0..columns)
                .map(|c| format!("${}", first + r * columns + c))
                .collect();
            format!("({})", cells.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One transaction. A write transaction raises the page generation of the
/// scope it wrote (see [`generation`]) last thing before it commits, so
/// the kept pages of every app server are stale from the moment the write
/// is visible.
pub struct Tx {
    inner: Inner,
    raise: Option<i64>,
}

enum Inner {
    Sqlite(sqlx::Transaction<'static, Sqlite>),
    Postgres(sqlx::Transaction<'static, Postgres>),
}

impl Db {
    /// A write transaction of `league`'s records: that league's pages
    /// (and those of the leagues people link to it) go stale as it
    /// commits.
    pub async fn write(&self, league: LeagueId) -> Result<Tx> {
        self.begin_write(Some(generation::scope(league))).await
    }

    /// A write transaction that any page may show (a league's name, an
    /// account): every page goes stale as it commits.
    pub async fn write_everywhere(&self) -> Result<Tx> {
        self.begin_write(Some(generation::INSTALLATION)).await
    }

    /// A write transaction that no page shows (the sign-in throttle, the
    /// outbox's bookkeeping): the page generations stay.
    pub async fn write_unseen(&self) -> Result<Tx> {
        self.begin_write(None).await
    }

    /// A write transaction raising `scope`'s generation (or none) as it
    /// commits. On SQLite it takes the one writer connection and the
    /// write lock up front (`BEGIN IMMEDIATE`), so a transaction that
    /// reads before it writes never fails to upgrade its lock.
    pub(crate) async fn begin_write(&self, raise: Option<i64>) -> Result<Tx> {
        let inner = match self {
            Db::Sqlite(s) => Inner::Sqlite(s.write.begin_with("BEGIN IMMEDIATE").await?),
            Db::Postgres(p) => Inner::Postgres(p.begin().await?),
        };
        Ok(Tx { inner, raise })
    }

    /// A read-only transaction: reads that must see one moment of the
    /// records (a version and its rows). Commits nothing.
    pub async fn read_tx(&self) -> Result<Tx> {
        let inner = match self {
            Db::Sqlite(s) => Inner::Sqlite(s.read.begin().await?),
            Db::Postgres(p) => Inner::Postgres(p.begin().await?),
        };
        Ok(Tx { inner, raise: None })
    }

    /// `sqlite` or `postgres`, for the backend in hand, where the dialects
    /// differ.
    pub(crate) fn dialect<T>(&self, sqlite: T, postgres: T) -> T {
        match self {
            Db::Sqlite(_) => sqlite,
            Db::Postgres(_) => postgres,
        }
    }
}

impl Tx {
    /// Raises the generation of what was written, then commits.
    pub async fn commit(mut self) -> Result<()> {
        if let Some(scope) = self.raise {
            query(generation::raise(scope))
                .bind(scope)
                .execute(&mut self)
                .await?;
        }
        match self.inner {
            Inner::Sqlite(t) => t.commit().await?,
            Inner::Postgres(t) => t.commit().await?,
        }
        Ok(())
    }

    pub(crate) fn is_postgres(&self) -> bool {
        matches!(self.inner, Inner::Postgres(_))
    }

    /// `sqlite` or `postgres`, for the backend in hand.
    pub(crate) fn dialect<T>(&self, sqlite: T, postgres: T) -> T {
        if self.is_postgres() { postgres } else { sqlite }
    }
}
