/* Finished games, newest first, with their records to download. */
"use strict";

(function () {
  const E = Euchre;
  const el = E.el;
  const $ = (id) => document.getElementById(id);
  const PAGE = 50;
  let offset = 0;

  /** The seats of each side: the server's list (`g.sides`, from the engine's Rules) when it
   *  sends one; until /api/games does, partnerships 0+2 and 1+3 with four players, else one
   *  side per seat (the engine's SIDE_SEATS). */
  function sidesOf(g, players) {
    if (Array.isArray(g.sides) && g.sides.length) return g.sides;
    if (players.length === 4) return [[0, 2], [1, 3]];
    return players.map((_, i) => [i]);
  }

  function sideName(players, seats) { return seats.map((s) => players[s] || `Seat ${s + 1}`).join(" & "); }

  /** Practice games (docs/server.md, "Practice games"): the statistics count them apart, and this
   *  list marks them with a small tag whose title says why. A chosen deal (`g.seeded`) made one of
   *  the game for every seat: one tag, under the game's date; a take-back, a hint or a computer
   *  player standing in (and deciding) for an absent person, of that seat's only (`g.practice`,
   *  `g.practice_reasons`, by seat): a tag after the player's name. */
  const CHOSEN_DEAL = "A chosen deal (dealt from a seed picked for this table): a practice game for every seat, counted apart in the statistics.";
  /** What the player did (said after their name); a stand-in is what befell them, said apart. */
  const REASON_WORDS = { took_back: "took back a card", hinted: "was given a hint" };
  const STOOD_IN = "a computer player stood in for them while they were away";
  const COUNTED_APART = ": a practice game for them, counted apart in the statistics.";

  function practiceTag(title) { return el("span", { class: "practice-tag", text: "practice", title }); }

  /** Why the game was practice for one seat, in words (a chosen deal is said once, under the date):
   *  "Ann was given a hint", "A computer player stood in for Ann while they were away", or both. */
  function seatPracticeTitle(name, reasons) {
    const list = Array.isArray(reasons) ? reasons : [];
    const said = list.map((r) => REASON_WORDS[r]).filter(Boolean);
    const stood = list.indexOf("stood_in") >= 0;
    if (stood && !said.length) return `A computer player stood in for ${name} while they were away${COUNTED_APART}`;
    if (stood) return `${name} ${said.join(" and ")}, and ${STOOD_IN}${COUNTED_APART}`;
    const what = said.length ? said.join(" and ") : "took back a card, was given a hint or had a computer player stand in";
    return `${name} ${what}${COUNTED_APART}`;
  }

  /** A side's players, each followed by the practice tag when the game was practice for that seat
   *  alone (a take-back, a hint or a stand-in). */
  function sideNodes(g, players, seats) {
    const practice = Array.isArray(g.practice) ? g.practice : [];
    const reasons = Array.isArray(g.practice_reasons) ? g.practice_reasons : [];
    const out = [];
    seats.forEach((s, i) => {
      if (i) out.push(" & ");
      const name = players[s] || `Seat ${s + 1}`;
      out.push(name);
      if (practice[s] === true && g.seeded !== true) out.push(" ", practiceTag(seatPracticeTitle(name, reasons[s])));
    });
    return out;
  }

  function row(g) {
    const players = Array.isArray(g.players) ? g.players.map((p) => (p && typeof p === "object" ? p.name : p)) : [];
    const sides = sidesOf(g, players);
    const scores = Array.isArray(g.scores) ? g.scores : [];
    const winners = Array.isArray(g.winners) ? g.winners : (g.winner !== undefined && g.winner !== null ? [g.winner] : []);
    const tr = el("tr", { dataset: { id: String(g.id) } });
    // a chosen deal is every seat's practice game, so its one tag goes with the game's date, under
    // it: the first column, in view on a phone however wide the players' names make the table
    const when = el("td", { class: "nowrap when", text: E.formatDate(g.finished_at || g.created_at || g.date) });
    if (g.seeded === true) when.append(practiceTag(CHOSEN_DEAL));
    tr.append(when);
    const who = el("td");
    sides.forEach((seats, i) => {
      if (i) who.append(el("span", { class: "muted", text: " vs " }));
      const span = el("span", null, ...sideNodes(g, players, seats));
      if (winners.indexOf(i) >= 0) span.className = "winner-mark";
      who.append(span);
    });
    tr.append(who);
    let preset = g.preset ? String(g.preset) : "custom rules";
    // a game's name as the start page says it, not a hyphenated word ("Bid-euchre-double")
    const named = { "bid-euchre": "Bid Euchre", "bid-euchre-double": "Double-deck Bid Euchre" };
    preset = named[preset] || preset.charAt(0).toUpperCase() + preset.slice(1);
    tr.append(el("td", { text: preset }));
    tr.append(el("td", { class: "num nowrap", text: scores.join(" \u2013 ") }));
    tr.append(el("td", { class: "winner-mark", text: winners.map((w) => sideName(players, sides[w] || [w])).join(", ") }));
    const base = `/api/tables/${encodeURIComponent(g.id)}/record`;
    tr.append(el("td", { class: "nowrap" },
      el("a", { href: base + "?format=toml", download: `euchre-${g.id}.toml`, text: "TOML" }), " \u00b7 ",
      ...(g.egn === false ? [] : [el("a", { href: base + "?format=egn", download: `euchre-${g.id}.egn`, text: "EGN" }), " \u00b7 "]),
      el("a", { href: `/table/${encodeURIComponent(g.id)}`, text: "view" }), " \u00b7 ",
      el("a", { href: `/replay/${encodeURIComponent(g.id)}`, class: "replay-link", text: "replay" })));
    return tr;
  }

  async function load() {
    const body = $("games-body");
    try {
      const data = await E.fetchJSON(`/api/games?limit=${PAGE}&offset=${offset}`);
      const games = Array.isArray(data) ? data : (data && data.games) || [];
      if (offset === 0) E.clear(body);
      for (const g of games) body.append(row(g));
      if (offset === 0 && !games.length) body.append(el("tr", null, el("td", { colspan: "6", class: "muted" }, "No finished game yet. ", el("a", { href: "/", text: "Play one!" }))));
      offset += games.length;
      $("more").classList.toggle("hidden", games.length < PAGE);
    } catch (e) {
      if (offset === 0) E.clear(body);
      $("error").textContent = "Could not load the games: " + (e.message || e);
      $("error").classList.remove("hidden");
    }
  }

  $("more").addEventListener("click", load);
  load();
})();
