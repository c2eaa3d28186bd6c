// Live scores: fetch this same page every few seconds and swap in its
// boards, so a follower at home sees each hand without reloading. The page
// reads the same without this script (it then refreshes itself).
(function () {
  var box = document.getElementById("live-boards");
  if (!box || !window.fetch || !window.DOMParser) return;
  var every = (parseInt(box.getAttribute("data-live-refresh"), 10) || 5) * 1000;
  function refresh() {
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("live-boards");
        if (fresh && fresh.innerHTML !== box.innerHTML) box.innerHTML = fresh.innerHTML;
      })
      .catch(function () {})
      .then(function () { setTimeout(refresh, every); });
  }
  setTimeout(refresh, every);
})();
