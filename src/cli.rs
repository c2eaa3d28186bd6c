//! The command line: `serve` (the default), `score`, `simulate`, `demo`,
//! `user add`.

use std::io::{Read, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::db::Db;
use crate::rules::simulate::{Opening, Rng, Style, simulate_game};
use crate::rules::{Format, Game, Report, Ruleset, parse_record, score};

#[derive(Debug, Parser)]
#[command(
    name = "boneyard",
    version,
    about = "A league manager for dominoes pub leagues"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Where the league's records are.
#[derive(Debug, Clone, clap::Args)]
pub struct DatabaseArg {
    /// `sqlite://FILE` (created on first start) or `postgres://...`.
    #[arg(long, env = "BONEYARD_DATABASE", default_value = DEFAULT_DATABASE)]
    pub database: String,
}

pub const DEFAULT_DATABASE: &str = "sqlite://boneyard.db";
pub const DEFAULT_LISTEN: &str = "127.0.0.1:3000";

#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub db: DatabaseArg,
    /// Address and port to serve on.
    #[arg(long, env = "BONEYARD_LISTEN", default_value = DEFAULT_LISTEN)]
    pub listen: std::net::SocketAddr,
    /// Fill an empty database with the demo leagues first, and print
    /// accounts to sign in as (their passwords shown only then).
    #[arg(long)]
    pub demo: bool,
    /// Mark cookies Secure: set this when users reach the app over https.
    #[arg(long, env = "BONEYARD_SECURE_COOKIES")]
    pub secure_cookies: bool,
    /// Requests come through a proxy or load balancer that appends the
    /// client's address to X-Forwarded-For (the sign-in throttle counts by
    /// it). Never set this when clients reach the app directly.
    #[arg(long, env = "BONEYARD_BEHIND_PROXY")]
    pub behind_proxy: bool,
    /// Send email through this SMTP server: `smtp://host:25`,
    /// `smtp://user:password@host:587?tls=required` or `smtps://host:465`.
    /// Without it, messages are kept and listed in the administrator's
    /// console.
    #[arg(long, env = "BONEYARD_SMTP_URL")]
    pub smtp_url: Option<String>,
    /// The sender of every message.
    #[arg(long, env = "BONEYARD_MAIL_FROM", default_value = DEFAULT_MAIL_FROM)]
    pub mail_from: String,
    /// The address people reach the app at (`https://league.example.org`):
    /// every absolute link (emails, calendars, QR codes) is built from it,
    /// never from a request's Host header. Default: http:// and --listen.
    #[arg(long, env = "BONEYARD_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Serve Prometheus metrics at http://ADDRESS/metrics, an address of
    /// their own (e.g. 127.0.0.1:9300); none by default.
    #[arg(long, env = "BONEYARD_METRICS_LISTEN")]
    pub metrics_listen: Option<std::net::SocketAddr>,
    /// Take a copy of the SQLite database this often while serving: `24h`,
    /// `30m`, `7d`. None by default. (Postgres: use pg_dump.)
    #[arg(long, env = "BONEYARD_BACKUP_EVERY")]
    pub backup_every: Option<String>,
    /// How many of those copies to keep, the newest.
    #[arg(long, env = "BONEYARD_BACKUP_KEEP", default_value_t = 14)]
    pub backup_keep: usize,
    /// The folder the copies go in (made if missing).
    #[arg(long, env = "BONEYARD_BACKUP_DIR", default_value = "backups")]
    pub backup_dir: std::path::PathBuf,
    /// Most live-score streams (server-sent events) held open at once;
    /// past it the pages read themselves every few seconds instead.
    #[arg(long, env = "BONEYARD_MAX_STREAMS", default_value_t = crate::push::MOST_STREAMS)]
    pub max_streams: usize,
    /// Most live-score streams one client address holds open.
    #[arg(long, env = "BONEYARD_MAX_STREAMS_PER_CLIENT", default_value_t = crate::push::MOST_PER_CLIENT)]
    pub max_streams_per_client: usize,
    #[command(flatten)]
    pub https: HttpsArgs,
}

