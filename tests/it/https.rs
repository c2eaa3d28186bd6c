//! https by itself (issue 28), against servers no code of ours wrote: a
//! certificate obtained from Debian's pebble (an ACME server, RFC 8555,
//! with pebble-challtestsrv answering its DNS), served over https, kept in
//! its folder across a restart and renewed before it expires; plain http
//! redirected; a certificate of one's own. Without pebble installed the
//! ACME test says it was skipped.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{self, RootCertStore};

const DOMAIN: &str = "league.boneyard.test";

/// A process killed when dropped (a failed assertion too), its standard
/// error kept in a file for the failure message.
struct Process {
    child: Child,
    log: PathBuf,
}

impl Process {
    fn start(command: &mut Command, log: PathBuf) -> Process {
        let file = std::fs::File::create(&log).expect("a log file");
        let child = command
            .stdin(Stdio::null())
            .stdout(file.try_clone().expect("the log again"))
            .stderr(file)
            .spawn()
            .unwrap_or_else(|e| panic!("start {command:?}: {e}"));
        Process { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn assert_running(&mut self) {
        if let Ok(Some(status)) = self.child.try_wait() {
            panic!("{:?} stopped ({status}):\n{}", self.log, self.log());
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

fn empty_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boneyard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("an empty folder");
    dir
}

/// A certificate authority made for the test, and a certificate it signed
/// for `name`, written as PEM files in `dir`: (ca, chain, key).
fn test_certificate(dir: &Path, name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let ca_key = KeyPair::generate().expect("a CA key");
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "Boneyard test CA");
    let ca = ca_params.self_signed(&ca_key).expect("the CA certificate");
    let key = KeyPair::generate().expect("a key");
    let leaf = CertificateParams::new(vec![name.to_owned()])
        .expect("params")
        .signed_by(&key, &ca, &ca_key)
        .expect("the certificate");
    let paths = (
        dir.join("ca.pem"),
        dir.join("cert.pem"),
        dir.join("key.pem"),
    );
    std::fs::write(&paths.0, ca.pem()).expect("write");
    std::fs::write(&paths.1, leaf.pem()).expect("write");
    std::fs::write(&paths.2, key.serialize_pem()).expect("write");
    paths
}

fn roots_from_pem(pem: &[u8]) -> RootCertStore {
    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(pem) {
        roots.add(cert.expect("a PEM certificate")).expect("a root");
    }
    assert!(
        !roots.is_empty(),
        "no certificate in:\n{}",
        String::from_utf8_lossy(pem)
    );
    roots
}

struct Reply {
    status: u16,
    headers: http::HeaderMap,
    body: String,
    /// The certificate the server presented (https only).
    leaf: Vec<u8>,
}

/// GET `path` from 127.0.0.1:`port` over https, the handshake naming `name`
/// and trusting `roots` alone (rustls checks the chain, the name and the
/// dates).
async fn https_get(
    roots: &RootCertStore,
    name: &str,
    port: u16,
    path: &str,
) -> Result<Reply, String> {
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("TLS versions")
    .with_root_certificates(roots.clone())
    .with_no_client_auth();
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let server = ServerName::try_from(name.to_owned()).expect("a server name");
    let tls = tokio_rustls::TlsConnector::from(Arc::new(config))
        .connect(server, tcp)
        .await
        .map_err(|e| format!("TLS handshake: {e}"))?;
    let leaf = tls
        .get_ref()
        .1
        .peer_certificates()
        .and_then(|chain| chain.first())
        .map(|c| c.to_vec())
        .unwrap_or_default();
    let mut reply = request(tls, name, path).await?;
    reply.leaf = leaf;
    Ok(reply)
}

/// GET `path` over plain http, naming `host`.
async fn http_get(port: u16, host: &str, path: &str) -> Result<Reply, String> {
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| format!("connect: {e}"))?;
    request(tcp, host, path).await
}

async fn request<S>(io: S, host: &str, path: &str) -> Result<Reply, String>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(io))
        .await
        .map_err(|e| format!("HTTP handshake: {e}"))?;
    tokio::spawn(connection);
    let request = http::Request::get(path)
        .header(http::header::HOST, host)
        .body(Empty::<Bytes>::new())
        .expect("a request");
    let response = sender
        .send_request(request)
        .await
        .map_err(|e| format!("GET {path}: {e}"))?;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| format!("GET {path} body: {e}"))?
        .to_bytes();
    Ok(Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
        leaf: Vec::new(),
    })
}

