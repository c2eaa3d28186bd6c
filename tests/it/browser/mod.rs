//! Tests in a real browser: the real `boneyard` binary on a fresh SQLite
//! database, driven through Debian's chromium by chromedriver (WebDriver,
//! through fantoccini). Without chromium and chromedriver the tests say
//! they were skipped and pass, like the Postgres half. A failing test
//! leaves a screenshot under `target/browser-failures/`.

mod account;
mod card;
mod cup;
mod embed;
mod formats;
mod journeys;
mod live;
mod night;
mod offline;
mod pad;
mod pad_rules;
mod phone;
mod push;
mod rollover;
mod setup;
mod sheet;
mod team_sheet;
mod week;
mod year;

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Phone and desktop window sizes.
pub const PHONE: (u32, u32) = (390, 844);
pub const DESKTOP: (u32, u32) = (1280, 900);

/// Whether the browser is installed; if not, says the test was skipped.
pub fn available(test: &str) -> bool {
    let there = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if !there {
        eprintln!(
            "browser test {test} skipped: chromium and chromium-driver are not installed \
             (apt-get install -y chromium chromium-driver)"
        );
    }
    there
}

/// A port nothing listens on, never one handed out before in this run: the
/// servers and chromedrivers of tests running side by side each get their
/// own, even while one has not started listening on its port yet.
pub fn free_port() -> u16 {
    static GIVEN: std::sync::Mutex<std::collections::BTreeSet<u16>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    loop {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        if GIVEN.lock().unwrap_or_else(|p| p.into_inner()).insert(port) {
            return port;
        }
    }
}

