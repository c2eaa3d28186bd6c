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
  var fmt = D.format, opts = D.options || {};
  var n = D.kind === "pairs" ? 4 : 2;
  var R = {
    target: opts.target != null ? opts.target : (fmt === "all-fives" ? 250 : 61),
    exact: opts.exact_finish !== false,
    pose: opts.pose || "rotate",
    blocked: opts.blocked_scores || "total",
    penPts: opts.penalty_points != null ? opts.penalty_points : 50,
    penTo: opts.penalty_to || "opponents",
    setTo: opts.set_to != null ? opts.set_to : 6,
    derby: opts.derby || "capped"
  };
  var toWin = Math.floor(Math.max(1, D.best_of) / 2) + 1;

  // ---- the board, replayed from its taps (as src/league/pad.rs does) ----

  function rank(tile) {
    var p = String(tile).split("-").map(Number);
    return (p[0] + p[1]) * 10 + Math.max(p[0], p[1]);
  }
  function round5(x) { var r = x % 5; return r <= 2 ? x - r : x + 5 - r; }
  function lowest(pips, poser, seats) {
    var low = Infinity;
    seats.forEach(function (s) { low = Math.min(low, pips[s]); });
    var holders = [];
    for (var i = 0; i < n; i++) {
      var s = (poser + i) % n;
      if (seats.indexOf(s) >= 0 && pips[s] === low) holders.push(s);
    }
    if (!holders.length) return null;
    for (var j = 1; j < holders.length; j++) if (holders[j] % 2 !== holders[0] % 2) return null;
    return holders[0];
  }
  var all = n === 4 ? [0, 1, 2, 3] : [0, 1];

  function score(g) {
    var totals = [0, 0], won = null, ties = 0, poser = g.first, hs = [];
    var H = g.hands;
    for (var h = 0; h <= H.length; h++) {
      for (var k = 0; k < g.pens.length; k++) {
        var pen = g.pens[k];
        if (pen.before !== h || fmt !== "all-fives") continue;
        if (won !== null) return { error: "the game was already won" };
        var off = pen.seat % 2;
        if (R.penTo === "opponents") {
          totals[1 - off] += R.penPts;
          if (totals[1 - off] >= R.target) won = 1 - off;
        } else {
          totals[off] = Math.max(0, totals[off] - R.penPts);
        }
      }
      if (h === H.length) break;
      if (won !== null) return { error: "the game was already won" };
      var hand = H[h], dis = [], w = null, side = null, sc = 0, e = hand.end;
      if (fmt === "fives-and-threes") {
        for (var p = 0; p < hand.plays.length; p++) {
          if (won !== null) return { error: "the game was already won" };
          var pl = hand.plays[p], s0 = pl.seat % 2, t = totals[s0] + pl.points + (pl.out ? 1 : 0);
          if (R.exact && t > R.target) { dis.push(p + 1); continue; }
          totals[s0] = t;
          if (t >= R.target) won = s0;
        }
        if (e && e.type === "out") w = e.seat;
        if (e && e.type === "blocked" && e.pips.length) w = lowest(e.pips, poser, all);
      } else if (fmt === "all-fives") {
        hand.plays.forEach(function (pl) {
          var s1 = pl.seat % 2;
          totals[s1] += pl.points;
          if (won === null && totals[s1] >= R.target) won = s1;
        });
        if (e && e.type === "out") { w = e.seat; side = e.seat % 2; sc = round5(e.left || 0); }
        if (e && e.type === "blocked" && e.pips.length) {
          var c = [0, 0];
          all.forEach(function (s) { c[s % 2] += e.pips[s]; });
          if (c[0] !== c[1]) {
            var low = c[1] < c[0] ? 1 : 0;
            w = lowest(e.pips, poser, all.filter(function (s) { return s % 2 === low; }));
            side = low;
            sc = round5(R.blocked === "total" ? c[1 - low] : c[1 - low] - c[low]);
          }
        }
        if (side !== null && won === null) {
          totals[side] += sc;
          if (totals[side] >= R.target) won = side;
        }
      } else {
        if (e && e.type === "out") w = e.seat;
        if (e && e.type === "blocked") {
          w = lowest(e.pips, poser, all);
          if (w === null) ties++;
        }
        if (w !== null) {
          var worth = ties === 0 ? 1
            : R.derby === "capped" ? (totals[0] + 1 >= R.setTo || totals[1] + 1 >= R.setTo ? 1 : 2)
            : 1 + ties;
          ties = 0;
          totals[w % 2] += worth;
          if (totals[w % 2] >= R.setTo) won = w % 2;
        }
      }
      hs.push({ poser: poser, totals: totals.slice(), dis: dis });
      var hw = e ? w : null;
      poser = R.pose === "winner" && hw !== null ? hw : (poser + 1) % n;
    }
    return { totals: totals, finished: won !== null, winner: won, next: poser, hands: hs };
  }

  function fresh() { return { players: [], games: [], won: [0, 0], winner: null, eff: [] }; }
  function phase(b) {
    if (!b.players.length) return "players";
    if (!b.games.length) return "opening";
    return b.winner !== null ? "over" : "play";
  }
  function copyGame(g) {
    return {
      first: g.first,
      hands: g.hands.map(function (h) { return { plays: h.plays.slice(), end: h.end }; }),
      pens: g.pens.slice()
    };
  }
  function nameOf(list, id) {
    for (var i = 0; i < list.length; i++) if (list[i][0] === id) return list[i][1];
    return null;
  }

  function apply(b, t) {
    if (t.t === "undo") return undo(b);
    if (t.t === "players") {
      if (phase(b) !== "players") return "the players are already chosen: undo to change them";
      var per = n / 2, names = [];
      if (t.home.length !== per || t.away.length !== per) return "choose every player";
      for (var j = 0; j < per; j++) {
        var h = nameOf(D.home, t.home[j]), a = nameOf(D.away, t.away[j]);
        if (!h || !a) return "choose registered players";
        names.push(h, a);
      }
      if (per === 2 && (names[0] === names[2] || names[1] === names[3])) return "a player is chosen twice";
      b.players = names;
    } else if (t.t === "pose" || t.t === "draw") {
      if (phase(b) !== "opening") return "the board's first game has begun";
      var first = t.seat;
      if (t.t === "draw") {
        first = 0;
        for (var s = 1; s < n; s++) if (rank(t.tiles[s]) > rank(t.tiles[first])) first = s;
      }
      var g0 = { first: first, hands: [], pens: [] };
      g0.out = score(g0);
      b.games.push(g0);
    } else {
      var ph = phase(b);
      if (ph === "players") return "choose the players first";
      if (ph === "opening") return "say who poses first";
      if (ph === "over") return "the board is over: nothing more to score";
      var last = b.games[b.games.length - 1];
      var g = last.out.finished ? { first: last.out.next, hands: [], pens: [] } : copyGame(last);
      var open = g.hands.length && !g.hands[g.hands.length - 1].end;
      if (!open && t.t !== "penalty") g.hands.push({ plays: [], end: null });
      var hand = g.hands[g.hands.length - 1];
      if (t.t === "play") hand.plays.push({ seat: t.seat, points: t.points, out: false });
      else if (t.t === "out") {
        if (fmt === "fives-and-threes") hand.plays.push({ seat: t.seat, points: t.points || 0, out: true });
        hand.end = { type: "out", seat: t.seat, left: t.left || 0 };
      } else if (t.t === "blocked") hand.end = { type: "blocked", pips: t.pips || [] };
      else if (t.t === "abandoned") hand.end = { type: "abandoned" };
      else if (t.t === "penalty") g.pens.push({ seat: t.seat, kind: t.kind, before: g.hands.length });
      var out = score(g);
      if (out.error) return out.error;
      g.out = out;
      if (last.out.finished) b.games.push(g); else b.games[b.games.length - 1] = g;
      if (out.finished) {
        b.won[out.winner]++;
        if (b.won[out.winner] >= toWin) b.winner = out.winner;
      }
    }
    b.eff.push(t);
    return null;
  }
  function undo(b) {
    if (!b.eff.length) return "there is nothing to undo";
    var eff = b.eff.slice(0, -1), nb = fresh();
    for (var i = 0; i < eff.length; i++) apply(nb, eff[i]);
    for (var k in nb) b[k] = nb[k];
    return null;
  }
  function replay(taps) {
    var b = fresh();
    for (var i = 0; i < taps.length; i++) {
      var err = apply(b, taps[i]);
      if (err) return { board: b, error: { index: i, reason: err } };
    }
    return { board: b };
  }

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
    fetch(D.sync, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": D.csrf },
      body: JSON.stringify({ taps: sent })
    }).then(function (r) {
      return r.json().then(function (body) { return { status: r.status, body: body }; });
    }).then(function (res) {
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
      sending = false;
      offline = true;
      render();
      setTimeout(sync, 4000);
    });
  }
  window.addEventListener("online", sync);

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
    caches.open("boneyard-pad-v1").then(function (c) {
      return Promise.all([
        fetch(location.href, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
          if (!r.ok) throw new Error("not kept");
          return c.put(location.pathname, r);
        }),
        c.addAll(files),
        navigator.serviceWorker.ready
      ]);
    }).then(function () {
      offlineReady = true;
      root.setAttribute("data-offline", "ready");
      render();
    }).catch(function () { /* it is kept on the next open instead */ });
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