/// https served by the app itself.
#[derive(Debug, Clone, clap::Args)]
pub struct HttpsArgs {
    /// Serve https for this domain (repeat, or separate with commas, for
    /// more names), with a certificate obtained and renewed over ACME
    /// (Let's Encrypt unless --acme-directory says otherwise). Plain http
    /// on --listen then only redirects to https.
    #[arg(
        long = "https",
        value_name = "DOMAIN",
        env = "BONEYARD_HTTPS",
        value_delimiter = ','
    )]
    pub domains: Vec<String>,
    /// The contact email given to the certificate authority.
    #[arg(long, env = "BONEYARD_ACME_EMAIL", requires = "domains")]
    pub acme_email: Option<String>,
    /// The ACME server's directory URL. Default: Let's Encrypt.
    #[arg(long, env = "BONEYARD_ACME_DIRECTORY", requires = "domains")]
    pub acme_directory: Option<String>,
    /// A CA certificate (PEM) to trust for the ACME server's own https,
    /// besides the usual roots: a private ACME server.
    #[arg(long, env = "BONEYARD_ACME_DIRECTORY_CA", requires = "domains")]
    pub acme_directory_ca: Option<std::path::PathBuf>,
    /// The folder the certificate and the ACME account key are kept in
    /// (made if missing, readable by its owner only).
    #[arg(long, env = "BONEYARD_ACME_CACHE", default_value = "acme")]
    pub acme_cache: std::path::PathBuf,
    /// Serve https with a certificate of one's own (a PEM chain) instead
    /// of ACME; needs --tls-key and --public-url.
    #[arg(
        long,
        env = "BONEYARD_TLS_CERT",
        conflicts_with = "domains",
        requires = "tls_key"
    )]
    pub tls_cert: Option<std::path::PathBuf>,
    /// The private key (PEM) of --tls-cert.
    #[arg(long, env = "BONEYARD_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<std::path::PathBuf>,
    /// Address and port to serve https on, with --https or --tls-cert.
    #[arg(long, env = "BONEYARD_HTTPS_LISTEN", default_value = "0.0.0.0:443")]
    pub https_listen: std::net::SocketAddr,
}

impl HttpsArgs {
    /// What the flags ask for: https, or none.
    pub fn https(&self) -> Result<Option<crate::https::Https>, String> {
        use crate::https::{Acme, Certificate, Https, LETS_ENCRYPT, check_domain};
        let certificate = match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => Certificate::Files {
                cert: cert.clone(),
                key: key.clone(),
            },
            _ if self.domains.is_empty() => return Ok(None),
            _ => {
                for domain in &self.domains {
                    check_domain(domain)?;
                }
                Certificate::Acme(Acme {
                    domains: self.domains.clone(),
                    email: self.acme_email.clone(),
                    directory: self
                        .acme_directory
                        .clone()
                        .unwrap_or_else(|| LETS_ENCRYPT.into()),
                    directory_ca: self.acme_directory_ca.clone(),
                    cache: self.acme_cache.clone(),
                })
            }
        };
        Ok(Some(Https {
            listen: self.https_listen,
            certificate,
        }))
    }
}

pub const DEFAULT_MAIL_FROM: &str = "Boneyard <boneyard@localhost>";