fn wait_for_port(port: u16, what: &str) {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{what} did not start listening on port {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A temporary folder removed at the end.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "boneyard-browser-{name}-{}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The real server binary, on a database file; stopped when dropped.
pub struct Server {
    child: Option<Child>,
    pub port: u16,
    pub database: String,
    /// More arguments to `serve` (`--smtp-url ...`).
    extra: Vec<String>,
}

impl Server {
    pub fn start(database: &str) -> Server {
        Server::start_with(database, &[])
    }

    /// Started with more arguments to `serve`.
    pub fn start_with(database: &str, extra: &[String]) -> Server {
        let mut s = Server {
            child: None,
            port: free_port(),
            database: database.to_owned(),
            extra: extra.to_vec(),
        };
        s.restart();
        s
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Kills the server at once, as a lost connection looks to a phone.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on the same port and database.
    pub fn restart(&mut self) {
        self.stop();
        let child = Command::new(env!("CARGO_BIN_EXE_boneyard"))
            .args([
                "serve",
                "--listen",
                &format!("127.0.0.1:{}", self.port),
                "--database",
                &self.database,
            ])
            .args(&self.extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the boneyard binary starts");
        self.child = Some(child);
        wait_for_port(self.port, "boneyard");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Chromium under chromedriver, with a window of the given size.
pub struct Browser {
    driver: Child,
    pub client: Client,
    _profile: Option<TempDir>,
}

impl Browser {
    pub async fn start(size: (u32, u32)) -> Browser {
        let profile = TempDir::new("profile");
        let mut browser = Browser::start_in(size, &profile.0).await;
        browser._profile = Some(profile);
        browser
    }

    /// With a profile folder of the caller's, which outlives the browser:
    /// started again in it, the browser finds its service workers, caches,
    /// storage and cookies as a phone's browser does after a restart.
    pub async fn start_in((width, height): (u32, u32), profile: &Path) -> Browser {
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        wait_for_port(port, "chromedriver");
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({
                "binary": CHROMIUM,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-quic", "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    format!("--window-size={width},{height}"),
                    format!("--user-data-dir={}", profile.display()),
                ],
            }),
        );
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a WebDriver session with chromium");
        // Headless chromium never starts narrower than 500 px, whatever
        // `--window-size` says; resized afterwards, its page is as narrow
        // as asked (a 390 px phone really is 390 px).
        client
            .set_window_size(width, height)
            .await
            .expect("the window takes the size asked");
        let inner = client
            .execute("return window.innerWidth;", vec![])
            .await
            .expect("the page reports its width");
        assert_eq!(inner.as_u64(), Some(u64::from(width)), "the page's width");
        Browser {
            driver,
            client,
            _profile: None,
        }
    }

    /// Saves a screenshot under `target/browser-failures/NAME.png`.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-failures");
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join(format!("{name}.png"));
        if let Ok(png) = self.client.screenshot().await {
            let _ = std::fs::write(&path, png);
        }
        path
    }

    pub async fn goto(&self, url: &str) -> Result<(), String> {
        self.client
            .goto(url)
            .await
            .map_err(|e| format!("opening {url}: {e}"))
    }

    pub async fn click(&self, css: &str) -> Result<(), String> {
        self.client
            .find(Locator::Css(css))
            .await
            .map_err(|e| format!("no element `{css}`: {e}"))?
            .click()
            .await
            .map_err(|e| format!("clicking `{css}`: {e}"))
    }

    /// Clicks the button or link whose accessible text is `text`, inside
    /// `within` (a CSS selector).
    /// A part the page swaps while it is found (the pad redraws its kept
    /// taps when a sync ends) is found again, as a person taps the new one.
    pub async fn click_named(&self, within: &str, text: &str) -> Result<(), String> {
        let mut tries = 0;
        loop {
            match self.click_named_once(within, text).await {
                Err(e) if e.contains("stale element") && tries < 10 => {
                    tries += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
                done => return done,
            }
        }
    }

    async fn click_named_once(&self, within: &str, text: &str) -> Result<(), String> {
        let scope = self
            .client
            .find(Locator::Css(within))
            .await
            .map_err(|e| format!("no `{within}`: {e}"))?;
        let xpath = format!(
            ".//*[(self::button or self::a) and normalize-space(.)=\"{text}\" and not(ancestor-or-self::*[@hidden])]"
        );
        let el = scope
            .find(Locator::XPath(&xpath))
            .await
            .map_err(|e| format!("no control named `{text}` in `{within}`: {e}"))?;
        match el.clone().click().await {
            // Under the pad's sticky score: bring it to the middle first.
            Err(e) if e.to_string().contains("intercepted") => {
                let arg = serde_json::to_value(&el).map_err(|e| e.to_string())?;
                self.client
                    .execute("arguments[0].scrollIntoView({block: 'center'});", vec![arg])
                    .await
                    .map_err(|e| e.to_string())?;
                el.click()
                    .await
                    .map_err(|e| format!("clicking `{text}`: {e}"))
            }
            other => other.map_err(|e| format!("clicking `{text}`: {e}")),
        }
    }

    /// The element's text. A page that swaps parts of itself (the live
    /// page) can replace the element between finding and reading it: then
    /// it is found again.
    pub async fn text(&self, css: &str) -> Result<String, String> {
        let mut tries = 0;
        loop {
            let read = match self.client.find(Locator::Css(css)).await {
                Ok(el) => el.text().await.map_err(|e| format!("reading `{css}`: {e}")),
                Err(e) => Err(format!("no element `{css}`: {e}")),
            };
            match read {
                Err(e) if e.contains("stale element") && tries < 5 => {
                    tries += 1;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                other => return other,
            }
        }
    }

    /// Waits until the element's text contains `want`.
    pub async fn wait_text(&self, css: &str, want: &str) -> Result<(), String> {
        let start = Instant::now();
        loop {
            let got = self.text(css).await.unwrap_or_default();
            if got.contains(want) {
                return Ok(());
            }
            if start.elapsed() > Duration::from_secs(20) {
                return Err(format!("`{css}` says `{got}`, waited for `{want}`"));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn select(&self, css: &str, value: &str) -> Result<(), String> {
        self.client
            .find(Locator::Css(css))
            .await
            .map_err(|e| format!("no select `{css}`: {e}"))?
            .select_by_value(value)
            .await
            .map_err(|e| format!("choosing {value} in `{css}`: {e}"))
    }

    pub async fn fill(&self, css: &str, value: &str) -> Result<(), String> {
        self.client
            .find(Locator::Css(css))
            .await
            .map_err(|e| format!("no field `{css}`: {e}"))?
            .send_keys(value)
            .await
            .map_err(|e| format!("typing into `{css}`: {e}"))
    }

    /// How many elements match `css`.
    pub async fn count(&self, css: &str) -> Result<usize, String> {
        self.client
            .find_all(Locator::Css(css))
            .await
            .map(|all| all.len())
            .map_err(|e| format!("counting `{css}`: {e}"))
    }

    /// Whether the page is wider than the window (sideways scrolling).
    pub async fn scrolls_sideways(&self) -> Result<bool, String> {
        let v = self
            .client
            .execute(
                "return document.documentElement.scrollWidth > window.innerWidth;",
                vec![],
            )
            .await
            .map_err(|e| e.to_string())?;
        Ok(v.as_bool().unwrap_or(true))
    }

    pub async fn sign_in(&self, server: &Server, user: &str, password: &str) -> Result<(), String> {
        self.goto(&server.url("/sign-in")).await?;
        self.fill("input[name=username]", user).await?;
        self.fill("input[name=password]", password).await?;
        self.click("form[action='/sign-in'] button[type=submit]")
            .await?;
        self.wait_text("header.site", "Sign out").await
    }

    /// Signs out and waits until the page says so (a click does not wait
    /// for the page it leads to).
    pub async fn sign_out(&self) -> Result<(), String> {
        self.click("form[action='/sign-out'] button").await?;
        let start = Instant::now();
        loop {
            let header = self.text("header.site").await.unwrap_or_default();
            if header.contains("Sign in") {
                return Ok(());
            }
            if start.elapsed() > Duration::from_secs(20) {
                return Err(format!("still signed in: the header says `{header}`"));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// A Chrome DevTools command to the page, through chromedriver.
    pub async fn cdp(
        &self,
        cmd: &str,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, String> {
        self.client
            .issue_cmd(Cdp {
                cmd: cmd.to_owned(),
                params,
            })
            .await
            .map_err(|e| format!("{cmd}: {e}"))
    }

    /// The browser's own network conditions, as its developer tools set
    /// them: `None` for a normal connection, `Some(0)` for no connection
    /// at all, `Some(ms)` for a slow link with that much latency. Applied to
    /// the page and to every service worker (whose fetches are its own: a
    /// page put offline alone would still be answered through its worker).
    pub async fn network(&self, latency: Option<u64>) -> Result<(), String> {
        let conditions = serde_json::json!({
            "offline": latency == Some(0),
            "latency": latency.unwrap_or(0),
            "downloadThroughput": -1,
            "uploadThroughput": -1,
        });
        self.cdp("Network.enable", serde_json::json!({})).await?;
        self.cdp("Network.emulateNetworkConditions", conditions.clone())
            .await?;
        let targets = self.cdp("Target.getTargets", serde_json::json!({})).await?;
        for t in targets["targetInfos"].as_array().into_iter().flatten() {
            if t["type"] != "service_worker" {
                continue;
            }
            let attached = self
                .cdp(
                    "Target.attachToTarget",
                    serde_json::json!({ "targetId": t["targetId"], "flatten": false }),
                )
                .await?;
            let session = attached["sessionId"].clone();
            for (id, (method, params)) in [
                ("Network.enable", serde_json::json!({})),
                ("Network.emulateNetworkConditions", conditions.clone()),
            ]
            .into_iter()
            .enumerate()
            {
                let message =
                    serde_json::json!({ "id": id + 1, "method": method, "params": params });
                self.cdp(
                    "Target.sendMessageToTarget",
                    serde_json::json!({ "sessionId": session, "message": message.to_string() }),
                )
                .await?;
            }
        }
        Ok(())
    }

    pub async fn close(self) {
        let Browser {
            mut driver, client, ..
        } = self;
        let _ = client.close().await;
        let _ = driver.kill();
        let _ = driver.wait();
    }
}

/// A command chromedriver passes to the browser's DevTools protocol.
#[derive(Debug)]
struct Cdp {
    cmd: String,
    params: serde_json::Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = serde_json::json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Most browser tests running at once (`BONEYARD_TEST_BROWSERS`, default 2):
/// the other tests may run many at a time (CI runs them wider than the
/// cores, as most wait on a database or a clock), while a browser's pages
/// take a core each, and a test that measures a page in seconds must not
/// share it with five other browsers.
fn most_browsers() -> usize {
    std::env::var("BONEYARD_TEST_BROWSERS")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(2)
}

static RUNNING: (std::sync::Mutex<usize>, std::sync::Condvar) =
    (std::sync::Mutex::new(0), std::sync::Condvar::new());

/// A turn to run a browser: held while the test runs.
struct BrowserSlot;

impl Drop for BrowserSlot {
    fn drop(&mut self) {
        let (count, freed) = &RUNNING;
        *count.lock().unwrap_or_else(|p| p.into_inner()) -= 1;
        freed.notify_one();
    }
}

async fn browser_slot() -> BrowserSlot {
    tokio::task::spawn_blocking(|| {
        let (count, freed) = &RUNNING;
        let mut n = count.lock().unwrap_or_else(|p| p.into_inner());
        while *n >= most_browsers() {
            n = freed.wait(n).unwrap_or_else(|p| p.into_inner());
        }
        *n += 1;
    })
    .await
    .expect("waiting for a browser's turn");
    BrowserSlot
}

/// Runs a browser test's steps; on a failed step leaves a screenshot and
/// fails with the step's message.
pub async fn run<F, Fut>(name: &str, size: (u32, u32), steps: F)
where
    F: FnOnce(Browser) -> Fut,
    Fut: std::future::Future<Output = (Browser, Result<(), String>)>,
{
    if !available(name) {
        return;
    }
    let _slot = browser_slot().await;
    let browser = Browser::start(size).await;
    let started = Instant::now();
    let (browser, outcome) = steps(browser).await;
    if let Err(why) = outcome {
        let shot = browser.screenshot(name).await;
        browser.close().await;
        panic!(
            "browser test {name} failed: {why}\nscreenshot: {}",
            shot.display()
        );
    }
    eprintln!(
        "browser test {name}: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    browser.close().await;
}
