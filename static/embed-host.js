// For a page that shows a Boneyard widget in an <iframe
// data-boneyard-embed ...>: each frame takes the height its widget says
// it needs, so it never scrolls inside the page. Copy the <script> tag
// the league's console gives beside each widget; one tag serves every
// widget on the page. Only a frame's own widget can size it.
(function () {
  "use strict";
  var MOST = 20000;
  function frames() {
    return document.querySelectorAll("iframe[data-boneyard-embed]");
  }
  function originOf(frame) {
    try { return new URL(frame.src, document.baseURI).origin; } catch (e) { return null; }
  }
  window.addEventListener("message", function (e) {
    var d = e.data;
    if (!d || d.boneyard !== "embed-height" || typeof d.height !== "number") return;
    var all = frames();
    for (var i = 0; i < all.length; i++) {
      var f = all[i];
      if (f.contentWindow !== e.source || originOf(f) !== e.origin) continue;
      var h = Math.max(0, Math.min(MOST, Math.ceil(d.height)));
      f.style.height = h + "px";
      f.setAttribute("data-boneyard-height", String(h));
      // Sized from here on: the widget need not keep room for a scrollbar
      // (which, coming and going, would change its height again).
      e.source.postMessage({ boneyard: "embed-sized" }, e.origin);
    }
  });
  // A widget that loaded before this script could listen tells its height
  // again when asked.
  function ask() {
    var all = frames();
    for (var i = 0; i < all.length; i++) {
      var origin = originOf(all[i]);
      if (origin && all[i].contentWindow) {
        all[i].contentWindow.postMessage({ boneyard: "embed-ask" }, origin);
      }
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ask);
  } else {
    ask();
  }
})();
