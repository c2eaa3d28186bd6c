// The score pad's service worker: keeps the last copy of each pad page and
// the site's files, so a pad reloaded with no signal still opens; the
// pad's script then restores the taps kept on the phone. Everything else
// goes to the network as usual.
var CACHE = "boneyard-pad-v1";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (e) { e.waitUntil(self.clients.claim()); });

function isPad(url) { return /^\/leagues\/[^/]+\/matches\/\d+\/pad\/\d+$/.test(url.pathname); }

self.addEventListener("fetch", function (e) {
  var req = e.request;
  if (req.method !== "GET") return;
  var url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === "navigate" && isPad(url)) {
    // The network first: the server's page is the truth. Offline, the last
    // copy of this board's page.
    e.respondWith(fetch(req).then(function (res) {
      if (res.ok) {
        var copy = res.clone();
        caches.open(CACHE).then(function (c) { c.put(url.pathname, copy); });
      }
      return res;
    }).catch(function () {
      return caches.open(CACHE).then(function (c) { return c.match(url.pathname); })
        .then(function (hit) { return hit || Response.error(); });
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
