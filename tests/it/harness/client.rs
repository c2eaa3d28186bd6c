//! A tiny browser for in-process tests: keeps the session cookie, reads
//! form tokens out of pages, sends forms.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use boneyard::db::Db;
use boneyard::web::{AppState, Settings, build_app};
use http_body_util::BodyExt;
use tower::ServiceExt;

pub struct Client {
    app: Router,
    pub cookie: Option<String>,
    /// The browser's trust token cookie, once a sign-in gave it one.
    pub device: Option<String>,
    /// The address the requests come from, as a proxy in front of an app
    /// built with [`Client::behind_proxy`] reports it.
    pub address: Option<String>,
}

#[derive(Debug)]
pub struct Page {
    pub status: StatusCode,
    pub location: Option<String>,
    pub headers: axum::http::HeaderMap,
    pub body: String,
}

impl Page {
    /// The `csrf` hidden field of the page's (first) form.
    pub fn csrf(&self) -> String {
        let marker = "name=\"csrf\" value=\"";
        let start = self.body.find(marker).expect("a form with a csrf field") + marker.len();
        self.body[start..].split('"').next().unwrap().to_owned()
    }

    pub fn has(&self, text: &str) -> bool {
        self.body.contains(text)
    }
}

impl Client {
    pub async fn new(db: &Db) -> Client {
        let app = build_app(AppState::new(db.clone()), Settings::default())
            .await
            .expect("the app builds");
        Client {
            app,
            cookie: None,
            device: None,
            address: None,
        }
    }

    /// A client of an app the test built itself (whose state it holds
    /// too: the live scores' hub, say).
    pub fn on(app: Router) -> Client {
        Client {
            app,
            cookie: None,
            device: None,
            address: None,
        }
    }

    /// An app behind a proxy that says where each request came from: set
    /// [`Client::address`].
    pub async fn behind_proxy(db: &Db) -> Client {
        let settings = Settings {
            behind_proxy: true,
            ..Settings::default()
        };
        let app = build_app(AppState::new(db.clone()), settings)
            .await
            .expect("the app builds");
        Client {
            app,
            cookie: None,
            device: None,
            address: None,
        }
    }

    /// A browser on an app with the operator's `--public-url`.
    pub async fn with_public_url(db: &Db, url: &str) -> Client {
        let state =
            AppState::with_mail(db.clone(), boneyard::app::mail::MailConfig::configured(url));
        let app = build_app(state, Settings::default())
            .await
            .expect("the app builds");
        Client {
            app,
            cookie: None,
            device: None,
            address: None,
        }
    }

    /// Another browser on the same app: no cookie, the same address.
    pub fn stranger(&self) -> Client {
        Client {
            app: self.app.clone(),
            cookie: None,
            device: None,
            address: self.address.clone(),
        }
    }

