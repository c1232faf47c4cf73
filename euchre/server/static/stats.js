/* Statistics per player (a browser's player id, else a name), sortable by any column: the totals
   over fair games, and the practice games (undo, hints, a stand-in, a chosen seed) counted apart. */
"use strict";

(function () {
  const E = Euchre;
  const el = E.el;
  const $ = (id) => document.getElementById(id);
  let rows = [];
  let sortKey = "games";
  let sortDir = -1;

  function value(r, key) {
    if (key === "win_pct") return r.games ? (r.wins || 0) / r.games : null;
    return r[key];
  }

  function render() {
    const body = E.clear($("stats-body"));
    const showBots = $("show-bots").checked;
    const list = rows.filter((r) => showBots || r.kind !== "bot").slice();
    list.sort((a, b) => {
      const x = value(a, sortKey), y = value(b, sortKey);
      if (x === y) return String(a.name).localeCompare(String(b.name));
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      if (typeof x === "string" || typeof y === "string") return sortDir * String(x).localeCompare(String(y));
      return sortDir * (x - y);
    });
    for (const r of list) {
      const tr = el("tr");
      const name = el("td", { class: "player" }, el("span", { text: String(r.name || r.player || "?") }));
      if (r.kind === "bot") name.append(" ", el("span", { class: "badge bot", text: "computer" }));
      tr.append(name);
      tr.append(el("td", { class: "num", dataset: { label: "Games" }, text: E.num(r.games) }));
      // Practice games (undo, hints, a stand-in, a chosen seed) are kept apart: never in the other columns.
      tr.append(el("td", { class: "num practice", dataset: { label: "Practice" }, text: E.num(r.practice_games || 0),
                          title: "games with a card taken back, a hint, a computer player standing in, or a chosen deal: not counted in the other columns" }));
      tr.append(el("td", { class: "num", dataset: { label: "Wins" }, text: E.num(r.wins) }));
      tr.append(el("td", { class: "num", dataset: { label: "Win %" }, text: r.games ? E.pct((r.wins || 0) / r.games) : "–" }));
      tr.append(el("td", { class: "num", dataset: { label: "Matches" }, text: r.matches ? `${E.num(r.match_wins || 0)} of ${E.num(r.matches)}` : "–",
                          title: r.matches ? `${r.match_wins || 0} of ${r.matches} matches won` : "no matches played" }));
      tr.append(el("td", { class: "num", dataset: { label: "Hands" }, text: E.num(r.hands) }));
      const pph = r.points_per_hand;
      tr.append(el("td", { class: "num", dataset: { label: "Points / hand" }, text: pph === null || pph === undefined ? "–" : (pph > 0 ? "+" : "") + Number(pph).toFixed(2) }));
      tr.append(el("td", { class: "num", dataset: { label: "Make rate" }, text: E.pct(r.make_rate), title: r.calls !== undefined ? `${r.calls} calls` : null }));
      tr.append(el("td", { class: "num", dataset: { label: "Euchre rate" }, text: E.pct(r.euchre_rate), title: r.defended !== undefined ? `${r.defended} hands defended` : null }));
      // the marches under the loners (on a line of their own in the wide table, so the column stays narrow)
      const loners = el("td", { class: "num", dataset: { label: "Loners" }, text: E.num(r.loners) });
      if (r.loner_marches) loners.append(el("span", { class: "sub", text: ` (${r.loner_marches} march${r.loner_marches === 1 ? "" : "es"})` }));
      tr.append(loners);
      body.append(tr);
    }
    if (!list.length) body.append(el("tr", null, el("td", { colspan: "11", class: "muted" }, "No statistics yet: finish a game first. ", el("a", { href: "/", text: "Play" }))));
    document.querySelectorAll("th[data-sort]").forEach((th) => {
      th.setAttribute("aria-sort", th.dataset.sort === sortKey ? (sortDir > 0 ? "ascending" : "descending") : "none");
      th.dataset.arrow = th.dataset.sort === sortKey ? (sortDir > 0 ? "\u00a0▲" : "\u00a0▼") : "";   // kept with the last word
    });
  }

  async function load() {
    try {
      const data = await E.fetchJSON("/api/stats");
      rows = Array.isArray(data) ? data : (data && (data.players || data.stats)) || [];
      render();
    } catch (e) {
      E.clear($("stats-body"));
      $("error").textContent = "Could not load the statistics: " + (e.message || e);
      $("error").classList.remove("hidden");
    }
  }

  document.querySelectorAll("th[data-sort]").forEach((th) => {
    th.tabIndex = 0;
    const go = () => {
      const k = th.dataset.sort;
      if (k === sortKey) sortDir = -sortDir;
      else { sortKey = k; sortDir = k === "name" ? 1 : -1; }
      render();
    };
    th.addEventListener("click", go);
    th.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
  });
  $("show-bots").addEventListener("change", render);
  load();
})();
