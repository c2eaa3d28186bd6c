// A widget in another site's frame tells that page its height, so the
// frame can take it (static/embed-host.js, which the host page loads):
// when it loads, whenever its content changes size (the live boards
// refresh themselves), and when the host asks. Without either script the
// frame keeps the height the host gave it and scrolls.
"use strict";
(function () {
  if (window.parent === window) return;
  var last = -1;
  function height() {
    return Math.ceil(document.documentElement.getBoundingClientRect().height);
  }
  function tell(always) {
    var h = height();
    if (!always && h === last) return;
    last = h;
    // Any page may frame a widget, and a height tells nothing private.
    window.parent.postMessage({ boneyard: "embed-height", height: h }, "*");
  }
  window.addEventListener("load", function () { tell(true); });
  window.addEventListener("resize", function () { tell(false); });
  window.addEventListener("message", function (e) {
    if (e.source !== window.parent || !e.data) return;
    if (e.data.boneyard === "embed-ask") tell(true);
    // The host sizes the frame: no scrollbar of the frame's own.
    if (e.data.boneyard === "embed-sized") document.documentElement.classList.add("sized");
  });
  if (window.ResizeObserver) {
    new ResizeObserver(function () { tell(false); }).observe(document.documentElement);
  }
  tell(true);
})();
