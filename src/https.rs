//! https by itself (issue 28): `serve --https DOMAIN` obtains a certificate
//! over ACME (RFC 8555, Let's Encrypt by default) and renews it when a third
//! of its life is left, keeping it and the account key in a folder of the
//! data; `--tls-cert`/`--tls-key` serve a certificate of one's own. Plain
//! http then only redirects to the public https address.
//!
//! rustls-acme answers the TLS-ALPN-01 challenge on the https port itself,
//! so nothing but port 443 has to reach the server for a certificate.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum_server::Handle;
use rustls::ServerConfig;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use rustls_acme::AcmeConfig;
use rustls_acme::caches::DirCache;

/// Let's Encrypt's production directory, the default ACME server.
pub const LETS_ENCRYPT: &str = "https://acme-v02.api.letsencrypt.org/directory";

/// Where https is served and with which certificate.
#[derive(Debug, Clone)]
pub struct Https {
    pub listen: SocketAddr,
    pub certificate: Certificate,
}

#[derive(Debug, Clone)]
pub enum Certificate {
    Acme(Acme),
    /// A certificate chain and its private key, PEM.
    Files {
        cert: PathBuf,
        key: PathBuf,
    },
}

#[derive(Debug, Clone)]
pub struct Acme {
    pub domains: Vec<String>,
    pub email: Option<String>,
    pub directory: String,
    /// Extra roots (PEM) trusted for the ACME server's own https: a
    /// private ACME server such as a test one.
    pub directory_ca: Option<PathBuf>,
    /// Where the certificate and the account key are kept.
    pub cache: PathBuf,
}

/// A domain a certificate can name: letters, digits and hyphens in dotted
/// labels (no address, port or scheme).
pub fn check_domain(domain: &str) -> Result<(), String> {
    let good_label = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    if domain.len() > 253 || !domain.split('.').all(good_label) {
        return Err(format!(
            "--https `{domain}`: give the name people type, as league.example.org (no scheme, port or path)"
        ));
    }
    if domain.parse::<std::net::IpAddr>().is_ok() || !domain.contains('.') {
        return Err(format!(
            "--https `{domain}`: a certificate authority certifies a domain name with a dot, not an address or a bare host name"
        ));
    }
    Ok(())
}

impl Https {
    /// Reads a certificate of one's own now, so a wrong file stops the
    /// start with its name rather than the first visitor's handshake.
    pub fn check(&self) -> Result<(), String> {
        match &self.certificate {
            Certificate::Files { cert, key } => files_config(cert, key).map(drop),
            Certificate::Acme(_) => Ok(()),
        }
    }
}

/// The public address https makes when none is given: the first domain,
/// with the port unless it is https's own.
pub fn default_public_url(https: &Https) -> Option<String> {
    let Certificate::Acme(acme) = &https.certificate else {
        return None;
    };
    let domain = acme.domains.first()?;
    Some(match https.listen.port() {
        443 => format!("https://{domain}"),
        port => format!("https://{domain}:{port}"),
    })
}

/// Serves `app` over https until `handle` shuts it down.
pub async fn serve(https: Https, app: Router, handle: Handle<SocketAddr>) -> Result<(), String> {
    let listen = https.listen;
    let service = app.into_make_service_with_connect_info::<SocketAddr>();
    let served = match https.certificate {
        Certificate::Files { cert, key } => {
            let config = axum_server::tls_rustls::RustlsConfig::from_config(Arc::new(
                files_config(&cert, &key)?,
            ));
            axum_server::bind_rustls(listen, config)
                .handle(handle)
                .serve(service)
                .await
        }
        Certificate::Acme(acme) => {
            let acceptor = acme_acceptor(acme)?;
            axum_server::bind(listen)
                .acceptor(acceptor)
                .handle(handle)
                .serve(service)
                .await
        }
    };
    served.map_err(|e| format!("serving https on {listen}: {e}"))
}

/// Both HTTP versions, offered in the TLS handshake.
fn with_alpn(mut config: ServerConfig) -> ServerConfig {
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    config
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn files_config(cert: &Path, key: &Path) -> Result<ServerConfig, String> {
    let chain = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("--tls-cert {}: {e}", cert.display()))?;
    if chain.is_empty() {
        return Err(format!(
            "--tls-cert {}: no certificate in the file (PEM, BEGIN CERTIFICATE)",
            cert.display()
        ));
    }
    let private = rustls::pki_types::PrivateKeyDer::from_pem_file(key)
        .map_err(|e| format!("--tls-key {}: {e}", key.display()))?;
    let config = ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(|e| {
            format!(
                "--tls-cert {} with --tls-key {}: {e}",
                cert.display(),
                key.display()
            )
        })?;
    Ok(with_alpn(config))
}

/// Starts obtaining (or loading) the certificate in the background and
/// returns the acceptor that serves it and answers the ACME challenge.
fn acme_acceptor(acme: Acme) -> Result<rustls_acme::axum::AxumAcceptor, String> {
    private_folder(&acme.cache)?;
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(file) = &acme.directory_ca {
        let extra = CertificateDer::pem_file_iter(file)
            .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
            .map_err(|e| format!("--acme-directory-ca {}: {e}", file.display()))?;
        let (added, _) = roots.add_parsable_certificates(extra);
        if added == 0 {
            return Err(format!(
                "--acme-directory-ca {}: no certificate in the file",
                file.display()
            ));
        }
    }
    let client = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let domains = acme.domains.join(", ");
    let mut state = AcmeConfig::new_with_client_config(&acme.domains, Arc::new(client))
        .contact(acme.email.iter().map(|e| format!("mailto:{e}")))
        .cache(DirCache::new(acme.cache.clone()))
        .directory(&acme.directory)
        .state();
    let config = ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_cert_resolver(state.resolver());
    let acceptor = state.axum_acceptor(Arc::new(with_alpn(config)));
    tracing::info!(
        "https for {domains}: certificate from {} kept in {}",
        acme.directory,
        acme.cache.display()
    );
    tokio::spawn(async move {
        use futures_util::StreamExt;
        while let Some(event) = state.next().await {
            match event {
                Ok(rustls_acme::EventOk::DeployedNewCert) => {
                    tracing::info!("https: a new certificate for {domains} is in use")
                }
                Ok(rustls_acme::EventOk::DeployedCachedCert) => {
                    tracing::info!("https: the kept certificate for {domains} is in use")
                }
                Ok(other) => tracing::debug!("https: {other:?}"),
                Err(e) => tracing::warn!("https: certificate for {domains}: {e}"),
            }
        }
    });
    Ok(acceptor)
}

/// The certificate folder holds private keys: only its owner reads it.
fn private_folder(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .and_then(|()| std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)))
        .map_err(|e| format!("--acme-cache {}: {e}", dir.display()))
}

/// Plain http once https is on: every request is sent to the same path at
/// the public https address (never a host the request named).
pub fn redirect_router(public_url: &str) -> Router {
    let base = public_url.trim_end_matches('/').to_owned();
    Router::new().fallback(move |request: Request| {
        let base = base.clone();
        async move { redirect(&base, &request) }
    })
}

fn redirect(base: &str, request: &Request) -> Response {
    let path = request.uri().path_and_query().map_or("/", |p| p.as_str());
    match HeaderValue::from_str(&format!("{base}{path}")) {
        Ok(location) => (
            StatusCode::PERMANENT_REDIRECT,
            [(header::LOCATION, location)],
        )
            .into_response(),
        Err(_) => StatusCode::BAD_REQUEST.into_response(),
    }
}
