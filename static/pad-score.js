// The score pad's own scorer: a board replayed from its taps, as
// src/league/pad.rs replays it, so the pad scores with no signal. It is a
// file of its own, with no page in it, so that a test can run it on many
// boards and compare it with the engine (tests/it/browser/pad_rules.rs).
//
// `data` is the pad's page data: `format`, `kind`, `best_of`, the rosters
// `home` and `away`, and `rules`, every option resolved by the server. The
// scorer keeps no defaults of its own: rules missing or not understood give
// no scorer at all, and the page stays plain forms.
(function () {
  "use strict";

  var CHOICES = {
    pose: ["rotate", "winner"],
    blocked_scores: ["total", "difference"],
    penalty_to: ["opponents", "offender"],
    derby: ["capped", "growing"]
  };
  var NUMBERS = ["target", "penalty_points", "set_to"];

  function understood(R) {
    if (!R || typeof R !== "object" || typeof R.exact_finish !== "boolean") return false;
    for (var k in CHOICES) if (CHOICES[k].indexOf(R[k]) < 0) return false;
    for (var i = 0; i < NUMBERS.length; i++) {
      var v = R[NUMBERS[i]];
      if (typeof v !== "number" || v < 0 || Math.floor(v) !== v) return false;
    }
    return true;
  }

  function nameOf(list, id) {
    for (var i = 0; i < list.length; i++) if (list[i][0] === id) return list[i][1];
    return null;
  }

  function scorer(D) {
    var fmt = D && D.format, R = D && D.rules;
    if (["fives-and-threes", "all-fives", "hands-won"].indexOf(fmt) < 0 || !understood(R)) return null;
    var n = D.kind === "pairs" ? 4 : 2;
    var toWin = Math.floor(Math.max(1, D.best_of) / 2) + 1;
    var all = n === 4 ? [0, 1, 2, 3] : [0, 1];

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

    function score(g) {
      var totals = [0, 0], won = null, ties = 0, poser = g.first, hs = [];
      var H = g.hands;
      for (var h = 0; h <= H.length; h++) {
        for (var k = 0; k < g.pens.length; k++) {
          var pen = g.pens[k];
          if (pen.before !== h || fmt !== "all-fives") continue;
          if (won !== null) return { error: "the game was already won" };
          var off = pen.seat % 2;
          if (R.penalty_to === "opponents") {
            totals[1 - off] += R.penalty_points;
            if (totals[1 - off] >= R.target) won = 1 - off;
          } else {
            totals[off] = Math.max(0, totals[off] - R.penalty_points);
          }
        }
        if (h === H.length) break;
        if (won !== null) return { error: "the game was already won" };
        var hand = H[h], dis = [], w = null, side = null, sc = 0, e = hand.end;
        if (fmt === "fives-and-threes") {
          for (var p = 0; p < hand.plays.length; p++) {
            if (won !== null) return { error: "the game was already won" };
            var pl = hand.plays[p], s0 = pl.seat % 2, t = totals[s0] + pl.points + (pl.out ? 1 : 0);
            if (R.exact_finish && t > R.target) { dis.push(p + 1); continue; }
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
              sc = round5(R.blocked_scores === "total" ? c[1 - low] : c[1 - low] - c[low]);
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
              : R.derby === "capped" ? (totals[0] + 1 >= R.set_to || totals[1] + 1 >= R.set_to ? 1 : 2)
              : 1 + ties;
            ties = 0;
            totals[w % 2] += worth;
            if (totals[w % 2] >= R.set_to) won = w % 2;
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

    return { replay: replay, phase: phase };
  }

  // A board replayed, as plain data: what a test compares with the engine.
  function summary(D, taps) {
    var s = scorer(D);
    if (!s) return { error: "no complete ruleset in the page data" };
    var r = s.replay(taps), b = r.board;
    return {
      refused: r.error ? r.error.index : null,
      games: b.games.map(function (g) {
        var o = g.out;
        return {
          totals: o.totals, finished: o.finished, winner: o.winner, next_pose: o.next,
          hands: o.hands.map(function (h) { return { posed_by: h.poser, totals: h.totals, disregarded: h.dis }; })
        };
      }),
      games_won: b.won,
      winner: b.winner
    };
  }

  window.BoneyardPad = { scorer: scorer, nameOf: nameOf, replay: summary };
})();
