// The score pad, made better by a script: taps are taken at once, kept on
// the phone (so a reload, a locked screen or no signal loses nothing) and
// sent to the server, which checks each with the scoring engine and is the
// authority. Without this script the same page works as plain forms.
(function () {
  "use strict";
  var root = document.getElementById("pad");
  if (!root || !window.fetch || !window.localStorage || !window.FormData) return;
  var D;
  try { D = JSON.parse(root.getAttribute("data-pad")); } catch (e) { return; }
  // The board replayed from its taps (static/pad-score.js, loaded first),
  // under the rules the server resolved: without them, no script.
  var S = window.BoneyardPad && window.BoneyardPad.scorer(D);
  if (!S) return;
  var fmt = D.format, R = D.rules, n = D.kind === "pairs" ? 4 : 2;
  var replay = S.replay, phase = S.phase, nameOf = window.BoneyardPad.nameOf;

  // ---- what the phone keeps ----

  // Taps are compared by meaning: the same tap may be written with its keys
  // in another order, or with an empty or absent list of pips.
  function canon(v) {
    if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
    if (v && typeof v === "object") {
      return "{" + Object.keys(v).filter(function (k) {
        var x = v[k];
        return x !== undefined && x !== null && !(k === "pips" && Array.isArray(x) && !x.length);
      }).sort().map(function (k) { return JSON.stringify(k) + ":" + canon(v[k]); }).join(",") + "}";
    }
    return JSON.stringify(v);
  }
  function same(a, b) { return canon(a) === canon(b); }
  // How many taps two logs share from the start.
  function common(a, b) {
    var i = 0;
    while (i < a.length && i < b.length && same(a[i], b[i])) i++;
    return i;
  }

  // `saved`: how many of `taps` the server is known to hold. `aside`: taps
  // of this phone the server did not take (another phone's taps came first,
  // a refusal, the match closed), kept until someone puts them back or
  // discards them: a phone never throws away a tap silently.
  var state = { taps: D.taps.slice(), revision: D.revision, saved: D.taps.length, aside: [] };
  var message = null, sending = false, offline = false, selected = null;
  // Whether the server has answered since the page opened: until then the
  // page (perhaps this phone's own copy, opened with no signal) may be old.
  var confirmed = !D.open, offlineReady = false;
  function setAside(taps, why, whole) {
    if (!taps.length) return;
    state.aside.push({ taps: taps, why: why, whole: whole, at: new Date().toISOString() });
  }
  try {
    var kept = JSON.parse(localStorage.getItem(D.store) || "null");
    if (kept && Array.isArray(kept.taps)) {
      state.aside = Array.isArray(kept.aside) ? kept.aside : [];
      var c = common(kept.taps, state.taps);
      if (c === state.taps.length) {
        // The phone holds what the page holds, and perhaps more.
        state.taps = kept.taps;
        state.saved = Math.max(state.saved, Math.min(kept.saved || 0, kept.taps.length));
      } else if (c < kept.taps.length) {
        // The board went another way on the server: this phone's own taps
        // past the common start are kept aside, not lost.
        setAside(kept.taps.slice(c), "The server holds other taps for this board (another phone kept it).", kept.taps);
      }
    }
  } catch (e) { /* a broken store is started afresh */ }
  function keep() {
    try {
      localStorage.setItem(D.store, JSON.stringify({ taps: state.taps, saved: state.saved, aside: state.aside }));
    } catch (e) { /* full */ }
  }
  keep();

  // ---- talking to the server ----

  function sync() {
    if (sending || !D.open) return;
    if (confirmed && state.taps.length === state.saved) { render(); return; }
    sending = true;
    var sent = state.taps.slice();
    render();
    // A request the signal left hanging is given up after a while, so it
    // cannot hold back every later sync (they wait while one is sending).
    var abort = window.AbortController ? new AbortController() : null;
    var timer = abort && setTimeout(function () { abort.abort(); }, 10000);
    fetch(D.sync, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": D.csrf },
      body: JSON.stringify({ taps: sent }),
      signal: abort ? abort.signal : undefined
    }).then(function (r) {
      return r.json().then(function (body) { return { status: r.status, body: body }; });
    }).then(function (res) {
      clearTimeout(timer);
      sending = false;
      offline = false;
      var body = res.body;
      if (!body || !Array.isArray(body.taps)) throw new Error("bad reply");
      var mine = state.taps, server = body.taps, c = common(mine, server);
      state.revision = body.revision;
      // Taps kept aside that the server holds after all are let go.
      state.aside = state.aside.filter(function (g) { return !g.whole || common(server, g.whole) < g.whole.length; });
      if (c === server.length && server.length < sent.length) {
        // The server took only the start of what was sent.
        var why = body.refused ? "Tap " + (body.refused.index + 1) + " was refused by the server: " + body.refused.reason
          : (body.conflict || "The server did not take them.");
        setAside(mine.slice(server.length), why, mine);
        state.taps = server.slice();
        message = { error: true, text: why + " The taps it did not take are kept on this phone, below." };
      } else if (c === server.length) {
        // Taken as sent; taps made while it was on its way are kept, after
        // the server's own words for the taps it holds.
        state.taps = server.concat(mine.slice(server.length));
      } else if (c === mine.length) {
        // The server holds this phone's taps and more (another phone's).
        state.taps = server.slice();
      } else {
        var text = body.conflict || "Another phone has been keeping this board.";
        setAside(mine.slice(c), text, mine);
        state.taps = server.slice();
        message = { error: true, text: text + " This phone's taps that the server did not take are kept below: put them back or discard them." };
      }
      state.saved = server.length;
      confirmed = true;
      keep();
      render();
      if (state.taps.length > state.saved) sync();
    }).catch(function () {
      clearTimeout(timer);
      sending = false;
      offline = true;
      render();
      setTimeout(sync, 4000);
    });
  }
  window.addEventListener("online", sync);

  // A second phone keeping the same board: the server pushes each tap
  // saved for the match (server-sent events), and one for this board newer
  // than this phone holds is fetched at once (a sync answers with the
  // server's taps), instead of waiting for this phone's next tap. On each
  // (re)connection too, for what came while the stream was down.
  function pull() {
    confirmed = false;
    if (sending) setTimeout(pull, 300); else sync();
  }
  if (window.EventSource && D.events && D.open) {
    var stream = new EventSource(D.events);
    var opened = false;
    stream.onopen = function () { if (opened) pull(); opened = true; };
    stream.addEventListener("board", function (e) {
      var ev;
      try { ev = JSON.parse(e.data); } catch (x) { return; }
      if (ev.board === D.board && ev.revision > state.revision) pull();
    });
  }

  // The page and its files, kept on the phone from the first open, so that
  // a reload with no signal opens this pad (the service worker answers
  // with this copy; see /pad-sw.js).
  function keepForOffline() {
    if (!window.caches || !("serviceWorker" in navigator) || !D.open) return;
    var files = [];
    document.querySelectorAll("link[rel=stylesheet][href], script[src]").forEach(function (el) {
      var u = new URL(el.getAttribute("href") || el.getAttribute("src"), location.href);
      if (u.origin === location.origin) files.push(u.href);
    });
    function ready() {
      if (offlineReady) return;
      offlineReady = true;
      root.setAttribute("data-offline", "ready");
      render();
    }
    caches.open("boneyard-pad-v1").then(function (c) {
      // Kept by an earlier open, and this page answered by the service
      // worker: it opens without signal, which the sync line says at once,
      // whether or not the copy can be renewed now (an offline reload).
      Promise.all([c.match(location.pathname)].concat(files.map(function (f) { return c.match(f); })))
        .then(function (hits) {
          if (navigator.serviceWorker.controller && hits.every(Boolean)) ready();
        }).catch(function () {});
      // The copy renewed from the server, given up after a while on a
      // signal that takes the request and never answers.
      var abort = window.AbortController ? new AbortController() : null;
      var timer = abort && setTimeout(function () { abort.abort(); }, 20000);
      return Promise.all([
        fetch(location.href, { credentials: "same-origin", cache: "no-store", signal: abort ? abort.signal : undefined }).then(function (r) {
          clearTimeout(timer);
          if (!r.ok) throw new Error("not kept");
          return c.put(location.pathname, r);
        }),
        c.addAll(files),
        navigator.serviceWorker.ready
      ]);
    }).then(ready).catch(function () { /* it is kept on the next open instead */ });
  }

  // ---- taps kept aside ----

  function putBack(i) {
    var g = state.aside[i];
    if (!g) return;
    state.aside.splice(i, 1);
    var left = g.taps.slice(), done = 0;
    while (left.length) {
      var r = replay(state.taps.concat([left[0]]));
      if (r.error) break;
      state.taps.push(left.shift());
      done++;
    }
    if (left.length) {
      var why = replay(state.taps.concat([left[0]])).error.reason;
      setAside(left, "Could not be put back: " + why, null);
      message = { error: true, text: "Put back " + done + " tap" + (done === 1 ? "" : "s") + "; the next could not be: " + why + "." };
    } else {
      message = { error: false, text: "Put back " + done + " tap" + (done === 1 ? "" : "s") + "." };
    }
    keep();
    render();
    sync();
  }
  function discard(i) {
    var g = state.aside[i];
    if (!g) return;
    if (window.confirm && !window.confirm("Discard " + g.taps.length + " tap" + (g.taps.length === 1 ? "" : "s") + " that only this phone holds?")) return;
    state.aside.splice(i, 1);
    message = { error: false, text: "Discarded " + g.taps.length + " tap" + (g.taps.length === 1 ? "" : "s") + " kept aside." };
    keep();
    render();
  }
  // A tap in words, for taps kept aside (the board may have other players
  // by now, so the names come from the registered players).
  function looseWords(t) {
    var r = replay(state.taps).board;
    if (t.t === "players") {
      var nm = function (list, ids) { return ids.map(function (id) { return nameOf(list, id) || "player " + id; }).join(" & "); };
      return "players: " + nm(D.home, t.home) + " v " + nm(D.away, t.away);
    }
    return describe(r, t);
  }
  function renderAside() {
    var box = document.getElementById("pad-aside");
    if (!state.aside.length) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("section");
      box.id = "pad-aside";
      box.className = "pad-aside notice error";
      box.setAttribute("aria-labelledby", "pad-aside-title");
      var anchor = document.getElementById("pad-messages");
      anchor.parentNode.insertBefore(box, anchor.nextSibling);
    }
    box.innerHTML = "";
    var h = document.createElement("h2");
    h.id = "pad-aside-title";
    h.textContent = "Taps kept on this phone only";
    box.appendChild(h);
    state.aside.forEach(function (g, i) {
      var p = document.createElement("p");
      p.textContent = g.taps.length + " tap" + (g.taps.length === 1 ? "" : "s") + " the server did not take. " + g.why;
      box.appendChild(p);
      var ol = document.createElement("ol");
      ol.className = "aside-taps";
      g.taps.forEach(function (t) {
        var li = document.createElement("li");
        li.textContent = looseWords(t);
        ol.appendChild(li);
      });
      box.appendChild(ol);
      var row = document.createElement("p");
      row.className = "row";
      [["Put them back", putBack, ""], ["Discard them", discard, " secondary"]].forEach(function (b) {
        var btn = document.createElement("button");
        btn.type = "button";
        btn.className = "pad-btn" + b[2];
        btn.textContent = b[0];
        btn.setAttribute("aria-label", b[0] + ": " + g.taps.length + " tap" + (g.taps.length === 1 ? "" : "s") + " kept aside");
        btn.addEventListener("click", function () { b[1](i); });
        row.appendChild(btn);
      });
      box.appendChild(row);
    });
  }

  // ---- taps ----

  function tapFrom(form, submitter) {
    var f = new FormData(form);
    if (submitter && submitter.name) f.set(submitter.name, submitter.value);
    var t = f.get("t"), num = function (k) { return parseInt(f.get(k), 10); };
    var list = function (p) {
      var out = [];
      for (var i = 0; i < 4 && f.get(p + i) !== null; i++) out.push(f.get(p + i));
      return out;
    };
    switch (t) {
      case "players": return { t: t, home: list("home").map(Number), away: list("away").map(Number) };
      case "draw": return { t: t, tiles: list("tile") };
      case "pose": return { t: t, seat: num("seat") };
      case "play": return { t: t, seat: num("seat"), points: num("points") };
      case "out":
        var o = { t: t, seat: num("seat"), points: f.get("points") !== null ? num("points") : 0 };
        if (f.get("left") !== null) o.left = num("left");
        return o;
      case "blocked":
        // As the server writes it: no counts, no `pips`.
        var pips = list("pips").map(Number);
        return pips.length ? { t: t, pips: pips } : { t: t };
      case "abandoned": return { t: t };
      case "penalty":
        var p = { t: t, seat: num("seat"), kind: f.get("kind") };
        if (p.kind === "late") p.minutes = num("minutes");
        return p;
      case "undo": return { t: t };
    }
    return null;
  }

  // The line-up rule, against the other boards as the page was made (the
  // server checks again against the boards as they are).
  function lineUpClash(tap) {
    if (tap.t !== "players" || !D.others) return null;
    var most = (D.line_up || {})[D.kind] || 1, ids = tap.home.concat(tap.away);
    for (var i = 0; i < ids.length; i++) {
      var on = D.others.filter(function (o) { return o.kind === D.kind && o.players.indexOf(ids[i]) >= 0; })
        .map(function (o) { return o.board; });
      if (on.length >= most) {
        var who = nameOf(D.home, ids[i]) || nameOf(D.away, ids[i]) || "A player";
        return who + " already plays " + D.kind + " board" + (on.length === 1 ? " " : "s ") + on.join(", ") +
          ": a player plays at most " + most + " " + D.kind + " board" + (most === 1 ? "" : "s") + " a match";
      }
    }
    return null;
  }

  function take(tap) {
    var clash = lineUpClash(tap);
    if (clash) {
      message = { error: true, text: "Not taken: " + clash };
      render();
      return;
    }
    var next = state.taps.concat([tap]);
    var r = replay(next);
    if (r.error) {
      message = { error: true, text: "Not taken: " + r.error.reason };
      render();
      return;
    }
    state.taps = next;
    selected = null;
    root.querySelectorAll("details[open]").forEach(function (d) { d.open = false; });
    // Back to the players' buttons, under the score, for the next play.
    window.scrollTo(0, 0);
    message = { error: false, text: "Taken: " + describe(r.board, tap) + "." + (disregarded(r.board, tap) ?
      " Disregarded: it would take the side past " + R.target + ", so the total stays." : "") };
    keep();
    render();
    sync();
  }

  // Whether the tap just taken was a play the exact finish disregards.
  function disregarded(b, t) {
    if (t.t !== "play" && t.t !== "out") return false;
    var g = b.games[b.games.length - 1];
    if (!g || !g.hands.length) return false;
    var h = g.hands.length - 1, ho = g.out.hands[h];
    return !!ho && ho.dis.indexOf(g.hands[h].plays.length) >= 0;
  }

  function describe(b, t) {
    var nm = function (s) { return b.players[s] || "seat " + (s + 1); };
    switch (t.t) {
      case "players": return "players: " + b.players.join(", ");
      case "draw": return "the draw for pose";
      case "pose": return nm(t.seat) + " poses first";
      case "play": return nm(t.seat) + " " + t.points;
      case "out": return fmt === "fives-and-threes" ? nm(t.seat) + " out (" + t.points + " + 1)"
        : fmt === "all-fives" ? nm(t.seat) + " out, opponents hold " + (t.left || 0) : nm(t.seat) + " out";
      case "blocked": return "blocked";
      case "abandoned": return "hand abandoned";
      case "penalty": return "penalty: " + nm(t.seat) + " " + t.kind;
      case "undo": return "undo";
    }
    return "";
  }

  root.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.classList || !form.classList.contains("tap")) return;
    e.preventDefault();
    var tap = tapFrom(form, e.submitter);
    if (tap) take(tap);
  });
  root.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[data-seat]");
    if (!a) return;
    e.preventDefault();
    selected = parseInt(a.getAttribute("data-seat"), 10);
    render();
  });

  // ---- drawing the pad ----

  function bind(name) { return root.querySelectorAll('[data-bind="' + name + '"]'); }
  function set(name, text) { bind(name).forEach(function (el) { el.textContent = text; }); }

  function render() {
    var r = replay(state.taps), b = r.board, ph = phase(b);
    var sideName = function (s) {
      var names = b.players.filter(function (_, i) { return i % 2 === s; });
      return names.length ? names.join(" & ") : (s === 0 ? D.home_team : D.away_team);
    };
    var g = b.games[b.games.length - 1], o = g ? g.out : null;
    var totals = o ? o.totals : [0, 0];
    set("side0", sideName(0)); set("side1", sideName(1));
    set("total0", totals[0]); set("total1", totals[1]);
    bind("total0").forEach(function (el) { el.setAttribute("aria-label", sideName(0) + ": total"); });
    bind("total1").forEach(function (el) { el.setAttribute("aria-label", sideName(1) + ": total"); });
    set("games0", b.won[0]); set("games1", b.won[1]);
    var rotate = R.pose === "rotate", hand = 1, poser = "–", next = "the hand's winner";
    if (g) {
      var open = !o.finished && g.hands.length && !g.hands[g.hands.length - 1].end;
      if (open || o.finished) {
        hand = g.hands.length;
        poser = o.hands.length ? b.players[o.hands[o.hands.length - 1].poser] : "–";
        if (rotate || o.finished) next = b.players[o.next];
      } else {
        hand = g.hands.length + 1;
        poser = b.players[o.next];
        if (rotate) next = b.players[(o.next + 1) % n];
      }
    }
    set("game", Math.max(1, b.games.length)); set("hand", hand); set("poser", poser); set("next", next);
    var verdict = "";
    if (b.winner !== null) verdict = sideName(b.winner) + " won the board " + b.won[b.winner] + "–" + b.won[1 - b.winner] + ".";
    else if (o && o.finished) verdict = sideName(o.winner) + " won game " + b.games.length + ". Game " + (b.games.length + 1) + " opens with " + b.players[o.next] + " posing.";
    bind("verdict").forEach(function (el) { el.textContent = verdict; el.hidden = !verdict; });
    // The match so far: the other boards as the page was made, and this one.
    var won = D.won || [0, 0];
    set("match0", won[0] + (b.winner === 0 ? 1 : 0));
    set("match1", won[1] + (b.winner === 1 ? 1 : 0));

    root.querySelectorAll("[data-phase]").forEach(function (s) { s.hidden = s.getAttribute("data-phase") !== ph; });
    root.querySelectorAll("[data-seat]").forEach(function (el) {
      var s = parseInt(el.getAttribute("data-seat"), 10);
      if (b.players[s]) { el.textContent = b.players[s]; el.hidden = false; }
      if (el.tagName === "A") {
        el.classList.toggle("selected", s === selected);
        el.setAttribute("aria-pressed", s === selected ? "true" : "false");
      }
    });
    root.querySelectorAll("form[data-needs-seat]").forEach(function (f) {
      f.hidden = selected === null;
      var input = f.querySelector('input[name="seat"]');
      if (input) input.value = selected === null ? "" : selected;
    });
    set("prompt", selected === null ? "Tap who scored, then the points." : b.players[selected] + ": tap the points.");
    root.querySelectorAll('input[name="base"]').forEach(function (i) { i.value = state.revision; });
    root.querySelectorAll("form.undo").forEach(function (f) { f.hidden = !b.eff.length; });

    var list = bind("hands")[0];
    if (list) {
      list.innerHTML = "";
      if (g) g.hands.forEach(function (h, i) {
        var ho = o.hands[i];
        var plays = h.plays.map(function (p, j) {
          return b.players[p.seat] + " " + (p.points + (p.out ? 1 : 0)) + (p.out ? " out" : "") +
            (ho && ho.dis.indexOf(j + 1) >= 0 ? " (disregarded)" : "");
        }).join(", ");
        var end = h.end ? (h.end.type === "out" ? b.players[h.end.seat] + " out" : h.end.type)
          : (o.finished ? "game won" : "in play");
        var li = document.createElement("li");
        [["hand-no", String(i + 1)], ["hand-poser", b.players[ho.poser] + " posed"], ["hand-plays", plays],
         ["hand-end", end], ["hand-totals", ho.totals[0] + "–" + ho.totals[1]]].forEach(function (c) {
          var span = document.createElement("span");
          span.className = c[0];
          span.textContent = c[1];
          li.appendChild(span);
          li.appendChild(document.createTextNode(" "));
        });
        list.appendChild(li);
      });
    }
    set("games", b.games.filter(function (x) { return x.out.finished; }).map(function (x, i) {
      return "Game " + (i + 1) + ": " + x.out.totals[0] + "–" + x.out.totals[1];
    }).join(" · "));

    var unsent = state.taps.length - state.saved;
    var status = document.getElementById("pad-sync");
    if (status) {
      var text;
      if (unsent > 0) {
        text = (offline ? "No connection: " : sending ? "Sending: " : "Not sent yet: ") + unsent + " tap" +
          (unsent === 1 ? "" : "s") + " kept on this phone only" + (offline ? "; they will be sent when the connection returns." : ".");
      } else if (confirmed) {
        text = "Saved on the server.";
      } else if (offline) {
        text = "No connection: the board as this phone last had it. New taps are kept on this phone until the connection returns.";
      } else {
        text = "Checking with the server…";
      }
      if (offlineReady) text += " This pad opens on this phone without signal.";
      status.textContent = text;
      status.className = "sync" + (unsent || !confirmed ? " pending" : "");
    }
    renderAside();
    var box = document.getElementById("pad-messages");
    if (box && message) {
      box.innerHTML = "";
      var p = document.createElement("p");
      p.className = "notice" + (message.error ? " error" : "");
      p.setAttribute("role", message.error ? "alert" : "status");
      p.textContent = message.text;
      box.appendChild(p);
    }
  }

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/pad-sw.js").catch(function () {});
  }
  root.classList.add("live");
  render();
  sync();
  keepForOffline();
})();
