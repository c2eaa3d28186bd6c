// The score pad's service worker: keeps the last copy of each pad page and
// the site's files, so a pad reloaded with no signal still opens; the
// pad's script then restores the taps kept on the phone. Everything else
// goes to the network as usual.
var CACHE = "boneyard-pad-v1";
// How long a pad's page waits for the network before the phone's copy
// answers: a weak signal may take the connection and never answer, and a
// captain at the table cannot wait on it.
var PATIENCE = 3000;

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (e) { e.waitUntil(self.clients.claim()); });

function isPad(url) { return /^\/leagues\/[^/]+\/matches\/\d+\/pad\/\d+$/.test(url.pathname); }

// The network's page, or this phone's copy if the network has not
// answered within PATIENCE (or failed); with no copy, the network however
// long it takes. A page that comes late still renews the copy.
function padPage(req, url) {
  return caches.open(CACHE).then(function (c) {
    var network = fetch(req).then(function (res) {
      if (res.ok) c.put(url.pathname, res.clone());
      return res;
    });
    return c.match(url.pathname).then(function (kept) {
      if (!kept) return network;
      return new Promise(function (resolve) {
        var done = false;
        function answer(res) {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve(res);
        }
        var timer = setTimeout(function () { answer(kept); }, PATIENCE);
        network.then(answer, function () { answer(kept); });
      });
    });
  });
}

self.addEventListener("fetch", function (e) {
  var req = e.request;
  if (req.method !== "GET") return;
  var url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === "navigate" && isPad(url)) {
    // The network first, the server's page being the truth; the phone's
    // copy when the network fails or keeps it waiting.
    e.respondWith(padPage(req, url).then(function (res) {
      return res || Response.error();
    }));
    return;
  }
  if (url.pathname.indexOf("/static/") === 0) {
    e.respondWith(caches.open(CACHE).then(function (c) {
      return c.match(req).then(function (hit) {
        return hit || fetch(req).then(function (res) {
          if (res.ok) c.put(req, res.clone());
          return res;
        });
      });
    }));
  }
});
