/* The start page: play now against computer players, or open a table for friends. */
"use strict";

(function () {
  const E = Euchre;
  const el = E.el;
  const $ = (id) => document.getElementById(id);
  const PREF_KEY = "euchre.prefs";

  // How each rule field is shown. Fields the server sends that are not listed here still appear
  // (in "More rules", labelled from their name), so a new switch never needs a page change.
  const FIELDS = {
    target: { label: "Points to win", help: "empty: the game ends by time or by hands instead", main: true, min: 1, nullable: true },
    duration: { label: "Minutes (timed game)", help: "empty: not a timed game", main: true, min: 1, nullable: true, step: "any" },
    deals: { label: "Number of hands (progressive)", help: "empty: no fixed number of hands", main: false, min: 1, nullable: true },
    stick_the_dealer: { label: "Stick the dealer", help: "the dealer must name trump when everyone passed twice", main: true },
    going_alone: { label: "Going alone", help: "the maker may play without a partner", main: true, four: true },
    canadian_loner: { label: "Canadian loner", help: "the dealer's partner may order up only by going alone", main: true, four: true },
    defend_alone: { label: "Defend alone", help: "against a loner, one defender may defend alone", main: true, four: true, group: "house" },
    // the house rules of four-handed Euchre (shown up front when the chosen game has them on)
    call_for_best: { label: "Call for best", help: "a lone player gets the partner's best card (the highest trump) and discards one of six", main: false, four: true, group: "house", mainWhenOn: true },
    best_card_free: { label: "Partner chooses the best card", help: "with call for best: the partner picks the card to give, instead of the highest trump going by itself", main: false, four: true, group: "house", mainWhenOn: true },
    farmers_hand: { label: "Farmer's hand", help: "a hand of only 9s and 10s may swap three cards for the three under the up card (24-card deck only)", main: false, four: true, group: "house", mainWhenOn: true },
    ace_no_face: { label: "Misdeal on ace, no face", help: "a hand with no king, queen or jack and at most one ace may ask for a new deal by the same dealer", main: false, four: true, group: "house", mainWhenOn: true },
    no_trump: { label: "No trump", help: "in round 2 a player may call no trump (24-card deck only)", main: false, four: true, group: "house", mainWhenOn: true },
    low_no_trump: { label: "Low no trump", help: "with no trump: also low, where the 9 is highest", main: false, four: true, group: "house", mainWhenOn: true },
    // a match of several games (empty: a single game)
    match_wins: { label: "Match: first to this many games", help: "empty: a single game; a number: the first side to win that many games takes the match", main: false, min: 1, nullable: true, group: "match", mainWhenOn: true },
    match_games: { label: "Match: number of games", help: "empty: a single game; a number: all those games are played and the most game wins takes the match (a tie adds a game)", main: false, min: 1, nullable: true, group: "match", mainWhenOn: true },
    laps: { label: "Laps", help: "in a match: the winner starts the next game with its points above the target", main: false, group: "match", mainWhenOn: true },
    slam: { label: "Slam counts double", help: "in a match: a game won while the others have 0 or less counts as two game wins", main: false, group: "match", mainWhenOn: true },
    super_euchre: { label: "Super-euchre", help: "makers who take no trick give the defenders more", main: true },
    dealer_may_discard_up_card: { label: "Dealer may bury the up card", main: false },
    loner_lead: { label: "Who leads against a loner", choices: { dealer_left: "left of the dealer", loner_left: "left of the loner" }, main: false, four: true },
    deck: { label: "Deck", choices: { 20: "20 cards (10 to A)", 24: "24 cards (9 to A)", 25: "25 cards (with the Joker)", 32: "32 cards (7 to A)" }, main: false, number: true },
    make_points: { label: "Points for making it (3–4 tricks)", main: false, min: 1 },
    march_points: { label: "Points for a march (5 tricks)", main: false, min: 1 },
    loner_march_points: { label: "Points for a lone march", main: false, min: 0 },
    euchre_points: { label: "Points for a euchre", main: false, min: 1 },
    loner_euchre_points: { label: "Points for euchring a loner", main: false, min: 0 },
    lone_defender_euchre_points: { label: "Points for a lone defender's euchre", main: false, min: 0 },
    super_euchre_points: { label: "Super-euchre points", main: false, min: 0 },
    tie_break: { label: "No tie for first (play on)", main: false },
    defenders_score_tricks: { label: "Defenders score their tricks", help: "the side that did not win the bid scores a point for each trick it takes too", main: true },
    // Napoleon's one-per-seat table: the number of players (the pack and the default number of
    // hands follow it, on the server); hidden for every other game (its preset says it)
    players: { hidden: true, label: "Players", help: "each for themselves; the pack and the number of hands follow the table's size",
               main: true, choices: { 3: "3 players", 4: "4 players", 5: "5 players", 6: "6 players", 7: "7 players" }, number: true,
               shownIf: (rules) => !!rules.napoleon },
    nap_half_loss: { label: "A failed Nap costs half", help: "a failed Nap costs 5 a player instead of 10 (Wellington and Blücher in full)", main: true },
  };

  // The groups of "More rules", in this order (a field without a group is in the last)
  const GROUPS = [["house", "House rules"], ["match", "Match"], ["", "Scoring, deck and ties"]];

  const LEVEL_WORDS = {
    easy: "a beginner who often plays the wrong card",
    medium: "a club player who slips now and then",
    hard: "a sound, steady rule-of-thumb player",
    expert: "the strongest player: it reads the cards and thinks ahead",
  };

  let options = null;
  let current = null;  // the chosen preset object
  let created = null;  // the friends table answer
  let pollTimer = null;
  let lobby = null;    // the host's seat socket while this page shows the links

  function prefs() { try { return JSON.parse(localStorage.getItem(PREF_KEY) || "{}") || {}; } catch (e) { return {}; } }
  function savePrefs(p) { try { localStorage.setItem(PREF_KEY, JSON.stringify(Object.assign(prefs(), p))); } catch (e) { /* ignore */ } }

  function showError(msg) {
    const box = $("error");
    if (!msg) { box.classList.add("hidden"); box.textContent = ""; return; }
    box.textContent = msg;
    box.classList.remove("hidden");
  }

  function labelOf(name) {
    const f = FIELDS[name];
    if (f && f.label) return f.label;
    const t = name.replace(/_/g, " ");
    return t.charAt(0).toUpperCase() + t.slice(1);
  }

  function presetsOf(opts) {
    let p = opts && opts.presets;
    if (!p) return [];
    if (!Array.isArray(p)) {
      p = Object.entries(p).map(([name, v]) => (v && v.rules ? Object.assign({ name }, v) : { name, rules: v || {} }));
    }
    // a game the server's tables do not play yet (served: false) is not offered
    return p.map((x) => (typeof x === "string" ? { name: x, rules: {} } : x)).filter((x) => x && x.name && x.served !== false);
  }

  function levelsOf(opts) {
    let l = opts && opts.levels;
    if (!l) return ["easy", "medium", "hard", "expert"];
    if (!Array.isArray(l)) l = Object.keys(l);
    return l.map((x) => (typeof x === "string" ? x : x.name)).filter(Boolean);
  }

  function prettyPreset(name) {
    const t = String(name);
    if (t === "bid-euchre") return "Bid Euchre";   // a game's name, not a hyphenated word like "Two-handed"
    if (t === "bid-euchre-double") return "Double-deck Bid Euchre";
    return t.charAt(0).toUpperCase() + t.slice(1);
  }

  // --- rule inputs -------------------------------------------------------------------------------
  function ruleInput(name, value, rules) {
    const f = FIELDS[name] || {};
    const id = "rule-" + name;
    const row = el("div", { class: "rule", dataset: { field: name } });
    const lab = el("label", { for: id, text: labelOf(name) });
    if (f.help) lab.title = f.help;
    let input;
    if (f.choices) {
      input = el("select", { id, name });
      const vals = Object.keys(f.choices);
      if (value !== null && value !== undefined && vals.indexOf(String(value)) < 0) vals.push(String(value));
      for (const v of vals) input.append(el("option", { value: v, text: f.choices[v] || v }));
      input.value = String(value);
    } else if (typeof value === "boolean") {
      input = el("input", { id, name, type: "checkbox" });
      input.checked = value;
    } else if (typeof value === "number" || value === null || f.nullable) {
      input = el("input", { id, name, type: "number", inputmode: "numeric", step: f.step || "1", min: f.min !== undefined ? f.min : null,
                            placeholder: f.nullable ? "none" : "" });
      input.value = value === null || value === undefined ? "" : String(value);
    } else {
      input = el("input", { id, name, type: "text" });
      input.value = value === null || value === undefined ? "" : String(value);
    }
    if (f.four && rules.players !== undefined && rules.players !== 4) {
      input.disabled = true;
      row.title = "four players only";
    }
    input.dataset.field = name;
    if (name === "players") input.addEventListener("change", playersChanged);
    if (name === "deals") input.addEventListener("input", () => { input.dataset.touched = "1"; });
    input.addEventListener("change", markChanged);
    input.addEventListener("input", markChanged);
    // the help is shown under the label (and read with the switch)
    const text = el("div", { class: "rule-text" }, lab);
    if (f.help) {
      text.append(el("small", { class: "rule-help", id: "help-" + name, text: f.help }));
      input.setAttribute("aria-describedby", "help-" + name);
    }
    row.append(text, input);
    return row;
  }

  function inputValue(input, original) {
    const f = FIELDS[input.dataset.field] || {};
    if (input.type === "checkbox") return input.checked;
    if (input.tagName === "SELECT") {
      if (f.number || typeof original === "number") return Number(input.value);
      return input.value;
    }
    if (input.type === "number") {
      const t = input.value.trim();
      if (t === "") return null;
      const n = Number(t);
      return isFinite(n) ? n : original;
    }
    return input.value;
  }

  function allRuleInputs() { return Array.from(document.querySelectorAll("#rules [data-field]")).filter((x) => x.tagName !== "DIV"); }

  function overrides() {
    const base = (current && current.rules) || {};
    const out = {};
    for (const input of allRuleInputs()) {
      if (input.disabled) continue;
      const name = input.dataset.field;
      const v = inputValue(input, base[name]);
      if (v !== base[name]) out[name] = v;
    }
    // one ending only: a new ending given clears the others on the server (Rules.preset)
    return out;
  }

  /** Napoleon's table size changed: the number of hands shown follows it (two rounds of deals,
   *  as the server's preset derives it) unless it was changed by hand. */
  function playersChanged(e) {
    const n = Number(e.target.value);
    const deals = document.querySelector('#rules [data-field="deals"]:not(div)');
    const base = (current && current.rules) || {};
    if (!deals || !base.napoleon || deals.dataset.touched || !base.deals || !base.players) return;
    deals.value = String(Math.round(base.deals / base.players * n));
    deals.dataset.follows = "players";
  }

  function markChanged() {
    const o = overrides();
    for (const input of allRuleInputs()) {
      const row = input.closest(".rule");
      if (row) row.classList.toggle("changed", Object.prototype.hasOwnProperty.call(o, input.dataset.field));
    }
  }

  function renderRules() {
    const main = E.clear($("rules-main"));
    const more = E.clear($("rules-more"));
    const rules = (current && current.rules) || {};
    const names = Object.keys(rules);
    const order = Object.keys(FIELDS);
    names.sort((a, b) => {
      const ia = order.indexOf(a), ib = order.indexOf(b);
      return (ia < 0 ? 999 : ia) - (ib < 0 ? 999 : ib);
    });
    const groups = {};
    // the fields this game takes no other value of (the server says which: a sister game's
    // missing switches, or the sister games' own fields in Euchre) are left off the page
    const fixed = new Set((current && Array.isArray(current.fixed)) ? current.fixed : []);
    for (const name of names) {
      const f = FIELDS[name] || {};
      if ((f.hidden && !(f.shownIf && f.shownIf(rules))) || fixed.has(name)) continue;
      const value = rules[name];
      if (typeof value === "object" && value !== null) continue;
      // the game's ending: show the one the preset uses up front, the others in "more"
      let isMain = !!f.main;
      if (name === "target" || name === "duration" || name === "deals") isMain = value !== null && value !== undefined;
      if (f.mainWhenOn && value !== null && value !== undefined && value !== false) isMain = true;
      if (f.four && rules.players !== 4) isMain = false;
      if (isMain) main.append(ruleInput(name, value, rules));
      else (groups[f.group || ""] = groups[f.group || ""] || []).push(ruleInput(name, value, rules));
    }
    for (const [key, title] of GROUPS) {
      const rows = groups[key];
      if (!rows || !rows.length) continue;
      more.append(el("h3", { class: "rules-group", id: "rules-group-" + (key || "other"), text: title }), ...rows);
    }
    const summary = document.querySelector("#rules-more-box summary");
    if (summary) summary.textContent = "More rules (house rules, match, scoring, deck)";
    const moreBox = $("rules-more-box");
    if (moreBox) moreBox.classList.toggle("hidden", !more.childNodes.length);   // a game with no more switches
    if (!names.length) main.append(el("p", { class: "muted", text: "This game has no switches." }));
    markChanged();
  }

  function choosePreset(name) {
    const list = presetsOf(options);
    current = list.find((p) => p.name === name) || list[0] || null;
    $("preset-desc").textContent = current ? (current.description || "") : "";
    renderRules();
  }

  // --- creating tables ---------------------------------------------------------------------------
  async function create(mode) {
    showError("");
    const name = $("name").value.trim().slice(0, 24);
    if (!name) { showError("Please enter your name first."); $("name").focus(); return; }
    E.setName(name);
    savePrefs({ preset: $("preset").value, level: $("level").value });
    const body = { mode, preset: $("preset").value, rules: overrides(), level: $("level").value, name };
    const player = E.getPlayer();
    if (player) body.player = player;
    const buttons = [$("play-now"), $("open-friends")];
    buttons.forEach((b) => { b.disabled = true; });
    try {
      const resp = await E.fetchJSON("/api/tables", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) });
      if (mode === "bots") {
        location.href = seatUrl(resp.url, resp.token, resp.id);
        return;
      }
      created = resp;
      showFriends(resp);
    } catch (e) {
      showError(e.message || String(e));
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
    }
  }

  function seatUrl(url, token, id) {
    let u = url || `/table/${encodeURIComponent(id)}`;
    if (token && u.indexOf("#token=") < 0) u += "#token=" + encodeURIComponent(token);
    return u;
  }

  function absolute(u) { return new URL(u, location.origin).href; }

  function seatRole(seat, players) {
    if (players === 4) return seat === 2 ? "your partner" : (seat === 1 ? "opponent, on your left" : "opponent, on your right");
    return "opponent";
  }

  function copyButton(input) {
    const b = el("button", { type: "button", class: "copy", text: "Copy" });
    b.addEventListener("click", async () => {
      const ok = await E.copyText(input.value, input);
      b.textContent = ok ? "Copied" : "Select and copy";
      b.classList.toggle("copied", ok);
      if (!ok) { input.focus(); input.select(); }
      setTimeout(() => { b.textContent = "Copy"; b.classList.remove("copied"); }, 1800);
    });
    return b;
  }

  function showFriends(resp) {
    const players = (current && current.rules && current.rules.players) || ((resp.links || []).length + 1);
    const list = E.clear($("seat-links"));
    for (const link of resp.links || []) {
      const url = absolute(seatUrl(link.url, link.token, resp.id));
      const input = el("input", { type: "text", readonly: true, class: "seat-link", "aria-label": `link for seat ${link.seat + 1}`, dataset: { seat: String(link.seat) } });
      input.value = url;
      input.addEventListener("focus", () => input.select());
      const li = el("li", { dataset: { seat: String(link.seat) } },
        el("span", { class: "who" }, `Seat ${link.seat + 1} `, el("span", { class: "muted small", text: `(${seatRole(link.seat, players)})` })),
        input, copyButton(input),
        el("span", { class: "seat-state", id: `seat-state-${link.seat}`, text: "waiting…" }));
      list.append(li);
    }
    const watch = $("watch-link");
    watch.value = absolute(resp.watch_url || `/table/${encodeURIComponent(resp.id)}`);
    const watchCopy = document.querySelector('[data-copy="watch-link"]');
    watchCopy.replaceWith(copyButton(watch));
    $("my-seat-link").href = seatUrl(resp.url, resp.token, resp.id);
    $("start-button").disabled = false;
    $("friends-status").textContent = "";
    $("friends-result").classList.remove("hidden");
    $("friends-result").scrollIntoView({ behavior: "smooth", block: "start" });
    holdSeat(resp);
    poll();
  }

  function showSeats(info) {
    for (const s of info.seats || []) {
      const span = $(`seat-state-${s.seat}`);
      if (!span) continue;
      let text = "not joined yet";
      if (s.kind === "bot") text = "computer player";
      else if (s.present) text = `joined: ${s.name || ""}`;
      else if (s.kind === "human") text = `${s.name || "someone"} (away)`;
      span.textContent = text;
      span.classList.toggle("joined", !!s.present || s.kind === "bot");
    }
    const hostHere = $("host-state");
    if (hostHere) {
      const me = (info.seats || []).find((s) => s.seat === 0);
      hostHere.textContent = me && me.present ? "you are at the table (your friends see you here)" : "connecting\u2026";
      hostHere.classList.toggle("joined", !!(me && me.present));
    }
  }

  async function poll() {
    clearTimeout(pollTimer);
    if (!created) return;
    try {
      const info = await E.fetchJSON(`/api/tables/${encodeURIComponent(created.id)}`);
      showSeats(info);
      if (info.status && info.status !== "waiting") {
        $("start-button").disabled = true;
        if (!$("friends-status").dataset.turn) {
          $("friends-status").textContent = info.status === "over" ? "This game is over." : "The game has started.";
        }
        return;
      }
    } catch (e) { /* keep polling quietly */ }
    pollTimer = setTimeout(poll, 3000);
  }

  // --- the host's seat, held while this page shows the links ------------------------------------
  // The host is at the table from the moment it is open: this page holds the host's seat socket
  // (as the table page does), so a friend who opens their link sees the host present, not away.
  // It also pushes who joined at once (the poll above is the fallback), and says when the started
  // game waits for the host. Leaving the page (for the seat's own page) closes it.
  function holdSeat(resp) {
    releaseSeat();
    lobby = { id: resp.id, token: resp.token, ws: null, ping: null, retry: null, attempt: 0, stopped: false };
    openSeat(lobby);
  }

  function releaseSeat() {
    const L = lobby;
    lobby = null;
    if (!L) return;
    L.stopped = true;
    clearInterval(L.ping);
    clearTimeout(L.retry);
    if (L.ws) { L.ws.onclose = null; try { L.ws.close(); } catch (e) { /* ignore */ } }
  }

  function openSeat(L) {
    if (L.stopped || lobby !== L) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try { ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(L.id)}`); } catch (e) { retrySeat(L); return; }
    L.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ t: "hello", token: L.token, v: null, name: null }));
      clearInterval(L.ping);
      L.ping = setInterval(() => { try { ws.send(JSON.stringify({ t: "ping" })); } catch (e) { /* closing */ } }, 20000);
    };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (!m || typeof m !== "object") return;
      if (m.t === "welcome") L.attempt = 0;
      else if (m.t === "state" && m.d) {
        showSeats(m.d);
        const v = m.d.view;
        const status = $("friends-status");
        if (m.d.status === "playing" && v && Array.isArray(v.legal) && v.legal.length) {
          status.dataset.turn = "1";
          status.textContent = "The game has started and it is your turn: go to your seat to play.";
        } else if (status.dataset.turn) {
          delete status.dataset.turn;
          status.textContent = "The game has started: go to your seat to play.";
        }
      } else if (m.t === "err" && (m.code === "not_found" || m.code === "forbidden" || m.code === "table_abandoned")) {
        L.stopped = true;
      }
    };
    ws.onclose = () => {
      clearInterval(L.ping);
      if (!L.stopped && lobby === L) retrySeat(L);
    };
  }

  function retrySeat(L) {
    clearTimeout(L.retry);
    const delay = Math.min(8000, 500 * Math.pow(2, L.attempt));
    L.attempt = Math.min(L.attempt + 1, 6);
    L.retry = setTimeout(() => openSeat(L), delay);
  }

  async function start() {
    if (!created) return;
    $("start-button").disabled = true;
    $("friends-status").textContent = "Starting…";
    try {
      await E.fetchJSON(`/api/tables/${encodeURIComponent(created.id)}/start`, {
        method: "POST",
        headers: { Authorization: "Bearer " + created.token, Accept: "application/json" },
      });
      if (!$("friends-status").dataset.turn) {
        $("friends-status").textContent = "The game has started: empty seats got computer players. Go to your seat to play.";
      }
      poll();
    } catch (e) {
      $("friends-status").textContent = "Could not start: " + (e.message || e);
      $("start-button").disabled = false;
    }
  }

  // --- boot --------------------------------------------------------------------------------------
  async function init() {
    $("name").value = E.getName();
    $("new-game").addEventListener("submit", (e) => { e.preventDefault(); create("bots"); });
    $("open-friends").addEventListener("click", () => create("friends"));
    $("start-button").addEventListener("click", start);
    $("preset").addEventListener("change", () => { showError(""); choosePreset($("preset").value); });
    $("rules-reset").addEventListener("click", () => renderRules());
    $("level").addEventListener("change", () => { $("level-desc").textContent = LEVEL_WORDS[$("level").value] || ""; });
    try {
      options = await E.fetchJSON("/api/options");
    } catch (e) {
      showError("Could not load the game options: " + (e.message || e));
      options = { presets: [{ name: "american", rules: {} }], levels: ["easy", "medium", "hard", "expert"] };
    }
    const p = prefs();
    const presetSel = E.clear($("preset"));
    for (const pr of presetsOf(options)) presetSel.append(el("option", { value: pr.name, text: prettyPreset(pr.name) }));
    const levelSel = E.clear($("level"));
    const levels = levelsOf(options);
    for (const l of levels) levelSel.append(el("option", { value: l, text: l.charAt(0).toUpperCase() + l.slice(1) }));
    const defLevel = levels.indexOf(p.level) >= 0 ? p.level : (levels.indexOf("hard") >= 0 ? "hard" : (options.default_level || levels[0]));
    levelSel.value = defLevel;
    $("level-desc").textContent = LEVEL_WORDS[defLevel] || "";
    const names = presetsOf(options).map((x) => x.name);
    presetSel.value = names.indexOf(p.preset) >= 0 ? p.preset : (names.indexOf("american") >= 0 ? "american" : names[0]);
    choosePreset(presetSel.value);
    if (!$("name").value) $("name").focus();
  }

  init();
})();
