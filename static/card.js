// Live card check: while a game is typed, ask the server to check the card
// (the same "Check the card" a plain submit does) and show each game's
// totals and errors in place. Nothing is saved; without this script the
// Check button does the same.
(function () {
  var form = document.getElementById("card");
  if (!form || !window.fetch || !window.DOMParser) return;
  var timer = null;
  var seq = 0;
  function check() {
    var body = new URLSearchParams(new FormData(form));
    body.set("action", "check");
    var mine = ++seq;
    // getAttribute: the buttons named "action" hide the form's own .action.
    fetch(form.getAttribute("action"), { method: "POST", body: body, credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        if (mine !== seq) return; // a newer check is on its way
        var doc = new DOMParser().parseFromString(html, "text/html");
        document.querySelectorAll(".game-result").forEach(function (el) {
          var fresh = doc.getElementById(el.id);
          if (fresh) el.innerHTML = fresh.innerHTML;
        });
      })
      .catch(function () {});
  }
  form.addEventListener("input", function (e) {
    // Hands typed, players chosen, or a final score's two numbers.
    var tag = e.target.tagName;
    if (tag !== "TEXTAREA" && tag !== "SELECT" && tag !== "INPUT") return;
    clearTimeout(timer);
    timer = setTimeout(check, 600);
  });
})();