#[derive(Debug, Clone, clap::Args)]
pub struct DemoArgs {
    #[command(flatten)]
    pub db: DatabaseArg,
    /// Leagues to create; the formats take turns.
    #[arg(long, default_value_t = 3)]
    pub leagues: u32,
    /// Teams in each division.
    #[arg(long, default_value_t = 8)]
    pub teams: u32,
    /// Seasons per league: all finished but the last, which is half played
    /// (its current round tonight: the demo is as leagues are this week).
    #[arg(long, default_value_t = 2)]
    pub seasons: u32,
    /// Divisions per season (default: 2 for Fives and Threes, 1 otherwise).
    #[arg(long)]
    pub divisions: Option<u32>,
    /// The same seed always makes the same leagues (on the same day).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create an account; the password is read from standard input.
    Add {
        username: String,
        #[command(flatten)]
        db: DatabaseArg,
        /// Make the account the installation's administrator.
        #[arg(long)]
        admin: bool,
        /// Make the account a secretary of the league with this short name.
        #[arg(long, value_name = "LEAGUE")]
        secretary: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the web app (the default command).
    Serve(Box<ServeArgs>),
    /// Fill the database with demo leagues to explore, and print accounts
    /// to sign in as (their passwords shown only then).
    Demo(DemoArgs),
    /// Manage accounts from the command line.
    #[command(subcommand)]
    User(UserCommand),
    /// Copy a SQLite database to a new file while the app runs (a Postgres
    /// database is backed up with pg_dump).
    Backup {
        #[command(flatten)]
        db: DatabaseArg,
        /// The copy's file; it must not exist yet.
        file: std::path::PathBuf,
    },
    /// Put a copy made by `backup` (or `serve --backup-every`) in place of
    /// the SQLite database, the app stopped (refused while a server serves
    /// it): the copy is checked first (SQLite's integrity check, migrations
    /// this binary knows, finished and unaltered, every table and column),
    /// and the old file kept beside it as FILE.before-restore.
    Restore {
        #[command(flatten)]
        db: DatabaseArg,
        /// The copy to restore.
        file: std::path::PathBuf,
    },
    /// Score a game record (RULES.md) and print the result as JSON.
    Score {
        /// The record's file, or `-` for standard input.
        file: String,
    },
    /// Play a game with dealt tiles and print its record (for trying the
    /// engine, examples and tests).
    Simulate {
        /// fives-and-threes, all-fives or hands-won.
        #[arg(long, default_value = "fives-and-threes")]
        format: String,
        /// Four players in two pairs instead of two in singles.
        #[arg(long)]
        pairs: bool,
        /// The same seed always plays the same game.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// No penalties and no muggins.
        #[arg(long)]
        clean: bool,
    },
}

/// Runs the command line; the exit code is 0 on success and 2 for a bad
/// record or unreadable input, like clap's own usage errors.
pub fn run(cli: Cli) -> ExitCode {
    // No command is `serve`, with its flags read from the environment and
    // defaults exactly as `boneyard serve` reads them.
    let command = match cli.command {
        Some(command) => command,
        None => match Cli::try_parse_from(["boneyard", "serve"]) {
            Ok(Cli {
                command: Some(command),
            }) => command,
            Ok(Cli { command: None }) => unreachable!("`serve` was given"),
            Err(e) => e.exit(),
        },
    };
    match command {
        Command::Serve(args) => async_command("serve", serve(*args)),
        Command::Demo(args) => async_command("demo", demo(args)),
        Command::User(UserCommand::Add {
            username,
            db,
            admin,
            secretary,
        }) => async_command("user add", add_user(username, db, admin, secretary)),
        Command::Backup { db, file } => async_command("backup", backup(db, file)),
        Command::Restore { db, file } => async_command("restore", restore(db, file)),
        Command::Score { file } => match score_file(&file) {
            Ok(json) => write_out("score", &json),
            Err(message) => {
                eprintln!("boneyard score: {message}");
                ExitCode::from(2)
            }
        },
        Command::Simulate {
            format,
            pairs,
            seed,
            clean,
        } => match simulate(&format, pairs, seed, clean) {
            Ok(json) => write_out("simulate", &json),
            Err(message) => {
                eprintln!("boneyard simulate: {message}");
                ExitCode::from(2)
            }
        },
    }
}

/// Writes a command's answer and a newline to standard output. A reader
/// that stopped reading (`boneyard score game.json | head`) wanted no more:
/// that ends the command quietly with success, as a broken pipe ends other
/// programs, where `println!` would panic.
fn write_out(name: &str, text: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("boneyard {name}: cannot write the answer: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A line of a command's report on standard output; once the reader has
/// gone, the rest is dropped instead of panicking.
fn say(text: impl std::fmt::Display) {
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

/// Runs an async command on a runtime of its own; errors are one line on
/// standard error and exit code 1.
fn async_command(name: &str, f: impl std::future::Future<Output = Result<(), String>>) -> ExitCode {
    init_logs();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("boneyard {name}: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(f) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("boneyard {name}: {message}");
            ExitCode::FAILURE
        }
    }
}

fn init_logs() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("boneyard=info,tower_http=warn"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).try_init();
}

async fn connect(db: &DatabaseArg) -> Result<Db, String> {
    Db::connect(&db.database)
        .await
        .map_err(|e| format!("{}: {e}", db.database))
}

async fn serve(args: ServeArgs) -> Result<(), String> {
    let https = args.https.https()?;
    if let Some(https) = &https {
        https.check()?;
    }
    let settings = crate::web::Settings {
        secure_cookies: args.secure_cookies || https.is_some(),
        behind_proxy: args.behind_proxy,
        hsts: https.is_some(),
    };
    let public_url = match (&args.public_url, &https) {
        (Some(url), _) => Some(url.clone()),
        (None, Some(https)) => Some(crate::https::default_public_url(https).ok_or(
            "--tls-cert: give --public-url too (https://league.example.org), the address the certificate names",
        )?),
        (None, None) => None,
    };
    let config = match &public_url {
        Some(url) => {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(format!(
                    "--public-url `{url}`: give the whole address, as https://league.example.org"
                ));
            }
            if https.is_some() && !url.starts_with("https://") {
                return Err(format!(
                    "--public-url `{url}`: the app serves https, so its address starts https://"
                ));
            }
            crate::app::mail::MailConfig::configured(url)
        }
        None => crate::app::mail::MailConfig::new(&format!("http://{}", args.listen)),
    };
    // Held while this server runs: `boneyard restore` refuses to swap the
    // file under it.
    let _serving = match crate::db::backup::sqlite_file(&args.db.database) {
        Some(file) => Some(crate::db::backup::lock_for_serving(&file)?),
        None => None,
    };
    let db = connect(&args.db).await?;
    tracing::info!(database = %args.db.database, backend = db.backend(), "database ready");
    if args.demo && db.leagues().await.map_err(|e| e.to_string())?.is_empty() {
        let demo = crate::demo::fill_with_accounts(&db, &crate::demo::DemoOptions::default())
            .await
            .map_err(|e| e.to_string())?;
        tracing::info!("demo leagues added: {}", demo.summary);
        print_accounts(&demo.accounts, &config.url("/sign-in"));
    }
    let mailer = match &args.smtp_url {
        Some(url) => crate::mail::Mailer::smtp(url, &args.mail_from)?,
        None => {
            tracing::info!("no --smtp-url: messages are kept for the administrator's console");
            crate::mail::Mailer::Keep
        }
    };
    if let Some(every) = &args.backup_every {
        if matches!(db, crate::db::Db::Postgres(_)) {
            return Err(
                "--backup-every copies a SQLite database; back up Postgres with pg_dump".into(),
            );
        }
        if args.backup_keep == 0 {
            return Err("--backup-keep 0 would delete every copy it takes: keep 1 or more".into());
        }
        let schedule = crate::backups::Schedule {
            every: crate::backups::parse_every(every).map_err(|e| format!("--backup-every {e}"))?,
            keep: args.backup_keep,
            dir: args.backup_dir.clone(),
        };
        tracing::info!(
            "a backup every {every} into {}, the newest {} kept",
            schedule.dir.display(),
            schedule.keep
        );
        tokio::spawn(crate::backups::run(db.clone(), schedule));
    }
    let worker = crate::mail::Worker::new(db.clone(), mailer, config.clone());
    let listeners = crate::web::Listeners {
        http: args.listen,
        https,
        metrics: args.metrics_listen,
    };
    let streams = crate::web::StreamLimits {
        most: args.max_streams,
        per_client: args.max_streams_per_client,
    };
    crate::web::serve(db, listeners, settings, config, worker, streams)
        .await
        .map_err(|e| e.to_string())
}

async fn demo(args: DemoArgs) -> Result<(), String> {
    let db = connect(&args.db).await?;
    let options = crate::demo::DemoOptions {
        leagues: args.leagues,
        teams: args.teams,
        seasons: args.seasons,
        divisions: args.divisions,
        seed: args.seed,
    };
    let started = std::time::Instant::now();
    let mut progress = Progress::new(started);
    let demo = crate::demo::fill_reporting(&db, &options, &mut |p| progress.show(p))
        .await
        .map_err(|e| e.to_string())?;
    progress.finish();
    say(format_args!("{}", demo.summary));
    say(format_args!("in {:.1} s", started.elapsed().as_secs_f64()));
    print_accounts(&demo.accounts, "/sign-in of `boneyard serve`");
    Ok(())
}

/// The demo's progress on standard error: a bar redrawn in place on a
/// terminal, a plain line per league otherwise (a log, a pipe).
struct Progress {
    started: std::time::Instant,
    terminal: bool,
}

impl Progress {
    fn new(started: std::time::Instant) -> Progress {
        use std::io::IsTerminal;
        Progress {
            started,
            terminal: std::io::stderr().is_terminal(),
        }
    }

