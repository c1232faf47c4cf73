/* The replay viewer: a finished game (/replay/{id}) or an uploaded record (/replay), step by step.
   The server's engine writes every step (docs/server.md, GET /api/games/{id}/replay): each seat's
   cards face up, the bids, the trick, the finished tricks, the score and the step in words. This page
   only shows them; it knows no rule of the game. */
"use strict";

(function () {
  const E = Euchre;
  const el = E.el;
  const $ = (id) => document.getElementById(id);
  const POSITIONS = { 4: ["bottom", "left", "top", "right"], 3: ["bottom", "left", "right"], 2: ["bottom", "top"] };
  /** Five to seven seats (Napoleon): the middle first, then the seats in order in a grid, and
      the trick as a row in seat order (every hand is face up here, so nobody's place matters). */
  function positionsOf(n) { return POSITIONS[n] || Array.from({ length: n }, (_, s) => `s${s}`); }
  const MARK_CLASS = { "??": "blunder", "?": "mistake", "?!": "inaccuracy" };
  const MARK_NAME = { "??": "blunder", "?": "mistake", "?!": "inaccuracy" };

  const match = location.pathname.match(/^\/replay\/([^/]+)\/?$/);
  const gameId = match ? decodeURIComponent(match[1]) : null;
  const viewer = { timeline: null, index: 0, analyzing: false, upload: null, game: null };
  window.euchreViewer = viewer; // for the browser tests

  // --- loading -----------------------------------------------------------------------------------
  function showError(message) {
    $("error").textContent = message;
    $("error").classList.toggle("hidden", !message);
  }

  async function fetchTimeline(analyze) {
    // Of a match, the game shown (viewer.game, 1-based); the server answers one game at a time.
    const params = [];
    if (analyze) params.push("analyze=1");
    if (viewer.game) params.push(`game=${viewer.game}`);
    const q = params.length ? "?" + params.join("&") : "";
    if (gameId) return E.fetchJSON(`/api/games/${encodeURIComponent(gameId)}/replay${q}`);
    return E.fetchJSON(`/api/replay${q}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(viewer.upload),
    });
  }

  function startAt() {
    const m = location.hash.match(/step=(\d+)/);
    return m ? Number(m[1]) : 0;
  }

  async function load(analyze) {
    showError("");
    $("loading").classList.remove("hidden");
    try {
      const t = await fetchTimeline(analyze);
      show(t, analyze ? viewer.index : startAt());
      if (!gameId) {
        $("upload").classList.add("hidden");
        $("another").classList.remove("hidden");
      }
    } catch (e) {
      const why = String(e.message || e);
      // The server's message of a bad record already says "the record cannot be replayed: ...".
      showError(gameId ? "This game cannot be replayed: " + why : why.charAt(0).toUpperCase() + why.slice(1));
    } finally {
      $("loading").classList.add("hidden");
    }
  }

  function show(t, index) {
    viewer.timeline = t;
    $("viewer").classList.remove("hidden");
    const picker = E.clear($("hand-picker"));
    t.hands.forEach((h, i) => {
      let label = `${i + 1}`;
      // a hand without trump in the game's words (Bid Euchre: "high", "low"), a moon as such
      const last = t.steps[h.last_step] || {};
      const named = E.isNoTrump(h.trump) && last.trump_words ? last.trump_words : E.SUIT_SYM[h.trump];
      if (h.trump) label += ` \u00b7 ${named} ${t.players[h.maker]}${h.moon ? " moon" : h.alone ? " alone" : ""}`;
      else if (h.points) label += " \u00b7 thrown in";
      picker.append(el("option", { value: String(i), text: label }));
    });
    $("slider").max = String(t.steps.length - 1);
    showMatch(t.match || null);
    const subtitle = (t.match ? `Game ${t.match.shown} of ${t.match.count}: ` : "") + t.summary
      + (t.players.length ? " · " + t.players.join(", ") : "");
    $("subtitle").textContent = subtitle;
    $("title").textContent = gameId ? "Replay of a finished game" : "Replay of a record";
    goto(Math.min(Math.max(0, index), t.steps.length - 1));
  }

  /** A match's record: a picker of its games and the match's outcome (t.match from the server). */
  function showMatch(m) {
    const box = $("match-pick");
    box.classList.toggle("hidden", !m);
    if (!m) return;
    const picker = E.clear($("game-picker"));
    for (let g = 1; g <= m.count; g++) {
      const done = m.games[g - 1];
      const label = done ? `${g} · ${done.scores.join(" - ")}` : `${g}`;
      picker.append(el("option", { value: String(g), text: label }));
    }
    picker.value = String(m.shown);
    $("match-line").textContent = m.summary.charAt(0).toUpperCase() + m.summary.slice(1);
  }

  // --- moving ------------------------------------------------------------------------------------
  function goto(i) {
    const t = viewer.timeline;
    if (!t) return;
    viewer.index = Math.min(Math.max(0, i), t.steps.length - 1);
    render();
    try { history.replaceState(null, "", `#step=${viewer.index}`); } catch (e) { /* file: or sandboxed */ }
  }

  function handOf() { return viewer.timeline.hands[viewer.timeline.steps[viewer.index].hand]; }

  // An edited address (#step=N typed or pasted, or the browser's back and forward) goes to its step.
  window.addEventListener("hashchange", () => {
    const m = location.hash.match(/step=(\d+)/);
    if (m && viewer.timeline && Number(m[1]) !== viewer.index) goto(Number(m[1]));
  });

  const moves = {
    next: () => goto(viewer.index + 1),
    prev: () => goto(viewer.index - 1),
    first: () => goto(handOf().first_step),
    last: () => goto(handOf().last_step),
    handBefore: () => { const h = handOf().hand; goto(h > 0 ? viewer.timeline.hands[h - 1].first_step : 0); },
    handAfter: () => { const h = handOf().hand, hs = viewer.timeline.hands; goto(h + 1 < hs.length ? hs[h + 1].first_step : viewer.index); },
  };

  // --- drawing -----------------------------------------------------------------------------------
  function marksOn() { return $("analyze").checked && viewer.timeline && viewer.timeline.analyzed; }

  function markEl(review, withLoss) {
    if (!review) return null;
    if (!review.mark) return el("span", { class: "mark good", title: "the best choice, or within the noise",
                                          text: withLoss ? "\u2713 best choice" : "\u2713" });
    return el("span", { class: "mark " + MARK_CLASS[review.mark], title: `${MARK_NAME[review.mark]}: ${review.loss.toFixed(2)} expected points given away`,
                        text: withLoss ? `${review.mark} \u2212${review.loss.toFixed(2)}` : review.mark });
  }

  function badge(text, cls) { return el("span", { class: "vbadge " + (cls || ""), text }); }

  function seatEl(t, st, seat, pos) {
    const roles = el("span", { class: "vroles" });
    if (seat === st.dealer) roles.append(badge("dealer", "dealer"));
    if (seat === st.maker) roles.append(badge(st.moon ? "moon" : st.alone ? "maker, alone" : "maker", "maker"));
    if (seat === st.lone_defender) roles.append(badge("defends alone", "maker"));
    if (st.sitting_out.indexOf(seat) >= 0) roles.append(badge("sits out", "out"));
    if (seat === st.to_act) roles.append(badge("to act", "turn"));
    const cards = el("div", { class: "vcards" });
    for (const c of st.hands[seat]) cards.append(E.cardEl(c));
    if (!st.hands[seat].length) cards.append(el("span", { class: "muted small", text: "no cards left" }));
    const box = el("div", { class: "vseat" + (seat === st.seat ? " acted" : "") + (st.sitting_out.indexOf(seat) >= 0 ? " out" : ""),
                            dataset: { seat: String(seat), pos } },
      el("div", { class: "vseat-head" },
        el("span", { class: "vname", text: t.players[seat] }),
        el("span", { class: "vtricks muted small", text: `${st.tricks_won[seat]} trick${st.tricks_won[seat] === 1 ? "" : "s"}` }),
        roles),
      cards);
    return box;
  }

  function cardsLine(plays, players, winner) {
    const li = el("li");
    plays.forEach((p, k) => {
      if (k) li.append(el("span", { class: "muted", text: " \u00b7 " }));
      const who = el("span", { class: p.seat === winner ? "winner-mark" : "", text: players[p.seat] + " " });
      li.append(who, E.cardText(p.card));
    });
    return li;
  }

  function render() {
    const t = viewer.timeline;
    const st = t.steps[viewer.index];
    const hand = t.hands[st.hand];
    const n = t.players.length;
    const pos = positionsOf(n);

    // controls
    $("prev").disabled = viewer.index === 0;
    $("next").disabled = viewer.index === t.steps.length - 1;
    $("first").disabled = viewer.index === hand.first_step;
    $("last").disabled = viewer.index === hand.last_step;
    $("hand-picker").value = String(st.hand);
    $("slider").value = String(viewer.index);
    const where = st.number === null ? "the deal" : `action ${st.number + 1} of ${hand.last_step - hand.first_step}`;
    $("position").textContent = `Hand ${st.hand + 1} of ${t.hands.length} · ${where} · step ${viewer.index + 1} of ${t.steps.length}`;

    // the step in words, with its mark
    $("words").textContent = st.words + (st.choices === 1 ? " (no choice)" : "");
    const mark = $("mark");
    E.clear(mark);
    const showMark = marksOn() && st.review;
    mark.classList.toggle("hidden", !showMark);
    $("best").classList.toggle("hidden", !(showMark && st.review.mark));
    if (showMark) {
      const m = markEl(st.review, true);
      mark.className = m.className;
      mark.title = m.title;
      mark.textContent = m.textContent;
      const points = (x) => (x >= 0 ? "+" : "\u2212") + Math.abs(x).toFixed(2);
      if (st.review.mark) $("best").textContent = `Best: ${st.review.best_words}. Expected points: ` +
        st.review.options.slice(0, 4).map((o) => `${o.words} ${points(o.points)}`).join(" \u00b7 ");
    }
    $("result").textContent = st.result || "";
    $("result").classList.toggle("hidden", !st.result);
    $("game-over").textContent = st.game_over || "";
    $("game-over").classList.toggle("hidden", !st.game_over);

    // the table: every seat face up, the up card, trump, the trick
    const felt = $("felt");
    felt.dataset.players = String(n);
    felt.classList.toggle("many", n > 4);
    felt.classList.toggle("twelve", (st.hand_size || 5) >= 12);   // the double deck: rows of six on a phone
    $("trick").classList.toggle("many", n > 4);
    for (const old of Array.from(felt.querySelectorAll(".vseat"))) old.remove();
    for (let s = 0; s < n; s++) felt.append(seatEl(t, st, s, pos[s]));
    // the up card and its fate; a game without one (Hasenpfeffer) shows the high bid there
    const up = E.clear($("up-card"));
    const upLabel = $("up-box").querySelector(".muted");
    if (st.up_card) {
      up.append(E.cardEl(st.up_card));
      $("up-box").dataset.fate = st.up_fate;
      $("up-fate").textContent = st.up_fate_words + (st.discard ? "; buried: " : "");
      if (st.discard) $("up-fate").append(E.cardText(st.discard));
      if (upLabel) upLabel.textContent = "Up card";
    } else {
      $("up-box").dataset.fate = "none";
      if (upLabel) upLabel.textContent = "High bid";
      const holder = st.bidder !== null && st.bidder !== undefined ? t.players[st.bidder] : null;
      const said = t.rules.napoleon && st.bid_words ? st.bid_words : st.moon ? "moon" : st.bid ? String(st.bid) : "\u2013";
      up.append(el("strong", { class: "num", id: "high-bid", text: said }));
      $("up-fate").textContent = st.bid ? `by ${holder}${st.forced_bid ? " (forced: holds the Joker)" : ""}` : "no bid yet";
      // the moon's gift (Bid Euchre): face up here, as every card is
      const gift = (st.gifts || [])[0];
      if (st.moon && gift) {
        $("up-fate").append(el("br"), `${t.players[gift.giver]} gave `, E.cardText(gift.card),
                            gift.discard ? "; discarded " : "", gift.discard ? E.cardText(gift.discard) : "");
      }
    }
    const trump = E.clear($("trump-line"));
    if (st.trump) {
      // a hand without trump in the game's words (Bid Euchre's "high" and "low": trump_words)
      const named = E.isNoTrump(st.trump) && st.trump_words ? el("span", { class: "no-trump", text: st.trump_words }) : E.suitSpan(st.trump, true);
      trump.append("Trump ", named, el("br"),
        el("span", { class: "muted small", text: `made by ${t.players[st.maker]}${st.alone ? ", alone" : ""}` }));
    } else {
      trump.append(el("span", { class: "muted small", text: st.phase_words }));
    }
    const trick = E.clear($("trick"));
    const inTrick = {};
    for (const p of st.trick) inTrick[p.seat] = p.card;
    // Between tricks, the last finished trick stays in the middle (dimmed) until the next card.
    const lastDone = !st.trick.length && st.tricks.length && st.kind === "play" ? st.tricks[st.tricks.length - 1] : null;
    if (lastDone) for (const p of lastDone.plays) inTrick[p.seat] = p.card;
    trick.classList.toggle("done", !!lastDone);
    trick.classList.toggle("empty", !Object.keys(inTrick).length);
    for (let s = 0; s < n; s++) {
      const slot = el("div", { class: "vslot", dataset: { pos: pos[s], seat: String(s) } });
      if (inTrick[s]) {
        slot.dataset.card = inTrick[s];
        slot.append(E.cardEl(inTrick[s]));
        if (lastDone && lastDone.winner === s) slot.classList.add("win");
      }
      trick.append(slot);
    }
    $("trick-note").textContent = lastDone ? `${t.players[lastDone.winner]} wins the trick` : "";
    $("trick-note").classList.toggle("hidden", !lastDone);

    // score, bids, tricks
    const score = E.clear($("vscore"));
    t.sides.forEach((seats, i) => {
      score.append(el("div", { class: "vscore-row" },
        el("span", { text: seats.map((s) => t.players[s]).join(" & ") }),
        el("strong", { class: "num", text: st.scores[i] < 0 ? "\u2212" + -st.scores[i] : String(st.scores[i]) })));
    });
    if (t.rules && t.rules.target) score.append(el("div", { class: "muted small", text: `game to ${t.rules.target}` }));
    const bids = E.clear($("vbids"));
    for (const b of st.bids) bids.append(el("li", { text: b.words }));
    if (!st.bids.length) bids.append(el("li", { class: "muted empty", text: "no bid yet" }));
    const tricks = E.clear($("tricks"));
    st.tricks.forEach((tr) => {
      const li = cardsLine(tr.plays, t.players, tr.winner);
      li.append(el("span", { class: "muted", text: ` \u2192 ${t.players[tr.winner]}` }));
      tricks.append(li);
    });
    if (st.trick.length) {
      const li = cardsLine(st.trick, t.players, -1);
      li.classList.add("current");
      li.append(el("span", { class: "muted", text: " (being played)" }));
      tricks.append(li);
    }
    if (!tricks.childNodes.length) tricks.append(el("li", { class: "muted empty", text: "no card played yet" }));

    // every step of this hand, with the marks beside the decisions
    const list = E.clear($("moves"));
    let current = null;
    for (let i = hand.first_step; i <= hand.last_step; i++) {
      const s = t.steps[i];
      const b = el("button", { type: "button", class: "move", dataset: { step: String(i) }, text: s.words });
      b.addEventListener("click", () => goto(i));
      const li = el("li", { class: i === viewer.index ? "here" : (i > viewer.index ? "later" : "") }, b);
      if (i === viewer.index) { li.setAttribute("aria-current", "step"); current = li; }
      if (marksOn() && s.review) li.append(markEl(s.review, false));
      list.append(li);
    }
    if (current) {
      // keep the current step in sight inside the list, without scrolling the page
      const top = current.offsetTop; // the list is positioned: offsets are from its top
      if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
  }

  // --- wiring ------------------------------------------------------------------------------------
  $("next").addEventListener("click", moves.next);
  $("prev").addEventListener("click", moves.prev);
  $("first").addEventListener("click", moves.first);
  $("last").addEventListener("click", moves.last);
  $("hand-picker").addEventListener("change", (e) => goto(viewer.timeline.hands[Number(e.target.value)].first_step));
  $("game-picker").addEventListener("change", (e) => {
    viewer.game = Number(e.target.value);
    $("analyze").checked = false;
    try { history.replaceState(null, "", "#step=0"); } catch (err) { /* file: or sandboxed */ }
    load(false);
  });
  $("slider").addEventListener("input", (e) => goto(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (!viewer.timeline || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const key = { ArrowRight: moves.next, ArrowLeft: moves.prev, Home: moves.first, End: moves.last,
                  PageUp: moves.handBefore, PageDown: moves.handAfter }[e.key];
    if (key) { e.preventDefault(); key(); }
  });
  $("analyze").addEventListener("change", async () => {
    const t = viewer.timeline;
    if (!$("analyze").checked || !t || t.analyzed) { if (t) render(); return; }
    viewer.analyzing = true;
    $("analyze").disabled = true;
    $("analyze-status").textContent = "analysing every decision (a few seconds)…";
    try {
      const analysed = await fetchTimeline(true);
      show(analysed, viewer.index);
      $("analyze-status").textContent = "?! inaccuracy · ? mistake · ?? blunder (expected points lost)";
    } catch (e) {
      $("analyze").checked = false;
      $("analyze-status").textContent = "";
      showError("The analysis failed: " + (e.message || e));
    } finally {
      viewer.analyzing = false;
      $("analyze").disabled = false;
    }
  });

  // the upload form
  $("another").addEventListener("click", () => {
    $("upload").classList.remove("hidden");
    $("another").classList.add("hidden");
    $("record").focus();
  });
  $("file").addEventListener("change", () => {
    const f = $("file").files && $("file").files[0];
    if (!f) return;
    if (f.size > 60 * 1024) { showError("That file is too big for a record (at most 60 KB)."); return; }
    const reader = new FileReader();
    reader.onload = () => { $("record").value = String(reader.result || ""); showError(""); };
    reader.onerror = () => showError("The file cannot be read.");
    reader.readAsText(f);
  });
  $("load").addEventListener("click", () => {
    const text = $("record").value;
    if (!text.trim()) { showError("Choose a record file or paste a record first."); return; }
    viewer.upload = { record: text, format: $("format").value || null };
    viewer.game = null;
    $("analyze").checked = false;
    $("analyze-status").textContent = "";
    load(false);
  });

  if (gameId) {
    load(false);
  } else {
    $("upload").classList.remove("hidden");
  }
})();