async fn wait_for_port(port: u16, what: &mut Process) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        what.assert_running();
        assert!(
            Instant::now() < deadline,
            "nothing on port {port}:\n{}",
            what.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The first answer over https within `limit`: the first-run page of the
/// empty league, which also starts a session.
async fn wait_for_https(
    roots: &RootCertStore,
    port: u16,
    app: &mut Process,
    limit: Duration,
) -> Reply {
    let deadline = Instant::now() + limit;
    loop {
        app.assert_running();
        match https_get(roots, DOMAIN, port, "/setup").await {
            Ok(reply) => return reply,
            Err(e) => assert!(
                Instant::now() < deadline,
                "no https answer in {limit:?}: {e}\n{}",
                app.log()
            ),
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// `Strict-Transport-Security`'s max-age, in seconds.
fn hsts_max_age(headers: &http::HeaderMap) -> Option<u64> {
    let value = headers
        .get(http::header::STRICT_TRANSPORT_SECURITY)?
        .to_str()
        .ok()?;
    value.split(';').find_map(|directive| {
        let (name, seconds) = directive.trim().split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("max-age")
            .then(|| seconds.trim().trim_matches('"').parse().ok())?
    })
}

/// Whether every cookie the response sets carries the Secure attribute
/// (and it sets one).
fn cookies_all_secure(headers: &http::HeaderMap) -> bool {
    let cookies: Vec<_> = headers
        .get_all(http::header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    !cookies.is_empty()
        && cookies.iter().all(|cookie| {
            cookie
                .split(';')
                .skip(1)
                .any(|attribute| attribute.trim().eq_ignore_ascii_case("secure"))
        })
}

/// Plain http answers only with a permanent redirect to the same path at
/// `public` (whatever host the request named).
async fn assert_http_redirects(http_port: u16, public: &str) {
    let reply = http_get(http_port, "elsewhere.example", "/leagues?sort=rating")
        .await
        .expect("an http answer");
    assert_eq!(reply.status, 308, "plain http answers with a redirect");
    let location = reply
        .headers
        .get(http::header::LOCATION)
        .and_then(|l| l.to_str().ok())
        .expect("a Location");
    let location = url::Url::parse(location).expect("an absolute Location");
    let public = url::Url::parse(public).expect("the public address");
    assert_eq!(location.scheme(), "https");
    assert_eq!(
        location.host_str(),
        public.host_str(),
        "never the host the request named"
    );
    assert_eq!(
        location.port_or_known_default(),
        public.port_or_known_default()
    );
    assert_eq!(location.path(), "/leagues");
    assert_eq!(location.query(), Some("sort=rating"));
}

fn boneyard(dir: &Path, http_port: u16, https_port: u16) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_boneyard"));
    command
        .current_dir(dir)
        .args(["serve", "--listen", &format!("127.0.0.1:{http_port}")])
        .args(["--https-listen", &format!("127.0.0.1:{https_port}")])
        .arg("--database")
        .arg(format!("sqlite://{}", dir.join("league.db").display()))
        .env("RUST_LOG", "boneyard=info,rustls_acme=info");
    for (name, _) in std::env::vars() {
        if name.starts_with("BONEYARD_") {
            command.env_remove(name);
        }
    }
    command
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn https_by_itself_obtains_keeps_and_renews_a_certificate_from_a_real_acme_server() {
    if !(on_path("pebble") && on_path("pebble-challtestsrv")) {
        eprintln!("https ACME test skipped: install Debian's pebble (an ACME test server)");
        return;
    }
    let dir = empty_dir("acme");
    // Pebble's own https (its directory) uses a certificate of the test's.
    let (test_ca, pebble_cert, pebble_key) = test_certificate(&dir, "localhost");
    let (dns_port, acme_port, pebble_admin, http_port, https_port) = (
        free_port(),
        free_port(),
        free_port(),
        free_port(),
        free_port(),
    );
    // Every name resolves to 127.0.0.1, so pebble validates DOMAIN here.
    let mut dns = Process::start(
        Command::new("pebble-challtestsrv")
            .args(["-dns01", &format!("127.0.0.1:{dns_port}")])
            .args(["-http01", "", "-https01", "", "-tlsalpn01", ""])
            .args(["-management", &format!("127.0.0.1:{}", free_port())])
            .args(["-defaultIPv4", "127.0.0.1", "-defaultIPv6", ""]),
        dir.join("dns.log"),
    );
    // Certificates valid for 45 seconds: renewal (when a third of the life
    // is left) comes within the test.
    let config = serde_json::json!({ "pebble": {
        "listenAddress": format!("127.0.0.1:{acme_port}"),
        "managementListenAddress": format!("127.0.0.1:{pebble_admin}"),
        "certificate": pebble_cert,
        "privateKey": pebble_key,
        "httpPort": free_port(),
        "tlsPort": https_port,
        "ocspResponderURL": "",
        "externalAccountBindingRequired": false,
        "certificateValidityPeriod": 45,
    }});
    std::fs::write(dir.join("pebble.json"), config.to_string()).expect("write");
    let mut pebble = Process::start(
        Command::new("pebble")
            .arg("-config")
            .arg(dir.join("pebble.json"))
            .args(["-dnsserver", &format!("127.0.0.1:{dns_port}")])
            .env("PEBBLE_VA_NOSLEEP", "1")
            .env("PEBBLE_WFE_NONCEREJECT", "0"),
        dir.join("pebble.log"),
    );
    wait_for_port(dns_port, &mut dns).await;
    wait_for_port(acme_port, &mut pebble).await;
    wait_for_port(pebble_admin, &mut pebble).await;
    let test_roots = roots_from_pem(&std::fs::read(&test_ca).expect("read"));
    let pebble_root = https_get(&test_roots, "localhost", pebble_admin, "/roots/0")
        .await
        .expect("pebble's root");
    assert_eq!(pebble_root.status, 200, "{}", pebble_root.body);
    // Only what pebble issues is trusted from here on.
    let roots = roots_from_pem(pebble_root.body.as_bytes());

    let app_command = || {
        let mut command = boneyard(&dir, http_port, https_port);
        command
            .args(["--https", DOMAIN, "--acme-email", "secretary@boneyard.test"])
            .arg("--acme-directory")
            .arg(format!("https://localhost:{acme_port}/dir"))
            .arg("--acme-directory-ca")
            .arg(&test_ca);
        command
    };
    let mut app = Process::start(&mut app_command(), dir.join("app.log"));
    let home = wait_for_https(&roots, https_port, &mut app, Duration::from_secs(90)).await;
    assert_eq!(home.status, 200, "{}", home.body);
    assert!(
        home.body.contains("Boneyard"),
        "the first-run page over https"
    );
    assert!(
        hsts_max_age(&home.headers).is_some_and(|age| age >= 365 * 86_400),
        "Strict-Transport-Security for a year: {:?}",
        home.headers.get(http::header::STRICT_TRANSPORT_SECURITY)
    );
    assert!(
        cookies_all_secure(&home.headers),
        "cookies over https are Secure"
    );
    assert_http_redirects(http_port, &format!("https://{DOMAIN}:{https_port}")).await;

    // Kept in its folder, readable by the server's user alone.
    let cache = dir.join("acme");
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(&cache)
            .expect("the certificate folder")
            .permissions(),
    );
    assert_eq!(mode & 0o077, 0, "the folder holds private keys: {mode:o}");
    let kept: Vec<_> = std::fs::read_dir(&cache)
        .expect("read the folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    assert!(
        kept.iter().any(|name| name.starts_with("cached_cert_")),
        "the certificate is kept: {kept:?}"
    );

    // A restart serves the kept certificate without asking for another.
    let first = home.leaf;
    app.stop();
    let mut app = Process::start(&mut app_command(), dir.join("app-again.log"));
    let again = wait_for_https(&roots, https_port, &mut app, Duration::from_secs(30)).await;
    assert_eq!(again.status, 200);
    assert!(again.leaf == first, "after a restart, the kept certificate");

    // Renewed before it expires: every answer meanwhile passes rustls'
    // check of the dates, and a new certificate arrives.
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        app.assert_running();
        let reply = https_get(&roots, DOMAIN, https_port, "/healthz")
            .await
            .unwrap_or_else(|e| panic!("https while renewing: {e}\n{}", app.log()));
        if reply.leaf != first {
            assert_eq!(reply.status, 200);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no renewal in two minutes:\n{}\n{}",
            app.log(),
            pebble.log()
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    drop(app);
    drop(pebble);
    drop(dns);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_certificate_of_ones_own_serves_https_and_http_redirects_to_it() {
    let dir = empty_dir("tls-files");
    let (ca, cert, key) = test_certificate(&dir, DOMAIN);
    let roots = roots_from_pem(&std::fs::read(&ca).expect("read"));
    let (http_port, https_port) = (free_port(), free_port());
    let public = format!("https://{DOMAIN}:{https_port}");

    // Mistakes stop it at once, saying which flag.
    let without_address = boneyard(&dir, http_port, https_port)
        .arg("--tls-cert")
        .arg(&cert)
        .arg("--tls-key")
        .arg(&key)
        .output()
        .expect("run");
    assert!(!without_address.status.success());
    assert!(String::from_utf8_lossy(&without_address.stderr).contains("--public-url"));
    let other_dir = dir.join("other");
    std::fs::create_dir_all(&other_dir).expect("a folder");
    let (_, _, other_key) = test_certificate(&other_dir, DOMAIN);
    let wrong_key = boneyard(&dir, http_port, https_port)
        .arg("--tls-cert")
        .arg(&cert)
        .arg("--tls-key")
        .arg(&other_key)
        .args(["--public-url", &public])
        .output()
        .expect("run");
    assert!(
        !wrong_key.status.success(),
        "a key that is not the certificate's"
    );
    assert!(
        String::from_utf8_lossy(&wrong_key.stderr).contains("--tls-key"),
        "{}",
        String::from_utf8_lossy(&wrong_key.stderr)
    );

    let mut app = Process::start(
        boneyard(&dir, http_port, https_port)
            .arg("--tls-cert")
            .arg(&cert)
            .arg("--tls-key")
            .arg(&key)
            .args(["--public-url", &public]),
        dir.join("app.log"),
    );
    let home = wait_for_https(&roots, https_port, &mut app, Duration::from_secs(30)).await;
    assert_eq!(home.status, 200, "{}", home.body);
    let served = CertificateDer::from_pem_file(&cert).expect("the certificate");
    assert!(
        home.leaf == served.to_vec(),
        "the certificate given is the one served"
    );
    assert!(hsts_max_age(&home.headers).is_some_and(|age| age >= 365 * 86_400));
    assert_http_redirects(http_port, &public).await;
    drop(app);
    let _ = std::fs::remove_dir_all(&dir);
}
