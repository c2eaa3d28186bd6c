// Live scores. Where the browser has EventSource, the server pushes each
// saved tap (server-sent events): the board it changed, rendered, and its
// totals; the board is swapped in place, a changed total is announced to
// screen readers, and a small line says "live" or "reconnecting...". A
// stream the server refuses (too many) or a browser without EventSource
// falls back to fetching this same page every few seconds and swapping its
// boards in. The page reads the same without this script (it then
// refreshes itself).
(function () {
  var box = document.getElementById("live-boards");
  if (!box || !window.fetch || !window.DOMParser) return;
  var every = (parseInt(box.getAttribute("data-live-refresh"), 10) || 5) * 1000;
  var screen = box.hasAttribute("data-live-screen");
  var status = document.getElementById("live-status");
  var say = document.getElementById("live-say");

  function show(state, text) {
    if (!status) return;
    status.hidden = false;
    status.setAttribute("data-state", state);
    status.textContent = text;
  }

  // The page fetched again, its boards swapped in; a board this page holds
  // newer (an event came while the page was on its way) is kept.
  var fetching = false, again = false;
  function refresh(then) {
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("live-boards");
        if (!fresh) return;
        Array.prototype.forEach.call(box.querySelectorAll("[data-board]"), function (mine) {
          var theirs = fresh.querySelector('[data-board="' + mine.getAttribute("data-board") + '"]');
          if (theirs && rev(mine) > rev(theirs)) theirs.parentNode.replaceChild(mine.cloneNode(true), theirs);
        });
        if (fresh.innerHTML !== box.innerHTML) box.innerHTML = fresh.innerHTML;
      })
      .catch(function () {})
      .then(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
        if (then) then();
      });
  }
  function rev(el) { return parseInt(el.getAttribute("data-rev"), 10) || 0; }

  function poll() { refresh(function () { setTimeout(poll, every); }); }

  // One board's event: swapped in place when the page shows the board and
  // its shape stays (still in play, or still won); otherwise (a new board,
  // a board just won, which changes the counts above) the page is read
  // again.
  function apply(ev) {
    var item = box.querySelector('[data-board="' + ev.key + '"]');
    // A board new to this page, or an event too long to carry the board.
    if (!item || !ev.line) { refresh(); return; }
    if (ev.revision <= rev(item)) return;
    var before = item.querySelectorAll(screen ? ".screen-total" : ".total");
    var was = Array.prototype.map.call(before, function (t) { return t.textContent; }).join("–");
    if ((item.getAttribute("data-over") === "1") !== ev.over) {
      refresh();
    } else {
      var part = item.querySelector("[data-live-part]");
      if (part) part.innerHTML = screen ? ev.screen : ev.line;
      item.setAttribute("data-rev", ev.revision);
    }
    var now = ev.totals[0] + "–" + ev.totals[1];
    if (say && now !== was) say.textContent = ev.caption + ": " + ev.sides[0] + " " + ev.totals[0] + ", " + ev.sides[1] + " " + ev.totals[1] + ".";
  }

  var url = box.getAttribute("data-live-events");
  if (!url || !window.EventSource || !window.JSON) {
    setTimeout(poll, every);
    return;
  }
  var source = new EventSource(url);
  source.onopen = function () { show("live", "live"); };
  source.onerror = function () {
    if (source.readyState === 2) {
      // Refused (the server holds as many streams as it may) or gone:
      // read the page every few seconds instead.
      if (status) status.hidden = true;
      setTimeout(poll, every);
    } else {
      show("reconnecting", "reconnecting...");
    }
  };
  source.addEventListener("board", function (e) {
    var ev;
    try { ev = JSON.parse(e.data); } catch (x) { return; }
    apply(ev);
  });
  // Events were missed (away too long): the page once.
  source.addEventListener("reset", function () { refresh(); });
  // A match's result coming in (or a walkover, a void) arrives as an event
  // for no board (board 0), which reads the page again above; anything
  // else a tap does not say is still read, slowly.
  (function slow() { setTimeout(function () { if (source.readyState !== 2) refresh(); slow(); }, 60000); })();
})();
