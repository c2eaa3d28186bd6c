//! The binary alone, copied into an empty folder and run from there, serves
//! styled pages: its stylesheet and scripts are inside it, not read from the
//! source tree it was built in.

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const SOURCE_STYLE: &str = include_str!("../../static/style.css");

/// A copied binary serving from its own folder; killed, and the folder
/// removed, when dropped (a failed assertion too).
struct Server {
    child: Child,
    dir: PathBuf,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Server {
    fn start() -> Server {
        let dir = std::env::temp_dir().join(format!("boneyard-portable-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("an empty folder");
        let binary = dir.join(format!("boneyard{}", std::env::consts::EXE_SUFFIX));
        std::fs::copy(env!("CARGO_BIN_EXE_boneyard"), &binary).expect("copy the binary");
        let port = free_port();
        let log = std::fs::File::create(dir.join("log")).expect("a log file");
        let mut command = Command::new(&binary);
        command
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .arg("--database")
            .arg(format!("sqlite://{}", dir.join("x.db").display()))
            .current_dir(&dir)
            .env_remove("BONEYARD_SECURE_COOKIES")
            .env_remove("BONEYARD_BEHIND_PROXY")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log);
        let child = spawn(&mut command);
        let mut server = Server { child, dir, port };
        server.wait_until_it_answers();
        server
    }

    fn wait_until_it_answers(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("the server stopped ({status}):\n{}", self.log());
            }
            if get(self.port, "/").is_ok() {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "no answer in a minute:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("log")).unwrap_or_default()
    }

    fn get(&self, path: &str) -> Reply {
        get(self.port, path).unwrap_or_else(|e| panic!("GET {path}: {e}\n{}", self.log()))
    }
}

/// A port nothing listens on just now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// Starts the copied binary; a test elsewhere forking while the copy was
/// open for writing can make it briefly "text file busy".
fn spawn(command: &mut Command) -> Child {
    let mut tries = 0;
    loop {
        match command.spawn() {
            Ok(child) => return child,
            Err(e) if e.kind() == ErrorKind::ExecutableFileBusy && tries < 50 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(e) => panic!("start the copied binary: {e}"),
        }
    }
}

struct Reply {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> &str {
        self.head
            .lines()
            .skip(1)
            .filter_map(|line| line.split_once(':'))
            .find(|(n, _)| n.trim().eq_ignore_ascii_case(name))
            .map_or("", |(_, v)| v.trim())
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// One plain GET. HTTP/1.0, so the body comes whole (never chunked) and the
/// server closes the connection after it.
fn get(port: u16, path: &str) -> std::io::Result<Reply> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(
        stream,
        "GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    )?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("no end of headers"))?;
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no status in {head:?}")))?;
    Ok(Reply {
        status,
        head,
        body: raw[end + 4..].to_vec(),
    })
}

/// The `href` of the page's stylesheet link.
fn stylesheet_link(html: &str) -> Option<&str> {
    let start = html.find("<link rel=\"stylesheet\" href=\"")? + 29;
    let len = html[start..].find('"')?;
    Some(&html[start..start + len])
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn the_binary_alone_in_an_empty_folder_serves_a_styled_page() {
    let server = Server::start();

    // A new installation's first page: `/` sends to the setup form.
    let mut page = server.get("/");
    for _ in 0..3 {
        if !(300..400).contains(&page.status) {
            break;
        }
        let to = page.header("location").to_owned();
        page = server.get(&to);
    }
    assert_eq!(page.status, 200, "{}", page.head);
    let html = page.text();
    let href = stylesheet_link(&html).unwrap_or_else(|| panic!("no stylesheet link in {html}"));
    let hash = href
        .strip_prefix("/static/style.")
        .and_then(|rest| rest.strip_suffix(".css"))
        .unwrap_or_else(|| panic!("not a hashed stylesheet name: {href}"));
    assert!(
        !hash.is_empty() && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        "{href}"
    );

    let css = server.get(href);
    assert_eq!(css.status, 200, "{}", css.head);
    assert!(
        css.header("content-type").starts_with("text/css"),
        "{}",
        css.head
    );
    assert_eq!(css.text(), SOURCE_STYLE, "the real stylesheet");
    assert!(css.text().contains("* { box-sizing: border-box; }"));
    let cache = css.header("cache-control");
    assert!(
        cache.contains("immutable") && cache.contains("max-age=31536000"),
        "{cache}"
    );

    // The plain name still works, for old links, but is checked each time.
    let plain = server.get("/static/style.css");
    assert_eq!(plain.status, 200);
    assert_eq!(plain.text(), SOURCE_STYLE);
    assert!(!plain.header("cache-control").contains("immutable"));
    let script = server.get("/static/card.js");
    assert_eq!(script.status, 200);
    assert!(
        script.header("content-type").starts_with("text/javascript"),
        "{}",
        script.head
    );
    assert_eq!(server.get("/static/style.00000000.css").status, 404);

    // On this machine the source tree is still there to read: prove the
    // stylesheet travels inside the binary.
    let copy = server
        .dir
        .join(format!("boneyard{}", std::env::consts::EXE_SUFFIX));
    let binary = std::fs::read(copy).expect("the copied binary");
    assert!(
        contains(&binary, SOURCE_STYLE.as_bytes()),
        "static/style.css is not in the binary"
    );
}