    /// The request with this browser's cookies and address.
    fn sent_from_here(
        &self,
        mut req: axum::http::request::Builder,
    ) -> axum::http::request::Builder {
        let cookies: Vec<&str> = [self.cookie.as_deref(), self.device.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        if !cookies.is_empty() {
            req = req.header(header::COOKIE, cookies.join("; "));
        }
        if let Some(a) = &self.address {
            req = req.header("x-forwarded-for", a);
        }
        req
    }

    async fn send(&mut self, req: Request<Body>) -> Page {
        let res = self.app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let headers = res.headers().clone();
        for set in headers.get_all(header::SET_COOKIE) {
            let set = set.to_str().unwrap();
            let pair = set.split(';').next().unwrap().to_owned();
            if pair.starts_with("boneyard_device=") {
                self.device = Some(pair);
            } else if set.contains("Max-Age=0") {
                // An expired cookie is the server ending the session.
                self.cookie = None;
            } else {
                self.cookie = Some(pair);
            }
        }
        let location = headers
            .get(header::LOCATION)
            .map(|l| l.to_str().unwrap().to_owned());
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        Page {
            status,
            location,
            headers,
            body: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    pub async fn get(&mut self, path: &str) -> Page {
        let mut req = Request::get(path);
        req = self.sent_from_here(req);
        self.send(req.body(Body::empty()).unwrap()).await
    }

    /// A GET with headers of the test's own (`If-None-Match`, ...).
    pub async fn get_with(&mut self, path: &str, headers: &[(&str, &str)]) -> Page {
        let mut req = Request::get(path);
        req = self.sent_from_here(req);
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        self.send(req.body(Body::empty()).unwrap()).await
    }

    /// A request of any method with no body (`OPTIONS`, `HEAD`).
    pub async fn request(&mut self, method: &str, path: &str) -> Page {
        let mut req = Request::builder().method(method).uri(path);
        req = self.sent_from_here(req);
        self.send(req.body(Body::empty()).unwrap()).await
    }

    /// Sends a form as a browser would: url-encoded fields, the cookie.
    pub async fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Page {
        let body = serde_urlencoded::to_string(fields).unwrap();
        let mut req =
            Request::post(path).header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        req = self.sent_from_here(req);
        self.send(req.body(Body::from(body)).unwrap()).await
    }

    /// Posts JSON as a page's script does, with the form token in the
    /// `X-CSRF-Token` header (none when `csrf` is empty).
    pub async fn post_json(&mut self, path: &str, json: &serde_json::Value, csrf: &str) -> Page {
        let mut req = Request::post(path).header(header::CONTENT_TYPE, "application/json");
        if !csrf.is_empty() {
            req = req.header("x-csrf-token", csrf);
        }
        req = self.sent_from_here(req);
        self.send(req.body(Body::from(json.to_string())).unwrap())
            .await
    }

    /// Sends a multipart form as a browser does for a file input: each
    /// part `(name, file name, bytes)`.
    pub async fn post_multipart(
        &mut self,
        path: &str,
        parts: &[(&str, Option<&str>, &[u8])],
    ) -> Page {
        let boundary = "----boneyard-test-boundary";
        let mut body = Vec::new();
        for (name, file, data) in parts {
            body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
            let disposition = match file {
                Some(f) => format!(
                    "Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\n\
                     Content-Type: application/json\r\n\r\n"
                ),
                None => format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n"),
            };
            body.extend_from_slice(disposition.as_bytes());
            body.extend_from_slice(data);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        let mut req = Request::post(path).header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={boundary}"),
        );
        req = self.sent_from_here(req);
        self.send(req.body(Body::from(body)).unwrap()).await
    }

    /// Fetches `form_page`, then posts `fields` to `action` with its token.
    pub async fn submit(&mut self, form_page: &str, action: &str, fields: &[(&str, &str)]) -> Page {
        let page = self.get(form_page).await;
        assert_eq!(page.status, StatusCode::OK, "{form_page}: {}", page.body);
        let token = page.csrf();
        let mut all = vec![("csrf", token.as_str())];
        all.extend_from_slice(fields);
        self.post(action, &all).await
    }
}

pub const ADMIN_PASSWORD: &str = "correct horse battery";

/// A client signed in as the installation's first administrator, `admin`.
pub async fn admin(db: &Db) -> Client {
    let mut c = Client::new(db).await;
    let page = c
        .submit(
            "/setup",
            "/setup",
            &[
                ("username", "admin"),
                ("password", ADMIN_PASSWORD),
                ("confirm", ADMIN_PASSWORD),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.body);
    c
}

impl Client {
    /// Signs in through the form, as a person would.
    pub async fn sign_in(&mut self, username: &str, password: &str) {
        let page = self
            .submit(
                "/sign-in",
                "/sign-in",
                &[("username", username), ("password", password)],
            )
            .await;
        assert_eq!(
            page.status,
            StatusCode::SEE_OTHER,
            "sign in {username}: {}",
            page.body
        );
    }
}

/// An account with `password`, made straight in the database.
pub async fn account(db: &Db, username: &str, password: &str) -> boneyard::db::UserId {
    let hash = boneyard::web::auth::hash_password(password.to_owned())
        .await
        .unwrap();
    db.create_user(username, &hash).await.unwrap().id
}