    fn show(&mut self, p: crate::demo::Progress) {
        use std::io::Write;
        let secs = self.started.elapsed().as_secs_f64();
        let mut err = std::io::stderr().lock();
        // Progress is a courtesy: a closed stderr must not stop the fill.
        let _ = if self.terminal {
            const WIDTH: u32 = 30;
            let filled = (WIDTH * p.done / p.of.max(1)) as usize;
            write!(
                err,
                "\r[{}{}] {}/{} leagues, {secs:.0} s ",
                "#".repeat(filled),
                "-".repeat(WIDTH as usize - filled),
                p.done,
                p.of
            )
            .and_then(|()| err.flush())
        } else {
            writeln!(
                err,
                "demo: league {} of {} written ({}), {secs:.1} s",
                p.done, p.of, p.league
            )
        };
    }

    fn finish(&mut self) {
        if self.terminal {
            let _ = writeln!(std::io::stderr());
        }
    }
}

/// The demo's accounts and their passwords, on standard output: the only
/// time anyone sees the passwords.
fn print_accounts(accounts: &[crate::demo::DemoAccount], sign_in: &str) {
    if accounts.is_empty() {
        return;
    }
    say("");
    say(format_args!(
        "Demo accounts: sign in at {sign_in} (README.md, \"Signing in to the demo\")."
    ));
    say("These passwords are shown only this once; the database keeps only their hashes.");
    say("");
    say(crate::demo::AccountTable(accounts));
}

async fn backup(db: DatabaseArg, file: std::path::PathBuf) -> Result<(), String> {
    let db = connect(&db).await?;
    db.backup_to(&file).await.map_err(|e| e.to_string())?;
    say(format_args!("backed up to {}", file.display()));
    Ok(())
}

async fn restore(db: DatabaseArg, file: std::path::PathBuf) -> Result<(), String> {
    let Some(target) = crate::db::backup::sqlite_file(&db.database) else {
        return Err("restore puts a SQLite copy in place; restore Postgres with pg_restore".into());
    };
    let target = target.as_path();
    let kept = crate::db::backup::restore(&file, target).await?;
    say(format_args!(
        "restored {} to {}",
        file.display(),
        target.display()
    ));
    if let Some(old) = kept {
        say(format_args!(
            "the database it replaced is kept as {}",
            old.display()
        ));
    }
    Ok(())
}

async fn add_user(
    username: String,
    db: DatabaseArg,
    admin: bool,
    secretary: Option<String>,
) -> Result<(), String> {
    use crate::db::NewRole;
    if let Some(why) = crate::web::account::check_username(&username) {
        return Err(format!("username `{username}`: {why}"));
    }
    eprintln!("Password for {username} (one line on standard input):");
    let mut password = String::new();
    std::io::stdin()
        .read_line(&mut password)
        .map_err(|e| format!("cannot read the password: {e}"))?;
    let password = password.trim_end_matches(['\r', '\n']).to_owned();
    if let Some(why) = crate::web::account::check_password(&password) {
        return Err(format!("password: {why}"));
    }
    let db = connect(&db).await?;
    let league = match &secretary {
        Some(short) => Some(
            db.league_by_short_name(short)
                .await
                .map_err(|e| format!("league `{short}`: {e}"))?,
        ),
        None => None,
    };
    let hash = crate::web::auth::hash_password(password)
        .await
        .map_err(|e| e.to_string())?;
    let user = db
        .create_user(&username, &hash)
        .await
        .map_err(|e| format!("username `{username}`: {e}"))?;
    if admin {
        db.grant_role(&NewRole::administrator(user.id), None)
            .await
            .map_err(|e| e.to_string())?;
    }
    if let Some(league) = league {
        db.grant_role(&NewRole::secretary(user.id, league.id), None)
            .await
            .map_err(|e| e.to_string())?;
    }
    say(format_args!("Account `{username}` created."));
    Ok(())
}

/// A simulated game's record as JSON.
pub fn simulate(format: &str, pairs: bool, seed: u64, clean: bool) -> Result<String, String> {
    let format: Format = format.parse()?;
    let pairs = pairs || format == Format::HandsWon;
    let players: Vec<String> = ["Ann", "Bob", "Cat", "Dan"][..if pairs { 4 } else { 2 }]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let sides: Vec<Vec<String>> = (0..2)
        .map(|s| players.iter().skip(s).step_by(2).cloned().collect())
        .collect();
    let style = if clean {
        Style::clean()
    } else {
        Style::default()
    };
    let record = simulate_game(
        &Ruleset::new(format),
        &players,
        &sides,
        Opening::Draw,
        &mut Rng::new(seed),
        &style,
    );
    serde_json::to_string_pretty(&record).map_err(|e| format!("could not write the record: {e}"))
}

/// The result JSON for a record file, or the one message saying why not.
pub fn score_file(file: &str) -> Result<String, String> {
    let text = read_input(file)?;
    let name = if file == "-" { "standard input" } else { file };
    let record = parse_record(&text).map_err(|e| format!("{name}: {e}"))?;
    let game = Game::from_record(&record).map_err(|e| format!("{name}: {e}"))?;
    let outcome = score(&game).map_err(|e| format!("{name}: {e}"))?;
    serde_json::to_string_pretty(&Report::new(&game, &outcome))
        .map_err(|e| format!("could not write the result: {e}"))
}

/// A record of more than this is no game anyone played.
const MAX_INPUT_BYTES: u64 = 16 * 1024 * 1024;

fn read_input(file: &str) -> Result<String, String> {
    let mut bytes = Vec::new();
    let read = if file == "-" {
        std::io::stdin()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(file).and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
    };
    let name = if file == "-" { "standard input" } else { file };
    read.map_err(|e| format!("cannot read {name}: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!(
            "{name} is larger than 16 MiB; it is not a game record"
        ));
    }
    String::from_utf8(bytes).map_err(|_| format!("{name} is not UTF-8 text"))
}
