/* The Euchre table: speaks the WebSocket protocol of docs/server.md and renders the latest state.
   No rule is computed here: everything shown comes from the server's view (legal actions included).
   Untrusted text (names, chat, hint words) is only ever set with textContent. */
"use strict";

(function () {
  const E = Euchre;
  const el = E.el;
  const $ = (id) => document.getElementById(id);

  // ---------------------------------------------------------------- configuration
  const PING_EVERY = 20000;     // ms between pings
  const PONG_WAIT = 9000;       // ms without pong before reconnecting
  const BACKOFF_MIN = 500;      // first reconnect delay
  const BACKOFF_MAX = 8000;     // largest reconnect delay
  const PACE_PLAY = 320;        // ms between other seats' actions shown one by one
  const PACE_TRICK = 1300;      // ms to keep a completed trick on the felt before the next frame (its sweep done)
  const PACE_HAND = 1800;       // ms after a hand ended before the next frame
  const ACK_WAIT = 12000;       // ms without ack before forcing a reconnect (the action is resent)
  const SUMMARY_MIN = 2200;     // ms the hand-over banner stays at least
  const SUMMARY_MAX = 9000;     // ms the hand-over banner stays at most
  const TRICK_FLASH = 2600;     // ms the "last trick" line above the hand stays after a trick of the hand ends
  const LOST_GRACE = 700;       // ms without a socket before "Connection lost" shows (acting is off at once)
  const BIDDING = ["bid1", "take", "bid2", "joker", "discard", "defend", "give", "best_discard", "call_for_best",
    "misdeal_offer", "farmer_offer", "farmer_give", "offers", "auction", "name_trump"];
  // An auction of tricks instead of the up card (Hasenpfeffer): the high bid shows in the middle
  const AUCTION_PHASES = ["auction", "name_trump"];
  // Before the bidding (house rules ace_no_face, farmers_hand): the up card shows, no trump yet
  const OFFER_PHASES = ["misdeal_offer", "farmer_offer", "farmer_give", "offers"];
  // Call for best (house rule call_for_best): a card passed to a lone player, who discards one
  const BEST_PHASES = ["give", "best_discard", "call_for_best"];
  const MATCH_NOTICE = 12000;   // ms the "game 1 won, game 2 starts" notice of a match stays at most
  const AUTOPLAY_BEAT = 650;    // ms before a forced card is played for the player (the setting)
  // Motion, in ms at the normal speed (fast takes FAST_SCALE of each; off shows no motion at all)
  const FLY_PLAY = 280;         // a card from its seat (or your hand) to the middle
  const FLY_DEAL = 300;         // a card of a new hand from the dealer to your hand
  const DEAL_STAGGER = 70;      // between two dealt cards
  const FLY_UP = 420;           // the up card to the dealer
  const SWEEP_BEAT = 500;       // a complete trick stays this long before it sweeps to its winner
                                // (its last card's flight + SWEEP_BEAT + FLY_SWEEP ends before PACE_TRICK:
                                // the next frame would cut the sweep short)
  const FLY_SWEEP = 360;        // the sweep
  const FLY_REFLOW = 170;       // the cards left in your hand closing up
  const FAST_SCALE = 0.55;      // motion and pacing at the fast speed

  // ---------------------------------------------------------------- table id and token
  const pathParts = location.pathname.split("/").filter(Boolean);
  const tableId = decodeURIComponent(pathParts[pathParts.length - 1] || "");
  const token = (function () {
    const h = location.hash.replace(/^#/, "");
    try { return new URLSearchParams(h).get("token") || null; } catch (e) { return null; }
  })();

  // ---------------------------------------------------------------- state
  const S = {
    ws: null,
    welcomed: false,
    stopped: false,
    attempt: 0,
    reconnectTimer: null,
    pingTimer: null,
    pongTimer: null,
    ackTimer: null,
    seat: null,
    host: false,
    shown: null,          // the state frame shown {t, v, d}
    shownV: -1,
    queue: [],            // newer state frames waiting to be shown (paced)
    pumpTimer: null,
    nextAt: 0,
    pending: null,        // the act frame sent and not yet answered
    seq: 0,
    sel: -1,              // selected card index in the hand (keyboard)
    chatKeys: new Set(),
    hints: null,          // {v, items} or {v, loading: true}
    summary: null,        // {p, at, closed}
    summaryTimer: null,
    trickFlash: null,     // {key, trick, until}: the trick that just ended (key: trickKey of its frame)
    flashTimer: null,
    toastTimer: null,
    down: false,          // the socket was lost (or never opened) and is not back yet
    downSince: 0,
    downTimer: null,
    renderKeys: {},
    layoutKey: "",
    slots: {},
    seatEls: {},
    settings: null,       // the player's settings (loadSettings)
    confirm: null,        // {action, v}: an "... alone" waiting for its confirmation
    autoKey: null,        // the version a forced card was scheduled for ("skip" after an undo)
    autoTimer: null,
    sweptKey: null,       // the complete trick (hand:trick) that has swept to its winner
    hintsClosed: null,    // the version whose hint strip the player closed
    firstHintV: null,     // the version of the game's first hint answered here (its answers say it made a practice game; false: none will)
    undoNoted: false,     // a take-back was answered here, and the player told it made a practice game (or it was one already)
    matchSeen: null,      // the finished games of the match in the frame shown before (null: none seen)
    matchNotice: null,    // {text, at, hand}: a game of the match ended and the next began (its first hand)
  };

  // ---------------------------------------------------------------- settings
  // One localStorage key, JSON; every field is checked on load and a value that is not one of its
  // choices (or a value that is not JSON at all) is the default. speed null: not chosen, so the
  // system's "reduce motion" decides (off), else normal.
  const SETTINGS_KEY = "euchre.settings";
  const SETTING_CHOICES = {
    speed: [null, "off", "normal", "fast"],
    sounds: [false, true],
    autoplay: [false, true],
    confirmAlone: [false, true],
    cardSize: ["normal", "small", "large"],
    fourColor: [false, true],
    hints: [true, false],
  };

  function defaultSettings() {
    const out = {};
    for (const [k, choices] of Object.entries(SETTING_CHOICES)) out[k] = choices[0];
    return out;
  }

  function loadSettings() {
    const out = defaultSettings();
    let obj = null;
    try { obj = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "null"); } catch (e) { return out; }
    if (!obj || typeof obj !== "object" || Array.isArray(obj)) return out;
    for (const [k, choices] of Object.entries(SETTING_CHOICES)) if (choices.indexOf(obj[k]) >= 0) out[k] = obj[k];
    return out;
  }

  function saveSettings() {
    try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(S.settings)); } catch (e) { /* private mode: this visit only */ }
  }

  const reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  /** off, normal or fast: the player's choice, else off when the system asks for reduced motion. */
  function motion() {
    if (S.settings && S.settings.speed) return S.settings.speed;
    return reducedMotion && reducedMotion.matches ? "off" : "normal";
  }

  /** Applied to the page (classes on body) and to the panel's controls. */
  function applySettings() {
    const st = S.settings;
    const body = document.body;
    body.classList.toggle("four-color", st.fourColor);
    body.classList.toggle("cards-small", st.cardSize === "small");
    body.classList.toggle("cards-large", st.cardSize === "large");
    body.classList.toggle("no-hints", !st.hints);
    body.classList.toggle("motion-off", motion() === "off");
    $("set-speed").value = motion();
    $("set-sounds").checked = st.sounds;
    $("set-autoplay").checked = st.autoplay;
    $("set-confirm-alone").checked = st.confirmAlone;
    $("set-card-size").value = st.cardSize;
    $("set-four-color").checked = st.fourColor;
    $("set-hints").checked = st.hints;
  }

  function changeSetting(key, value) {
    if (SETTING_CHOICES[key].indexOf(value) < 0) return;
    S.settings[key] = value;
    saveSettings();
    if (key === "sounds" && value) sound("turn");   // made on this click (a user gesture), so it may play
    if (key === "confirmAlone" || key === "hints") S.confirm = null;
    applySettings();
    S.renderKeys = {};
    if (D()) render();
  }

  function openSettings(open) {
    const panel = $("settings-panel");
    const button = $("settings-button");
    const was = !panel.classList.contains("hidden");
    panel.classList.toggle("hidden", !open);
    button.setAttribute("aria-expanded", open ? "true" : "false");
    if (open && !was) $("set-speed").focus({ preventScroll: true });
    else if (!open && was && panel.contains(document.activeElement)) button.focus({ preventScroll: true });
  }

  function initSettings() {
    S.settings = loadSettings();
    const on = (id, key, read) => $(id).addEventListener("change", (e) => changeSetting(key, read(e.target)));
    on("set-speed", "speed", (t) => t.value);
    on("set-sounds", "sounds", (t) => t.checked);
    on("set-autoplay", "autoplay", (t) => t.checked);
    on("set-confirm-alone", "confirmAlone", (t) => t.checked);
    on("set-card-size", "cardSize", (t) => t.value);
    on("set-four-color", "fourColor", (t) => t.checked);
    on("set-hints", "hints", (t) => t.checked);
    $("settings-button").addEventListener("click", () => openSettings($("settings-panel").classList.contains("hidden")));
    $("settings-close").addEventListener("click", () => openSettings(false));
    $("settings-panel").addEventListener("keydown", (e) => {
      if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); openSettings(false); }
    });
    document.addEventListener("pointerdown", (e) => {
      const panel = $("settings-panel");
      if (!panel.classList.contains("hidden") && !panel.contains(e.target) && !$("settings-button").contains(e.target)) openSettings(false);
    });
    if (reducedMotion && reducedMotion.addEventListener) reducedMotion.addEventListener("change", applySettings);
    applySettings();
  }

  // ---------------------------------------------------------------- sounds
  // Short synthesized sounds (WebAudio, no files), off by default: no AudioContext exists until the
  // player turns them on.
  const Sound = { ctx: null, made: 0 };

  function audio() {
    if (!S.settings || !S.settings.sounds) return null;
    if (!Sound.ctx) {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return null;
      try { Sound.ctx = new AC(); Sound.made += 1; } catch (e) { return null; }
    }
    if (Sound.ctx.state === "suspended") { try { Sound.ctx.resume().catch(() => {}); } catch (e) { /* ignore */ } }
    return Sound.ctx;
  }

  function tone(ctx, at, freq, dur, o) {
    o = o || {};
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = o.type || "sine";
    osc.frequency.setValueAtTime(freq, at);
    if (o.to) osc.frequency.exponentialRampToValueAtTime(o.to, at + dur);
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(o.vol || 0.12, at + 0.008);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + dur);
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start(at);
    osc.stop(at + dur + 0.02);
  }

  /** card: a card played; trick: a trick won; turn: your turn. */
  function sound(kind) {
    const ctx = audio();
    if (!ctx) return;
    try {
      const t = ctx.currentTime + 0.01;
      if (kind === "card") tone(ctx, t, 340, 0.07, { type: "triangle", to: 180, vol: 0.16 });
      else if (kind === "trick") { tone(ctx, t, 660, 0.09, { vol: 0.09 }); tone(ctx, t + 0.09, 880, 0.14, { vol: 0.09 }); }
      else if (kind === "turn") { tone(ctx, t, 523, 0.12, { vol: 0.08 }); tone(ctx, t + 0.1, 784, 0.2, { vol: 0.08 }); }
    } catch (e) { /* no sound, no harm */ }
  }

  // ---------------------------------------------------------------- motion
  // Cards move as copies ("ghosts") on a layer above the page that takes no pointer events; the
  // real card is already in its place (only transparent while its ghost flies), so a click or a
  // key acts at once, whatever moves. A new frame finishes every flight before it is shown (FLIP:
  // the places are measured before and after the render).
  const FX = { layer: null, flights: [], sweepTimer: null, started: 0, away: new Set(), debugScale: 1 };

  function motionScale() {
    const m = motion();
    if (m === "off") return 0;
    return (m === "fast" ? FAST_SCALE : 1) * FX.debugScale;
  }

  function fxLayer() {
    if (!FX.layer || !FX.layer.isConnected) {
      FX.layer = el("div", { id: "fx", class: "fx-layer", "aria-hidden": "true" });
      document.body.append(FX.layer);
    }
    return FX.layer;
  }

  function rectOf(e) {
    const r = e.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height };
  }

  /** A card-shaped rect of width w centred on rect r (a seat's box). */
  function cardAt(r, w) { return { x: r.x + r.w / 2 - w / 2, y: r.y + r.h / 2 - w * 0.7, w, h: w * 1.4 }; }

  /** The element a hidden key stands for: "hand:Jh" (a card in your hand), "slot:top" (a trick slot's card). */
  function awayEl(key) {
    const [kind, what] = key.split(":");
    if (kind === "hand") return $("hand").querySelector(`.card[data-card="${CSS.escape(what)}"]`);
    if (kind === "slot") return S.slots[what] ? S.slots[what].querySelector(".card") : null;
    return null;
  }

  function setAway(key, on) {
    if (on) FX.away.add(key); else FX.away.delete(key);
    const e = awayEl(key);
    if (e) e.classList.toggle("fx-away", on);
  }

  /** Fly a copy of card from rect a to rect b. home: the rect the copy is laid out at ("to": it lands
      exactly on its card; "from": it leaves from it). hide: a key (awayEl) kept transparent meanwhile. */
  function fly(card, a, b, o) {
    const scale = motionScale();
    if (!scale || !a || !b || !a.w || !b.w) return null;
    const home = o.home === "from" ? a : b;
    const g = card ? E.cardEl(card) : E.backEl();
    g.classList.add("ghost");
    g.style.cssText = `left:${home.x}px;top:${home.y}px;--w:${home.w}px`;
    fxLayer().append(g);
    const tf = (r) => `translate(${r.x - home.x}px, ${r.y - home.y}px) scale(${r.w / home.w})`;
    const f = { g, hide: o.hide || null, done: false };
    f.anim = g.animate([{ transform: tf(a), opacity: o.fromOpacity === undefined ? 1 : o.fromOpacity },
                        { transform: tf(b), opacity: o.toOpacity === undefined ? 1 : o.toOpacity }],
                       { duration: o.dur * scale, delay: (o.delay || 0) * scale, easing: o.easing || "cubic-bezier(.25,.75,.35,1)", fill: "both" });
    f.anim.onfinish = () => endFlight(f);
    if (f.hide) setAway(f.hide, true);
    FX.flights.push(f);
    FX.started += 1;
    return f;
  }

  /** Slide a real element from where it was (FLIP): only a short move inside your hand. */
  function slide(e, from, dur) {
    const scale = motionScale();
    const to = rectOf(e);
    const dx = from.x - to.x;
    if (!scale || Math.abs(dx) < 1) return;
    const f = { g: null, hide: null, done: false };
    f.anim = e.animate([{ transform: `translateX(${dx}px)` }, { transform: "none" }], { duration: dur * scale, easing: "ease-out" });
    f.anim.onfinish = () => endFlight(f);
    FX.flights.push(f);
  }

  function endFlight(f) {
    if (f.done) return;
    f.done = true;
    const i = FX.flights.indexOf(f);
    if (i >= 0) FX.flights.splice(i, 1);
    if (f.g) f.g.remove();
    if (f.hide && !FX.flights.some((x) => x.hide === f.hide)) setAway(f.hide, false);
  }

  /** Every running flight ends now (its card shows in its place). */
  function finishFlights() {
    clearTimeout(FX.sweepTimer);
    FX.sweepTimer = null;
    for (const f of FX.flights.slice()) {
      try { f.anim.cancel(); } catch (e) { /* ignore */ }
      endFlight(f);
    }
    for (const key of Array.from(FX.away)) setAway(key, false);
  }

  /** Where the cards are now, before a frame is rendered. */
  function snapshot() {
    if (!motionScale()) return null;
    const snap = { hand: {}, slots: {}, up: null };
    for (const c of handCards()) snap.hand[c.dataset.card] = rectOf(c);
    const grid = $("trick");
    const swept = !!(grid && grid.classList.contains("swept"));
    for (const [pos, slot] of Object.entries(S.slots)) {
      const c = slot.querySelector(".card");
      if (c && slot.dataset.card) snap.slots[pos] = { card: slot.dataset.card, r: rectOf(c), swept };
    }
    const up = document.querySelector("#up-card .card");
    if (up) snap.up = { card: up.dataset.card, r: rectOf(up) };
    return snap;
  }

  /** The frame is the first of a hand just dealt: the hand before is in it (d.previous, which the
      server sends until the new hand's first card) and the new hand has no action yet. */
  function justDealt(d) {
    return !!(d && d.previous && d.view && !(d.view.actions || []).length);
  }

  /** The frame ends a hand someone claimed (d.claimed: the hand and seat of the latest claim): the
      rest of its cards were played at once. */
  function isClaim(f) {
    const d = f && f.d;
    if (!d) return false;
    const c = d.claimed;
    const l = d.last;
    if (l && typeof l.action === "string" && /claim/i.test(l.action)) return true;
    if (!c || typeof c.hand !== "number") return false;
    const p = justDealt(d) ? d.previous : (d.status === "over" ? d.view : null);
    return !!(p && p.hand_number === c.hand);
  }

  function claimer(d, p) {
    const c = d && d.claimed;
    return c && p && c.hand === p.hand_number && typeof c.seat === "number" ? c.seat : null;
  }

  function seatRect(s) { const e = S.seatEls[s]; return e ? rectOf(e.root) : null; }

  function trickKey(v) { return `${v.hand_number}:${(v.tricks || []).length}`; }

  /** The motion from the frame shown before to the one now shown (see snapshot). */
  function animate(before, now, snap, skipped) {
    if (!snap || !before || document.hidden || !motionScale()) return;
    const d = now.d;
    const v = d.view;
    const pv = before.d && before.d.view;
    if (!v || !pv || d.status !== "playing") return;
    const newHand = v.hand_number !== pv.hand_number;
    const claimed = isClaim(now) || skipped.some(isClaim);       // a claim: the rest at once, no sweep
    const added = (v.tricks || []).length - (pv.tricks || []).length;
    if (!newHand && Math.abs(added) > 1) return;                   // a jump: shown as it is
    const n = playersOf(d);
    const inSlots = {};
    for (const [pos, x] of Object.entries(snap.slots)) if (!x.swept) inSlots[x.card] = x.r;
    // the last trick of the hand before: what is left of it on the felt goes to its winner
    if (newHand && !claimed && d.previous && Array.isArray(d.previous.tricks) && d.previous.tricks.length) {
      const w = seatRect(d.previous.tricks[d.previous.tricks.length - 1].winner);
      for (const x of Object.values(snap.slots)) {
        if (!x.swept && w) fly(x.card, x.r, cardAt(w, x.r.w * 0.5), { home: "from", dur: FLY_SWEEP, toOpacity: 0 });
      }
    }
    // the cards of your hand: dealt, back from the trick (an undo), the up card picked up
    const cards = handCards();
    let dealt = 0;
    const dealer = seatRect(v.dealer);
    cards.forEach((c) => {
      const card = c.dataset.card;
      const key = "hand:" + card;
      if (snap.hand[card]) { if (!newHand) slide(c, snap.hand[card], FLY_REFLOW); return; }
      const to = rectOf(c);
      if (snap.up && snap.up.card === card && !newHand) fly(card, snap.up.r, to, { dur: FLY_UP, hide: key });
      else if (inSlots[card] && !newHand) fly(card, inSlots[card], to, { dur: FLY_PLAY, hide: key });
      else if (!newHand && snap.up && Array.isArray(v.farmer_took) && v.farmer_took.indexOf(card) >= 0) {
        fly(card, snap.up.r, to, { dur: FLY_UP, hide: key, fromOpacity: 0.3 });   // the farmer's cards, from under the up card
      } else if (!newHand && S.seat !== null && giftTo(v, S.seat) && giftTo(v, S.seat).card === card && seatRect(giftTo(v, S.seat).giver)) {
        fly(card, cardAt(seatRect(giftTo(v, S.seat).giver), to.w * 0.6), to, { dur: FLY_UP, hide: key, fromOpacity: 0.3 });   // call for best
      }
      else if (newHand && dealer) {
        fly(card, cardAt(dealer, to.w * 0.6), to, { dur: FLY_DEAL, delay: dealt * DEAL_STAGGER, hide: key, fromOpacity: 0.2 });
        dealt += 1;
      }
    });
    // the up card taken by another dealer: to that seat
    if (snap.up && !newHand && v.up_card_taken && !document.querySelector("#up-card") && !(snap.up.card in snap.hand) &&
        !cards.some((c) => c.dataset.card === snap.up.card) && dealer) {
      fly(snap.up.card, snap.up.r, cardAt(dealer, snap.up.r.w * 0.55), { home: "from", dur: FLY_UP, toOpacity: 0.15 });
    }
    // the cards new in the trick: from your hand, or from their seat
    let plays = Array.isArray(v.trick) ? v.trick : [];
    const grid = $("trick");
    if (!plays.length && grid && grid.classList.contains("done") && v.tricks.length) plays = v.tricks[v.tricks.length - 1].plays || [];
    let fresh = 0;
    for (const p of plays) {
      const pos = posOf(p.seat, n);
      const slot = S.slots[pos];
      const c = slot && slot.querySelector(".card");
      if (!c) continue;
      const was = snap.slots[pos];
      if (was && was.card === p.card && !newHand) continue;
      const to = rectOf(c);
      const from = snap.hand[p.card] || (seatRect(p.seat) && cardAt(seatRect(p.seat), to.w * 0.6));
      fly(p.card, from, to, { dur: FLY_PLAY, delay: fresh * 110, hide: "slot:" + pos, fromOpacity: snap.hand[p.card] ? 1 : 0.3 });
      fresh += 1;
    }
    if (grid && grid.classList.contains("done") && added === 1) scheduleSweep(v, FLY_PLAY + fresh * 110);
  }

  /** A complete trick stays a moment, then sweeps to its winner's seat (the felt is clear for the lead). */
  function scheduleSweep(v, after) {
    const key = trickKey(v);
    const last = v.tricks[v.tricks.length - 1];
    clearTimeout(FX.sweepTimer);
    FX.sweepTimer = setTimeout(() => {
      FX.sweepTimer = null;
      const grid = $("trick");
      const now = V();
      if (!grid || !grid.classList.contains("done") || !now || trickKey(now) !== key || !motionScale()) return;
      const w = seatRect(last.winner);
      if (!w) return;
      for (const slot of Object.values(S.slots)) {
        const c = slot.querySelector(".card");
        if (!c) continue;
        const r = rectOf(c);
        fly(c.dataset.card, r, cardAt(w, r.w * 0.5), { home: "from", dur: FLY_SWEEP, toOpacity: 0, easing: "ease-in" });
      }
      S.sweptKey = key;
      render();
    }, (after + SWEEP_BEAT) * motionScale());
  }

  /** The sounds of a new frame: a card played, a trick won, your turn. */
  function sounds(before, now) {
    if (!S.settings.sounds || !before) return;
    const v = now.d.view;
    const pv = before.d && before.d.view;
    if (!v || !pv) return;
    const count = (x) => (x.tricks || []).length * 100 + (x.trick || []).length;
    if (v.hand_number === pv.hand_number) {
      if (count(v) > count(pv)) sound("card");
      if ((v.tricks || []).length > (pv.tricks || []).length) setTimeout(() => sound("trick"), 160);
    } else if (now.d.previous) setTimeout(() => sound("trick"), 160);
    if (isMyTurn(now) && !isMyTurn(before)) setTimeout(() => sound("turn"), 320);
  }

  // ---------------------------------------------------------------- small helpers
  function send(obj) {
    if (S.ws && S.ws.readyState === WebSocket.OPEN) {
      try { S.ws.send(JSON.stringify(obj)); return true; } catch (e) { return false; }
    }
    return false;
  }

  function newId() {
    S.seq += 1;
    return "a" + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36) + "-" + S.seq;
  }

  function toast(msg, kind, ms) {
    const t = $("toast");
    t.textContent = msg;
    t.className = "toast" + (kind ? " " + kind : "");
    clearTimeout(S.toastTimer);
    S.toastTimer = setTimeout(() => t.classList.add("hidden"), ms || (kind === "info" ? 2500 : 3500));
  }

  function setConn(text, cls) {
    const c = $("connection");
    c.textContent = text;
    c.className = cls;
  }

  function D() { return S.shown ? S.shown.d : null; }
  function V() { const d = D(); return d ? d.view : null; }

  /** The socket is open and welcomed: only then can anything be sent (acting, hints, chat). */
  function online() { return !!(S.ws && S.ws.readyState === WebSocket.OPEN && S.welcomed); }

  /** Nothing may be chosen: an action is on its way, or there is no connection to send one on. */
  function locked() { return !!S.pending || !online(); }

  // ---------------------------------------------------------------- connection lost
  function markDown() {
    if (!S.down) { S.down = true; S.downSince = Date.now(); }
    updateDown();
    if (D()) render();
  }

  function markUp() {
    S.down = false;
    updateDown();
    if (D()) render();
  }

  /** The banner shows once the socket has been gone for LOST_GRACE ms (a quick reconnect shows
      nothing); the controls are disabled from the first moment, by locked(). */
  function updateDown() {
    clearTimeout(S.downTimer);
    S.downTimer = null;
    const box = $("conn-banner");
    const lost = S.down && !S.stopped;
    document.body.classList.toggle("offline", lost);
    let show = false;
    if (lost) {
      const wait = S.downSince + LOST_GRACE - Date.now();
      if (wait > 0) S.downTimer = setTimeout(updateDown, wait + 10);
      else show = true;
    }
    if (show) {
      $("conn-banner-text").textContent = S.shown ? "Connection lost \u2014 reconnecting\u2026" : "Cannot reach the server \u2014 retrying\u2026";
      $("conn-banner-sub").textContent = S.shown ? "You cannot play until the table is back." : "The table shows once it answers.";
    }
    box.classList.toggle("hidden", !show);
  }

  function playersOf(d) {
    if (d && d.view && d.view.rules && d.view.rules.players) return d.view.rules.players;
    if (d && d.previous && d.previous.rules && d.previous.rules.players) return d.previous.rules.players;
    if (d && Array.isArray(d.seats) && d.seats.length) return d.seats.length;
    return 4;
  }

  /** The seats of each side, as the server's state frame lists them (`sides`, from the
   *  engine's Rules): the table never works out partnerships itself. None before a frame. */
  function sidesOf(d) {
    return d && Array.isArray(d.sides) ? d.sides : [];
  }

  function sideOfSeat(d, seat) {
    const sides = sidesOf(d);
    for (let i = 0; i < sides.length; i++) if (sides[i].indexOf(seat) >= 0) return i;
    return 0;
  }

  function seatInfo(d, s) {
    return (d && Array.isArray(d.seats) && d.seats.find((x) => x && x.seat === s)) || (d && d.seats && d.seats[s]) || null;
  }

  function baseName(d, s) {
    if (s === null || s === undefined) return "";
    const info = seatInfo(d, s);
    const name = info && info.name ? String(info.name) : "";
    return name || `Seat ${s + 1}`;
  }

  /** Where a seat sits as seen from the user (or "seat N" for spectators). */
  function relation(d, s) {
    const n = playersOf(d);
    if (S.seat === null || S.seat === undefined) return `seat ${s + 1}`;
    const k = ((s - S.seat) % n + n) % n;
    if (k === 0) return "you";
    if (n === 4) return ["", "left", "partner", "right"][k];
    if (n === 3) return ["", "left", "right"][k];
    return "opponent";
  }

  /** The seat's name, told apart from a seat of the same name (several "Hard bot"s). */
  function seatName(d, s) {
    const name = baseName(d, s);
    if (!d || !Array.isArray(d.seats)) return name;
    const dup = d.seats.some((x) => x && x.seat !== s && baseName(d, x.seat) === name);
    return dup ? `${name} (${relation(d, s)})` : name;
  }

  function whoName(d, s) {
    return (S.seat !== null && s === S.seat) ? "You" : seatName(d, s);
  }

  function sideLabel(d, i) {
    const sides = sidesOf(d);
    const seats = sides[i] || [];
    if (seats.length === 1) return (S.seat !== null && seats[0] === S.seat) ? "You" : seatName(d, seats[0]);
    const names = seats.map((s) => (S.seat !== null && s === S.seat) ? "You" : baseName(d, s));
    if (names.length > 1 && names.every((x) => x === names[0])) return `${names[0]}s`;
    return names.join(" & ");
  }

  function isMyTurn(frame) {
    const v = frame && frame.d && frame.d.view;
    return !!(v && Array.isArray(v.legal) && v.legal.length > 0 && frame.d.status !== "over");
  }

  function upSuit(view) {
    const c = view && E.parseCard(view.up_card);
    return c && !c.joker ? c.suit : null;
  }

  // ---------------------------------------------------------------- house rules
  /** A card in a few characters, for a line of text: "Q\u2663", "the Joker". */
  function cardShort(text) {
    const c = E.parseCard(text);
    if (!c) return "a card";
    if (c.joker) return "the Joker";
    return (E.RANK_TEXT[c.rank] || c.rank) + (E.SUIT_SYM[c.suit] || c.suit);
  }

  function cardsShort(list) { return (list || []).map(cardShort).join(" "); }

  /** The seat's partner (four players), as the server's sides say; null without one. */
  function partnerOf(d, s) {
    const side = sidesOf(d).find((x) => x.indexOf(s) >= 0) || [];
    const others = side.filter((x) => x !== s);
    return others.length === 1 ? others[0] : null;
  }

  function giftsOf(v) { return v && Array.isArray(v.gifts) ? v.gifts : []; }

  function isSeat(x) { return x !== null && x !== undefined; }

  /** A trump's name in the words of the game (d.trump_names, from the engine: Bid Euchre calls
      its hands without trump "high" and "low"; Euchre's house rule "no trump" and "low"). */
  function trumpName(t) {
    const d = D();
    const names = d && d.trump_names && typeof d.trump_names === "object" ? d.trump_names : null;
    return (names && typeof names[t] === "string" && names[t]) || E.SUIT_NAME[t] || String(t);
  }

  /** A trump as shown in a line: a coloured suit (with its name), or a no-trump hand's name. */
  function trumpSpan(t, withName) {
    if (E.isNoTrump(t)) return el("span", { class: "no-trump", text: trumpName(t) });
    return E.suitSpan(t, withName);
  }

  /** The hand being played is Bid Euchre's moon (the frame's d.moon, from the engine). */
  function moonNow() { const d = D(); return !!(d && d.moon); }

  /** Napoleon (each for themselves; its bids are levels, said in the engine's words). */
  function napoleonNow() { const d = D(); const r = d && ((d.view && d.view.rules) || (d.previous && d.previous.rules)); return !!(r && r.napoleon); }

  /** The high bid as players say it: its tricks, or "moon"; Napoleon's in the frame's words
      (d.high_bid: "2 tricks", "misère", "Nap", "Wellington", "Blücher"). */
  function bidText(v) {
    const d = D();
    if (napoleonNow() && d && d.high_bid) return d.high_bid;
    return moonNow() ? "moon" : String(v ? v.bid : "");
  }

  /** The moon's gift and discard (Bid Euchre) use call for best's phases: the words differ. */
  function bestWords() { return moonNow() ? "The moon" : "Call for best"; }

  /** Cards in the lone player's hand once the gift came: one more than dealt (d.hand_size). */
  function withGift(d) { return ["", "one", "two", "three", "four", "five", "six", "seven", "eight"][(d.hand_size || 5) + 1] || String((d.hand_size || 5) + 1); }

  /** Call for best: the lone player receiving now (the lone defender once declared, else the maker). */
  function bestReceiver(v) { return isSeat(v.lone_defender) ? v.lone_defender : v.maker; }

  /** The gift a seat received this hand (call for best), or null. */
  function giftTo(v, seat) { return giftsOf(v).find((g) => g.receiver === seat) || null; }

  /** The gift was chosen by the giver (its "give" action shows): else the engine gave the best trump. */
  function giftChosen(v, g) {
    return (Array.isArray(v.actions) ? v.actions : []).some((a) => a.seat === g.giver && a.action && a.action.startsWith("give "));
  }

  /** The three cards of a farmer's hand given so far (texts; null for a card another seat does not see). */
  function farmerGiven(v) {
    if (!v || !isSeat(v.farmer)) return [];
    const out = [];
    for (const a of Array.isArray(v.actions) ? v.actions : []) {
      if (a.action && /^(order|call|take|pass)\b/.test(a.action)) break;   // the bidding began
      if (a.seat === v.farmer && (a.action === null || a.action === undefined || a.action.startsWith("discard "))) {
        out.push(a.action ? a.action.split(/\s+/)[1] : null);
      }
    }
    return out;
  }

  /** The aces of a hand (the ace-no-face offer: a hand with no face card and at most one ace). */
  function acesIn(hand) { return (hand || []).filter((c) => typeof c === "string" && c[0] === "A").length; }

  /** The house rules of section 12 that are on, in words, for the "This hand" box. */
  function houseRules(rules) {
    const out = [];
    if (rules.ace_no_face) out.push("misdeal on ace, no face");
    if (rules.farmers_hand) out.push("farmer's hand");
    if (rules.call_for_best) out.push(rules.best_card_free ? "call for best (partner chooses)" : "call for best");
    if (rules.defend_alone) out.push("defend alone");
    if (rules.no_trump) out.push(rules.low_no_trump ? "no trump and low" : "no trump");
    return out;
  }

  /** The hand just before this one was a misdeal: that hand's view (from the frame, or from the
      hand-over banner kept after the frame moved on), else null. */
  function misdealBefore(d, v) {
    if (!v) return null;
    const p = d.previous && d.previous.hand_number === v.hand_number - 1 ? d.previous
      : (S.summary && S.summary.key === v.hand_number - 1 ? S.summary.p : null);
    return p && isSeat(p.misdeal) ? p : null;
  }

  // ---------------------------------------------------------------- match
  /** The frame's match (d.match: null, or missing from a server without matches). */
  function matchOf(d) {
    const m = d && d.match;
    return m && typeof m === "object" && Array.isArray(m.wins) ? m : null;
  }

  function matchGoal(m) {
    if (m.match_wins) return `first to ${m.match_wins} game${m.match_wins === 1 ? "" : "s"}`;
    if (m.match_games) return `${m.match_games} game${m.match_games === 1 ? "" : "s"}`;
    return "";
  }

  /** "Game 2 · 1–0": the game being played and the game wins, for the scoreboard. */
  function matchLine(m) {
    if (isSeat(m.winner)) return `match ${m.wins.join("\u2013")}`;
    const game = m.game || (Array.isArray(m.games) ? m.games.length + 1 : 1);
    const of = m.match_games && game <= m.match_games ? ` of ${m.match_games}` : "";
    return `game ${game}${of} \u00b7 wins ${m.wins.join("\u2013")}`;
  }

  /** Who leads the match, in game wins: "You & North lead 1 – 0", "level at 1 – 1". */
  function matchLead(d, m) {
    const top = Math.max(...m.wins);
    const leaders = m.wins.map((w, i) => (w === top ? i : -1)).filter((i) => i >= 0);
    if (leaders.length > 1) return `level at ${m.wins.join(" \u2013 ")}`;
    const verb = takeVerb(d, leaders[0]) === "take" ? "lead" : "leads";
    return `${sideLabel(d, leaders[0])} ${verb} ${firstFor(m.wins, leaders[0])}`;
  }

  function startVerb(d, side) { return takeVerb(d, side) === "take" ? "start" : "starts"; }

  function takeVerb(d, side) {
    const seats = sidesOf(d)[side] || [];
    return seats.length > 1 || (S.seat !== null && seats.indexOf(S.seat) >= 0) ? "take" : "takes";
  }

  /** Numbers of each side, the given side's first ("2 – 0" for the side that took it). */
  function firstFor(list, side) {
    if (!Array.isArray(list)) return "";
    if (!isSeat(side) || side < 0 || side >= list.length) return list.join(" \u2013 ");
    return [list[side]].concat(list.filter((_, i) => i !== side)).join(" \u2013 ");
  }

  /** "Game 1 to You & North, 10 – 6" (a finished game of the match: its winners and final scores,
      the winner's first). */
  function gameWords(d, g, i) {
    const ws = Array.isArray(g.winners) ? g.winners : [];
    const scores = firstFor(g.scores, ws.length === 1 ? ws[0] : null);
    const who = ws.length ? ws.map((x) => sideLabel(d, x)).join(" and ") : "nobody";
    return `Game ${i + 1} to ${who}${scores ? ", " + scores : ""}`;
  }

  /** A game of the match just ended and the next began: a notice (the hand-over banner's first
      line, and the line above the hand) says who took it and where the match stands. */
  function noteMatch(d) {
    const m = matchOf(d);
    if (!m) { S.matchSeen = null; return; }
    const n = Array.isArray(m.games) ? m.games.length : 0;
    if (S.matchSeen !== null && S.matchSeen !== undefined && n > S.matchSeen && n > 0 && d.status === "playing" && !isSeat(m.winner)) {
      const g = m.games[n - 1];
      let text = gameWords(d, g, n - 1) + (g.counts === 2 ? " (a slam: two game wins)" : "") + ".";
      const game = m.game || n + 1;
      let head = `Game ${game}`;
      if (m.match_games) head += game > m.match_games ? " (an extra game: the tie must be broken)" : ` of ${m.match_games}`;
      text += ` ${head}: ${matchLead(d, m)}${m.match_wins ? ", first to " + m.match_wins : ""}.`;
      // laps: the winner of the game before starts this one with its points above the target
      const scores = Array.isArray(d.scores) ? d.scores : [];
      const ahead = scores.map((x, i) => [x, i]).filter(([x]) => x > 0);
      if (ahead.length) text += " " + ahead.map(([x, i]) => `${sideLabel(d, i)} ${startVerb(d, i)} at ${x}`).join(", ") + " (laps).";
      S.matchNotice = { text, at: Date.now(), hand: d.view ? d.view.hand_number : null };
    }
    S.matchSeen = n;
  }

  /** The notice of the game just ended, while it shows: MATCH_NOTICE ms, and the whole bidding
      of the next game's first hand. */
  function matchNotice(d) {
    const n = S.matchNotice;
    const v = d.view;
    if (!n || d.status !== "playing") return null;
    const fresh = Date.now() - n.at < MATCH_NOTICE;
    const first = !!(v && v.hand_number === n.hand && BIDDING.indexOf(v.phase) >= 0);
    return fresh || first ? n : null;
  }

  // ---------------------------------------------------------------- action words
  /** Readable label for an action the user may take (as nodes: text plus a coloured suit). */
  /** The server's words for one of your legal actions now (d.legal_words), or null. */
  function serverWords(action) {
    const d = D();
    const w = d && d.legal_words && typeof d.legal_words === "object" ? d.legal_words[action] : null;
    return typeof w === "string" && w ? w : null;
  }

  function capital(t) { return t ? t.charAt(0).toUpperCase() + t.slice(1) : t; }

  function actionLabelNodes(action, view) {
    const parts = action.split(/\s+/);
    const verb = parts[0];
    const alone = parts[parts.length - 1] === "alone" && verb !== "defend";
    const out = [];
    const addSuit = (suit, withName) => {
      if (E.isNoTrump(suit)) { out.push(el("span", { class: "sname", text: E.SUIT_NAME[suit] })); return; }
      out.push(el("span", { class: "suit-sym " + (E.isRed(suit) ? "suit-red" : "suit-black") + " suit-" + suit, text: E.SUIT_SYM[suit] || suit }));
      if (withName) out.push(el("span", { class: "sname", text: " " + (E.SUIT_NAME[suit] || suit) }));
    };
    switch (verb) {
      case "pass":
        if (view && view.phase === "take") out.push("Leave it");
        else if (view && view.phase === "defend") out.push("Pass (play with partner)");
        else out.push("Pass");
        break;
      case "order": {
        const dealer = view && view.seat === view.dealer;
        out.push(dealer ? "Pick up " : "Order up ");
        const us = upSuit(view);
        if (us) addSuit(us, false);
        if (alone) out.push(" alone");
        break;
      }
      case "take": out.push("Take the up card"); break;
      case "call":
        out.push(el("span", { class: "verb", text: "Call " }));
        // "high", "low", "no trump": a name, never hidden as a suit's name is beside its symbol
        if (E.isNoTrump(parts[1])) out.push(el("span", { class: "ntname", text: trumpName(parts[1]) }));
        else addSuit(parts[1], true);
        if (alone) out.push(" alone");
        break;
      case "moon": out.push("Shoot the moon"); break;   // Bid Euchre: every trick, alone
      case "defend": out.push("Defend alone"); break;
      case "misdeal": out.push("Misdeal: deal again"); break;
      case "keep": out.push("Keep my hand"); break;
      case "farmer": out.push("Farmer: swap three cards"); break;
      case "discard":
        if (view && view.phase === "farmer_give") out.push("Give ", E.cardText(parts[1]), " to the stock");
        else out.push("Discard ", E.cardText(parts[1]));
        break;
      case "give": out.push("Give ", E.cardText(parts[1])); break;
      case "play": out.push("Play ", E.cardText(parts[1])); break;
      case "bid": out.push("Bid " + parts.slice(1).join(" ")); break;   // a bid of tricks: "Bid 3"
      default: out.push(capital(serverWords(action) || action));
    }
    return out;
  }

  function actionLabelText(action, view) {
    const span = el("span", null, ...actionLabelNodes(action, view));
    return span.textContent;
  }

  /** What a button does, said in full (its tooltip): the offers' buttons say what follows. */
  function actionTitle(action, view) {
    switch (action) {
      case "misdeal": return "Show your five cards to everyone: the same dealer shuffles and deals again, and nothing is scored";
      case "keep":
        return view && view.phase === "farmer_offer" ? "Keep the hand as dealt and go on to the bidding" : "Keep the hand and play it";
      case "farmer": return "Give three cards of your choice face down to the stock and take the three under the up card";
      default: return capital(serverWords(action) || actionLabelText(action, view));
    }
  }

  /** Past-tense words for the bidding history. */
  function historyNodes(d, view, entry, idx, actions) {
    const a = entry.action;
    const seat = entry.seat;
    if (a === null || a === undefined) return ["discarded a card"];
    const parts = String(a).split(/\s+/);
    const verb = parts[0];
    const alone = parts[parts.length - 1] === "alone" && verb !== "defend";
    const made = actions.slice(0, idx).some((x) => x.action && /^(order|call|take)\b/.test(x.action));
    switch (verb) {
      case "pass": {
        const prev = idx > 0 ? actions[idx - 1] : null;
        if (playersOf(d) === 2 && seat === view.dealer && prev && prev.action && prev.action.startsWith("order")) return ["left the up card"];
        if (made) return ["will not defend alone"];
        return ["passed"];
      }
      case "order": {
        const us = upSuit(view);
        const nodes = [seat === view.dealer ? "picked it up " : "ordered it up "];
        if (us) nodes.push(E.suitSpan(us, false));
        if (alone) nodes.push(", alone");
        return nodes;
      }
      case "take": return ["took the up card"];
      case "moon": return ["shot the moon"];
      case "misere": case "nap": case "wellington": case "blucher":   // Napoleon's named bids
        return [serverWords(a) || (verb === "nap" ? "went nap" : `bid ${a}`)];
      case "call": {
        const nodes = ["called ", trumpSpan(parts[1], true)];
        if (alone) nodes.push(", alone");
        return nodes;
      }
      case "defend": return [seat === S.seat ? "defend alone" : "defends alone"];
      case "discard": return ["discarded ", E.cardText(parts[1])];
      case "give": {
        const to = partnerOf(d, seat);
        return ["gave ", isSeat(to) ? objName(d, to) + " " : "", E.cardText(parts[1])];
      }
      case "play": return ["played ", E.cardText(parts[1])];
      case "bid": return [`bid ${parts.slice(1).join(" ")}`];
      case "misdeal": {
        const shown = Array.isArray(view.misdeal_hand) && view.misdeal_hand.length ? view.misdeal_hand : [];
        return ["called a misdeal", ...(shown.length ? [", showing ", ...cardNodes(shown)] : []), ": the same dealer deals again"];
      }
      case "keep": return ["kept the hand"];
      case "farmer": return ["claimed the farmer's hand (only nines and tens)"];
      default: return [String(a)];
    }
  }

  /** A seat as the object of a verb: "you", else its name. */
  function objName(d, s) { return S.seat !== null && s === S.seat ? "you" : seatName(d, s); }

  /** Cards as short coloured texts with spaces between. */
  function cardNodes(list) {
    const out = [];
    (list || []).forEach((c, i) => { if (i) out.push(" "); out.push(E.cardText(c)); });
    return out;
  }

  /** The farmer's exchange in one line: the farmer sees the cards given and taken, the others only
      that three cards went face down to the stock and three came back (RULES-FAMILY.md 12.7). */
  function farmerNodes(d, v) {
    const given = farmerGiven(v);
    const took = Array.isArray(v.farmer_took) ? v.farmer_took : [];
    if (S.seat !== null && v.farmer === S.seat) {
      const nodes = ["gave ", ...cardNodes(given.filter(Boolean)), " to the stock"];
      if (took.length) nodes.push(" and took ", ...cardNodes(took), " from under the up card");
      else nodes.push(` (${given.length} of 3)`);
      return nodes;
    }
    if (given.length < 3) return [`is giving three cards face down to the stock (${given.length} of 3)`];
    return ["exchanged three cards with the stock (took the three under the up card)"];
  }

  /** The hand's moves for the bidding box, in order, as {seat, nodes, cls}: the farmer's three
      cards in one line, and each call-for-best gift (not itself a move when the engine gives the
      best trump) just before the lone player's discard. */
  function historyItems(d, v) {
    const actions = Array.isArray(v.actions) ? v.actions : [];
    const gifts = giftsOf(v).map((g) => ({ g, shown: false }));
    const items = [];
    const giftLine = (x) => {
      x.shown = true;
      const g = x.g;
      const nodes = ["gave ", objName(d, g.receiver), " "];
      nodes.push(g.card ? E.cardText(g.card) : "a card");
      if (g.card && !giftChosen(v, g)) nodes.push(g.giver === S.seat ? " (your best trump)" : " (their best trump)");
      nodes.push(moonNow() ? " \u2014 the moon" : " \u2014 call for best");
      items.push({ seat: g.giver, nodes, cls: "gift" });
    };
    let farmerItem = null;
    let made = false;
    actions.forEach((a, i) => {
      const text = a.action;
      if (text && text.startsWith("play ")) return;
      const verb = text ? text.split(/\s+/)[0] : null;
      const discard = !text || verb === "discard";
      if (discard && !made && isSeat(v.farmer) && a.seat === v.farmer) {
        if (!farmerItem) { farmerItem = { seat: a.seat, nodes: [], cls: "farmer" }; items.push(farmerItem); }
        return;
      }
      if (discard && made) {
        // not the dealer's exchange: the discard right after the bid that gave the dealer the up
        // card (round 1, or the turned-up Joker's call); a round-2 call has none
        const prev = i > 0 ? actions[i - 1] : null;
        const bid = (x) => x.action && /^(pass|order|call|take)\b/.test(x.action);
        const joker = !!(prev && prev.action && prev.action.startsWith("call ") && v.up_card === "Jk" &&
                         !actions.slice(0, i - 1).some(bid));
        const exchange = a.seat === v.dealer && prev && prev.action && (/^(order|take)\b/.test(prev.action) || joker);
        if (!exchange) {
          const x = gifts.find((y) => !y.shown && y.g.receiver === a.seat);
          if (x) giftLine(x);
        }
      }
      if (verb === "give") {
        const x = gifts.find((y) => !y.shown && y.g.giver === a.seat);
        if (x) { giftLine(x); return; }
      }
      if (text && /^(order|call|take)\b/.test(text)) made = true;
      items.push({ seat: a.seat, nodes: historyNodes(d, v, a, i, actions) });
    });
    for (const x of gifts) if (!x.shown) giftLine(x);
    if (farmerItem) farmerItem.nodes = farmerNodes(d, v);
    return items;
  }

  function bubbleText(view, entry, made) {
    const a = entry.action;
    if (a === null || a === undefined) return entry.seat === view.farmer && !made ? "Farmer's hand" : "discarded";
    const parts = a.split(/\s+/);
    const alone = parts[parts.length - 1] === "alone" && parts[0] !== "defend";
    switch (parts[0]) {
      case "pass": return "Pass";
      case "order": return (entry.seat === view.dealer ? "Picked up" : "Ordered up") + (alone ? " alone" : "");
      case "take": return "Took it";
      case "call": return "Called " + (E.isNoTrump(parts[1]) ? trumpName(parts[1]) : (E.SUIT_SYM[parts[1]] || parts[1])) + (alone ? " alone" : "");
      case "moon": return "Moon!";
      case "misere": return "Misère";
      case "nap": return "Nap!";
      case "wellington": return "Wellington!";
      case "blucher": return "Blücher!";
      case "defend": return "Defends alone";
      case "discard": return entry.seat === view.farmer && !made ? "Farmer's hand" : "Discarded";
      case "give": return "Gave a card";
      case "misdeal": return "Misdeal!";
      case "keep": return "Kept";
      case "farmer": return "Farmer's hand";
      case "bid": return "Bid " + parts.slice(1).join(" ");
      default: return "";
    }
  }

  // ---------------------------------------------------------------- connection
  function wsUrl() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${encodeURIComponent(tableId)}`;
  }

  function connect() {
    clearTimeout(S.reconnectTimer);
    S.reconnectTimer = null;
    if (S.stopped) return;
    dropSocket();
    let ws;
    try { ws = new WebSocket(wsUrl()); } catch (e) { scheduleReconnect(); return; }
    S.ws = ws;
    S.welcomed = false;
    ws.onopen = () => {
      if (S.ws !== ws) return;
      const name = E.getName() || null;
      const hello = { t: "hello", token: token, v: S.shownV >= 0 ? S.shownV : null, name: name ? name.slice(0, 24) : null };
      const player = token ? E.getPlayer() : null;  // a seat's hello only: it groups that seat's statistics
      if (player) hello.player = player;
      send(hello);
      startPing();
    };
    ws.onmessage = (ev) => {
      if (S.ws !== ws) return;
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m && typeof m === "object") onFrame(m);
    };
    ws.onclose = () => {
      if (S.ws !== ws) return;
      S.ws = null;
      stopPing();
      S.welcomed = false;
      scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  function dropSocket() {
    stopPing();
    const ws = S.ws;
    S.ws = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try { ws.close(); } catch (e) { /* ignore */ }
    }
  }

  function scheduleReconnect() {
    if (S.stopped) return;
    clearTimeout(S.reconnectTimer);
    const base = Math.min(BACKOFF_MAX, BACKOFF_MIN * Math.pow(2, S.attempt));
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    S.attempt = Math.min(S.attempt + 1, 10);
    setConn("reconnecting…", "bad");
    S.reconnectTimer = setTimeout(connect, delay);
    markDown();
  }

  function reconnectNow() {
    dropSocket();
    S.attempt = 0;
    setConn("reconnecting…", "bad");
    clearTimeout(S.reconnectTimer);
    S.reconnectTimer = setTimeout(connect, 50);
  }

  function startPing() {
    stopPing();
    S.pingTimer = setInterval(() => {
      if (!S.ws || S.ws.readyState !== WebSocket.OPEN) return;
      send({ t: "ping" });
      if (!S.pongTimer) {
        S.pongTimer = setTimeout(() => {
          S.pongTimer = null;
          dropSocket();
          scheduleReconnect();
        }, PONG_WAIT);
      }
    }, PING_EVERY);
  }

  function stopPing() {
    clearInterval(S.pingTimer);
    S.pingTimer = null;
    clearTimeout(S.pongTimer);
    S.pongTimer = null;
  }

  // ---------------------------------------------------------------- frames
  function onFrame(m) {
    switch (m.t) {
      case "welcome": return onWelcome(m);
      case "state": return onState(m);
      case "ack": return onAck(m);
      case "err": return onErr(m);
      case "chat": return onChat(m);
      case "hint": return onHint(m);
      case "pong":
        clearTimeout(S.pongTimer);
        S.pongTimer = null;
        return;
      default: return;
    }
  }

  function onWelcome(m) {
    const d = m.d || {};
    S.welcomed = true;
    S.attempt = 0;
    S.seat = (d.seat === undefined) ? null : d.seat;
    S.host = !!d.host;
    setConn("connected", "ok");
    markUp();
    if (S.pending && S.pending.acked === undefined) {
      // the same id: the server answers with the first answer if it had it
      send(S.pending.frame);
      armAckTimer();
    }
    updateNameBar();
  }

  function onState(m) {
    if (typeof m.v !== "number" || !m.d) return;
    if (m.v < S.shownV) return;                              // older than what is shown: ignore
    if (m.v === S.shownV) {                                  // same version: presence update
      S.shown = m;
      render();
      return;
    }
    S.queue = S.queue.filter((f) => f.v !== m.v);
    S.queue.push(m);
    S.queue.sort((a, b) => a.v - b.v);
    pump();
  }

  /** How long a frame stays before the next is shown: a new hand's first frame long enough to
      read how the last hand went, a finished trick long enough to see it, else a beat. A frame of
      the same hand with no action shown yet is not a new deal: under ace-no-face and the farmer's
      hand each seat's offer is its own, and the frames after a bot's offer show no action either. */
  function delayAfter(frame, before) {
    const d = frame.d;
    const k = motion() === "fast" ? FAST_SCALE : 1;
    const v = d.view;
    const pv = before && before.d && before.d.view;
    if (justDealt(d) && !(v && pv && v.hand_number === pv.hand_number)) return PACE_HAND * k;
    if (v && pv && v.hand_number === pv.hand_number && (v.tricks || []).length > (pv.tricks || []).length) return PACE_TRICK * k;
    return PACE_PLAY * k;
  }

  function pump() {
    if (!S.queue.length) return;
    const latest = S.queue[S.queue.length - 1];
    // a claim plays out the rest of the hand at once: no pacing
    const flush = !S.shown || isMyTurn(latest) || latest.d.status !== "playing" || S.queue.length > 12 ||
                  document.hidden || (S.pending !== null) || S.queue.some(isClaim);
    if (flush) {
      clearTimeout(S.pumpTimer);
      S.pumpTimer = null;
      const before = S.shown;
      const skipped = S.queue.slice(0, -1);
      S.queue = [];
      noteSkipped(skipped);
      showFrame(latest, before, skipped);
      S.nextAt = Date.now() + delayAfter(latest, before);
      return;
    }
    if (S.pumpTimer) return;
    const wait = S.nextAt - Date.now();
    if (wait > 0) {
      S.pumpTimer = setTimeout(() => { S.pumpTimer = null; pump(); }, wait);
      return;
    }
    const before = S.shown;
    const f = S.queue.shift();
    showFrame(f, before);
    S.nextAt = Date.now() + delayAfter(f, before);
    if (S.queue.length) S.pumpTimer = setTimeout(() => { S.pumpTimer = null; pump(); }, S.nextAt - Date.now());
  }

  // Frames jumped over (bots acted in a burst) may have ended a hand: keep its summary (with its
  // last trick), or the player would never see how the hand went.
  function noteSkipped(frames) {
    for (const f of frames) noteSummary(f.d);
  }

  /** The hand-over summary of the hand before this frame's (d.previous), once per hand: the banner
      when the frame is the new hand's first, else (a reload, a reconnection later in the new
      hand's bidding) only its line above the hand, as the banner would have folded by then. */
  function noteSummary(d) {
    const p = d && d.previous;
    if (!p || (S.summary && S.summary.key === p.hand_number)) return;
    S.summary = { key: p.hand_number, p, at: Date.now(), closed: false, folded: !justDealt(d) };
  }

  function showFrame(f, before, skipped) {
    finishFlights();
    const snap = snapshot();
    S.shown = f;
    S.shownV = f.v;
    if (S.pending && S.pending.acked !== undefined && f.v >= S.pending.acked) S.pending = null;
    if (S.hints && S.hints.v !== f.v) S.hints = null;
    const d = f.d;
    // the hand-over banner
    noteSummary(d);
    // a trick of this hand just ended: said above the hand for a moment once the felt no longer
    // shows it (the last trick of a hand is in the hand-over summary instead)
    const v = d.view;
    const pv = before && before.d && before.d.view;
    if (v && pv && v.hand_number === pv.hand_number && (v.tricks || []).length > (pv.tricks || []).length) {
      S.trickFlash = { key: trickKey(v), trick: v.tricks[v.tricks.length - 1], until: Date.now() + TRICK_FLASH };
      clearTimeout(S.flashTimer);
      S.flashTimer = setTimeout(render, TRICK_FLASH + 20);
    }
    if (S.confirm && S.confirm.v !== f.v) S.confirm = null;
    noteMatch(d);
    render();
    try { animate(before, f, snap, skipped || []); } catch (e) { finishFlights(); }
    sounds(before, f);
  }

  function onAck(m) {
    if (S.pending && m.id === S.pending.id) {
      if (S.pending.t === "undo" && !S.undoNoted) {
        // the game's first take-back (on this page): say once what it did to the game
        S.undoNoted = true;
        toast(PRACTICE_UNDO, "info", 5000);
      }
      // keep the choices disabled until the state of the committed action is shown
      S.pending.acked = typeof m.v === "number" ? m.v : S.shownV;
      if (S.shownV >= S.pending.acked) {
        S.pending = null;
        render();
      }
      pump();
    }
  }

  function onErr(m) {
    const msg = m.message || m.code || "refused";
    if (S.pending && m.id && m.id === S.pending.id) {
      S.pending = null;
      clearTimeout(S.ackTimer);
      toast(msg);
      render();
      pump();
      return;
    }
    if (m.code === "too_many_connections") {
      // The server closes this socket next; wait a few seconds before the next try, not 0.5.
      S.attempt = Math.max(S.attempt, 3);
      toast(msg);
      return;
    }
    if (!S.welcomed && (m.code === "not_found" || m.code === "forbidden" || m.code === "table_abandoned")) {
      S.stopped = true;
      dropSocket();
      clearTimeout(S.reconnectTimer);
      setConn("disconnected", "dead");
      updateDown();
      const st = $("status");
      let title;
      let words;
      let link;
      if (m.code === "not_found") {
        title = "No such table";
        words = `There is no table \u201c${tableId}\u201d here: the link may be mistyped or cut short.`;
        link = el("a", { href: "/", text: "Start a new game" });
      } else if (m.code === "table_abandoned") {
        title = "This table has expired";
        words = "It was never started, and tables waiting to start are kept for a day only.";
        link = el("a", { href: "/", text: "Open a new table" });
      } else {
        title = "This link cannot join the table";
        words = msg + ".";
        link = el("a", { href: `/table/${encodeURIComponent(tableId)}`, text: "Watch as a spectator" });
      }
      st.textContent = title + ". ";
      st.append(el("a", { href: link.getAttribute("href"), text: link.textContent }));
      document.title = `${title} \u2014 Euchre`;
      // said where the table would be, in big letters: not a status line one may miss
      const center = E.clear($("center"));
      S.renderKeys.center = null;
      center.append(el("div", { class: "table-error", id: "table-error", role: "alert" },
        el("div", { class: "title", text: title }), el("p", { text: words }), el("p", null, link)));
      $("hand-area").classList.add("hidden");
      document.body.classList.add("no-table");
      return;
    }
    if (m.code === "no_hint" && S.hints && S.hints.loading) {
      // no advice for this position (the house rules' hidden cards): said where the hints go
      S.hints = { v: S.hints.v, items: [], note: `No hint here: ${msg}.` };
      renderHints();
      return;
    }
    if (S.hints && S.hints.loading) { S.hints = null; renderHints(); }
    toast(msg);
  }

  function armAckTimer() {
    clearTimeout(S.ackTimer);
    S.ackTimer = setTimeout(() => {
      if (S.pending) reconnectNow();
    }, ACK_WAIT);
  }

  function act(action) {
    if (locked() || !S.shown) return;
    const v = S.shown.d.view;
    if (!v || !Array.isArray(v.legal) || v.legal.indexOf(action) < 0) return;
    S.confirm = null;
    sendPending({ t: "act", id: newId(), action: action, v: S.shown.v });
  }

  /** An act, claim or undo frame: sent, kept until answered (resent on a reconnect, same id). */
  function sendPending(frame) {
    S.pending = { t: frame.t, id: frame.id, action: frame.action || null, v: frame.v, frame };
    send(frame);
    armAckTimer();
    render();
  }

  /** A bid button: an "... alone" asks first when the player wants it so (the setting). */
  function choose(action) {
    if (S.settings.confirmAlone && / alone$/.test(action) && !locked()) {
      S.confirm = { action, v: S.shownV };
      S.renderKeys.bids = null;
      render();
      const yes = $("confirm-yes");
      if (yes) yes.focus({ preventScroll: true });
      return;
    }
    act(action);
  }

  function claim() {
    const d = D();
    if (locked() || !d || !d.claim) return;
    sendPending({ t: "claim", id: newId(), v: S.shownV });
  }

  function undo() {
    const d = D();
    if (locked() || !d || !d.undo) return;
    if (practiceGame(d)) S.undoNoted = true;   // a practice game already: the take-back changes nothing to say
    S.autoKey = "skip";   // the card taken back is not played again for you
    sendPending({ t: "undo", id: newId(), v: S.shownV });
  }

  /** A forced card (your only legal action is one card) is played for you after a beat (the setting). */
  function scheduleAutoplay() {
    const v = V();
    const forced = !!(S.settings.autoplay && v && isMyTurn(S.shown) && !locked() && v.phase === "play" &&
                      v.legal.length === 1 && v.legal[0].startsWith("play "));
    if (!forced) {
      if (S.autoKey !== "skip" || !locked()) { clearTimeout(S.autoTimer); S.autoTimer = null; S.autoKey = null; }
      return;
    }
    if (S.autoKey === S.shownV) return;                      // already scheduled for this position
    if (S.autoKey === "skip") { S.autoKey = S.shownV; return; }
    clearTimeout(S.autoTimer);
    S.autoKey = S.shownV;
    const ver = S.shownV;
    const action = v.legal[0];
    S.autoTimer = setTimeout(() => {
      S.autoTimer = null;
      if (S.shownV === ver && !locked()) act(action);
    }, AUTOPLAY_BEAT * (motion() === "fast" ? FAST_SCALE : 1));
  }

  // ---------------------------------------------------------------- chat
  function onChat(m) {
    const list = Array.isArray(m.d) ? m.d : (m.d ? [m.d] : []);
    const log = $("chat-log");
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 30;
    for (const c of list) {
      if (!c || typeof c !== "object") continue;
      const key = [c.at, c.seat, c.name, c.text].join("\u0001");
      if (S.chatKeys.has(key)) continue;
      S.chatKeys.add(key);
      const li = el("li");
      if (c.at) {
        const t = new Date(c.at);
        if (!isNaN(t.getTime())) li.append(el("span", { class: "at", text: t.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" }) }));
      }
      const who = c.name ? String(c.name) : (c.seat === null || c.seat === undefined ? "watcher" : seatName(D(), c.seat));
      const whoEl = el("span", { class: "who", text: who + ":" });
      if (c.seat !== null && c.seat !== undefined && D()) whoEl.classList.add("side-" + sideOfSeat(D(), c.seat));
      li.append(whoEl, el("span", { class: "text", text: String(c.text === undefined ? "" : c.text) }));
      log.append(li);
    }
    while (log.children.length > 200) log.removeChild(log.firstChild);
    if (atBottom || list.length) log.scrollTop = log.scrollHeight;
  }

  // ---------------------------------------------------------------- hints
  function onHint(m) {
    const items = Array.isArray(m.d) ? m.d : [];
    if (!S.hints || !S.hints.loading || S.hints.v !== S.shownV) return;   // asked about a position now gone
    S.hints = { v: S.hints.v, items };
    renderHints();
  }

  function signed(p) { return p > 0 ? `+${p}` : p < 0 ? `\u2212${-p}` : String(p); }

  /** A score as printed: a negative one (Hasenpfeffer's set bids) with a true minus sign. */
  function scoreText(p) { return typeof p === "number" && p < 0 ? `\u2212${-p}` : String(p); }

  function fmtPoints(p) {
    const n = Number(p);
    if (!isFinite(n)) return String(p);
    const s = Math.abs(n).toFixed(2);
    return (n > 0.0005 ? "+" : n < -0.0005 ? "\u2212" : "\u00b1") + s;
  }

  /** The score sheet: every finished hand, who made it, each side's points and the running score. */
  function renderScoreSheet(d) {
    const box = $("score-sheet");
    const hist = Array.isArray(d.history) ? d.history : [];
    const key = JSON.stringify([hist.length, S.seat, (d.seats || []).map((s) => s.name)]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    E.clear(box);
    if (!hist.length) { box.append(el("span", { class: "muted small", text: "No hand finished yet." })); return; }
    const sides = sidesOf(d);
    const table = el("table", { class: "sheet", id: "score-table" });
    const head = el("tr", null, el("th", { text: "Hand" }), el("th", { text: "Made by" }));
    sides.forEach((_, i) => head.append(el("th", { text: sideLabel(d, i) })));
    table.append(el("thead", null, head));
    const body = el("tbody");
    for (const h of hist) {
      const made = el("td");
      if (h.maker !== null && h.maker !== undefined && h.trump) {
        made.append(`${whoName(d, h.maker)} `, E.isNoTrump(h.trump) ? trumpSpan(h.trump) : E.suitSpan(h.trump, false),
                    h.moon ? " moon" : h.alone ? " alone" : "", h.bid && !h.moon ? ` bid ${h.bid_words && napoleonNow() ? h.bid_words : h.bid}${h.forced_bid ? " (forced)" : ""}` : "");
      } else made.append("thrown in");
      const tr = el("tr", null, el("td", { text: String(h.hand) }), made);
      sides.forEach((_, i) => {
        const p = (h.points || [])[i] || 0;
        // the hand's points, then the score after it ("0 \u2192 7": nothing scored, still 7)
        tr.append(el("td", { class: p > 0 ? "gain" : p < 0 ? "loss" : "", text: `${p ? signed(p) : "0"} \u2192 ${scoreText((h.scores || [])[i])}` }));
      });
      body.append(tr);
    }
    table.append(body);
    box.append(table);
    box.scrollTop = box.scrollHeight;   // the newest hand in view (the sheet scrolls past a dozen hands)
  }

  /** The two scores over the hands, as a small line chart (SVG; drawn at the end of the game). */
  function scoreChart(d) {
    const hist = Array.isArray(d.history) ? d.history : [];
    const sides = sidesOf(d);
    const NS = "http://www.w3.org/2000/svg";
    const w = 260, h = 90, pad = 6;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    svg.setAttribute("class", "score-chart");
    svg.setAttribute("id", "score-chart");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "the scores over the hands");
    const top = Math.max(1, d.target || 0, ...hist.flatMap((x) => x.scores || []));
    const bottom = Math.min(0, ...hist.flatMap((x) => x.scores || []));   // below 0: a set bid (Hasenpfeffer)
    const x = (i) => pad + (w - 2 * pad) * (hist.length ? i / hist.length : 0);
    const y = (v) => h - pad - (h - 2 * pad) * ((v - bottom) / (top - bottom));
    sides.forEach((_, si) => {
      // the start: 0, or what the side carried over (laps, in a match): the first score less its points
      const h0 = hist[0];
      const start = h0 ? ((h0.scores || [])[si] || 0) - ((h0.points || [])[si] || 0) : 0;
      const pts = [[x(0), y(start)]].concat(hist.map((hh, i) => [x(i + 1), y((hh.scores || [])[si] || 0)]));
      const line = document.createElementNS(NS, "polyline");
      line.setAttribute("points", pts.map((p) => p.join(",")).join(" "));
      line.setAttribute("class", `side${si % 3}`);
      line.setAttribute("fill", "none");
      line.setAttribute("stroke-width", "2.5");
      svg.append(line);
    });
    return svg;
  }

  function renderChatForm(d) {
    // The server takes chat from seats of a table waiting or in play only: spectators read it.
    const open = S.welcomed && S.seat !== null && (d.status === "waiting" || d.status === "playing");
    $("chat-form").classList.toggle("hidden", !open);
  }

  /** The hints advise this position (the frame's d.hints, from the engine's euchre.hints.hintable:
      every game and position now): where they do not, no Hint button is offered, only a note that
      says so. */
  function hintsOffered() { const d = D(); return !d || d.hints !== false; }

  /** Undo and hints make the game a practice game, counted apart in the statistics (docs/server.md,
      "Practice games"): the buttons' titles say so before, and the game's first take-back (a
      toast) and first hint (a line under its answers) once more. "First" is on this page (a
      rematch is a new page), and only while the game is not a practice game yet: a game that is
      one already (the frame's d.practice: a chosen deal, d.seeded, this seat's own hint or
      take-back, or a computer player's decision for this seat while its player was away, before
      a reload too) says so instead with a quiet tag under the hand's number, its title saying
      why (renderPracticeTag). */
  const PRACTICE_HINT = "Hints make this a practice game: it is counted apart in the statistics.";
  const PRACTICE_UNDO = "Card taken back: this is now a practice game, counted apart in the statistics.";
  const PRACTICE_SEEDED = "A chosen deal: this is a practice game, counted apart in the statistics.";
  const PRACTICE_HELPED = "A hint, a card taken back or a computer player standing in for you made this a practice game: it is counted apart in the statistics.";
  /** What made the game a practice game for this seat (the frame's d.practice_reasons), in words. */
  const YOUR_REASONS = { took_back: "you took back a card", hinted: "you were given a hint",
                         stood_in: "a computer player stood in for you while you were away" };

  /** The tag's title for a game this seat was helped in: what helped, as the server says it
      ("You were given a hint and a computer player stood in for you while you were away: ..."),
      or the general sentence when the frame does not say. */
  function helpedTitle(reasons) {
    const said = (Array.isArray(reasons) ? reasons : []).map((r) => YOUR_REASONS[r]).filter(Boolean);
    if (!said.length) return PRACTICE_HELPED;
    const what = said.length === 1 ? said[0] : `${said.slice(0, -1).join(", ")} and ${said[said.length - 1]}`;
    return `${what.charAt(0).toUpperCase()}${what.slice(1)}: this is a practice game, counted apart in the statistics.`;
  }

  /** The game shown is a practice game already: for this seat (d.practice, the server's word), or,
      to a spectator, for every seat (a chosen deal). */
  function practiceGame(d) { return !!d && (d.practice === true || d.seeded === true); }

  /** The quiet tag under the hand's number on the felt, while the game is a practice game. */
  function renderPracticeTag(d) {
    const box = $("hand-no");
    let tag = $("practice-tag");
    if (!practiceGame(d)) { if (tag) tag.remove(); return; }
    const title = d.seeded === true ? PRACTICE_SEEDED : helpedTitle(d.practice_reasons);
    if (!tag) {
      // (a phone shows no title: a tap says it, as a toast)
      tag = el("span", { id: "practice-tag", class: "practice-tag", text: "practice",
                         onclick: () => toast(tag.title, "info", 5000) });
      box.append(tag);
    }
    if (tag.title !== title) { tag.title = title; tag.setAttribute("aria-label", "practice game: " + title); }
  }

  /** Whether the hints shown are the game's first answered ones (which carry the practice note). */
  function firstHint() {
    const h = S.hints;
    if (!h || !Array.isArray(h.items) || !h.items.length) return false;
    if (S.firstHintV === null) S.firstHintV = h.v;
    return S.firstHintV === h.v;
  }

  function showPracticeNote(id, on) {
    const p = $(id);
    p.classList.toggle("hidden", !on);
    if (on && p.textContent !== PRACTICE_HINT) p.textContent = PRACTICE_HINT;
  }

  function askHint() {
    if (!S.shown || !isMyTurn(S.shown) || !S.settings.hints || !hintsOffered()) return;
    // a practice game already (a chosen deal, or helped before): no hint of it needs the note
    if (S.firstHintV === null && practiceGame(D())) S.firstHintV = false;
    S.hintsClosed = null;
    if (send({ t: "hint" })) { S.hints = { v: S.shownV, loading: true }; renderHints(); }
    else toast("Not connected.");
  }

  /** On a narrow screen the hints box is below the table: the answers show in a strip just above
      the hand instead (and a Hint button in the felt's corner asks), so hand and hints show together. */
  function renderHintStrip(mine) {
    const strip = $("hint-strip");
    const list = $("hint-strip-list");
    const quick = $("hint-quick");
    const on = S.settings.hints && S.seat !== null && hintsOffered();
    quick.classList.toggle("hidden", !(on && mine && !S.hints));
    quick.disabled = !mine || locked();
    const show = on && !!S.hints && S.hintsClosed !== S.hints.v;
    strip.classList.toggle("hidden", !show);
    showPracticeNote("hint-strip-practice", show && firstHint());
    const key = show ? JSON.stringify([S.hints.v, !!S.hints.loading, (S.hints.items || []).length]) : "";
    if (strip.dataset.key === key) return;
    strip.dataset.key = key;
    E.clear(list);
    if (!show) return;
    if (S.hints.loading) { list.append(el("li", { class: "muted", text: "Thinking…" })); return; }
    const view = V();
    S.hints.items.forEach((h, i) => {
      const li = el("li", { class: i === 0 ? "best" : "", dataset: { hintAction: String(h.action || "") } });
      li.append(el("span", { class: "act" }, ...actionLabelNodes(String(h.action || ""), view)), " ");
      const p = Number(h.points);
      li.append(el("span", { class: "pts " + (p > 0 ? "pos" : p < 0 ? "neg" : ""), text: fmtPoints(h.points) }));
      if (i === 0 && h.words) li.append(el("span", { class: "words", text: String(h.words) }));
      list.append(li);
    });
    if (!S.hints.items.length) list.append(el("li", { class: "muted", text: S.hints.note || "No hint available." }));
  }

  function renderHints() {
    const list = $("hints");
    E.clear(list);
    const d = D();
    const mine = !!(S.shown && isMyTurn(S.shown) && S.seat !== null);
    $("hints-box").classList.toggle("hidden", (S.welcomed && S.seat === null) || !S.settings.hints);
    const offered = hintsOffered();
    $("hint-button").classList.toggle("hidden", !mine || !S.settings.hints || !offered);
    $("hint-button").disabled = !mine || locked() || !!(S.hints && S.hints.loading);
    $("hint-note").classList.toggle("hidden", offered && (mine || !!(S.hints && S.hints.items && S.hints.items.length)));
    const note = offered ? "Hints are offered when it is your turn." : "No hints here yet: the expert bot's search does not play this position.";
    if ($("hint-note").textContent !== note) $("hint-note").textContent = note;
    renderHintStrip(mine);
    showPracticeNote("hint-practice", offered && firstHint());
    if (!offered) return;
    if (!S.hints) return;
    if (S.hints.loading) { list.append(el("li", { class: "muted", text: "Thinking…" })); return; }
    const view = d && d.view;
    let i = 0;
    for (const h of S.hints.items) {
      const li = el("li", { dataset: { hintAction: String(h.action || "") } });
      li.append(el("span", { class: "act" }, ...actionLabelNodes(String(h.action || ""), view)));
      const p = Number(h.points);
      const err = Number(h.stderr);
      const spread = isFinite(err) && err > 0 ? ` \u00b1${(2 * err).toFixed(2)}` : "";
      li.append(el("span", { class: "pts " + (p > 0 ? "pos" : p < 0 ? "neg" : ""), text: fmtPoints(h.points),
                             title: "expected points" + (spread ? ` (${spread.trim()}, a 95% interval)` : "") }));
      li.append(el("span", { class: "words", text: String(h.words || "") + (h.even && i > 0 ? " (about even with the best)" : "") }));
      list.append(li);
      i += 1;
    }
    if (!S.hints.items.length) list.append(el("li", { class: "muted", text: S.hints.note || "No hint available." }));
  }

  // ---------------------------------------------------------------- rendering
  /** Where each seat sits, from yours (bottom) on round the table (Napoleon seats up to seven:
      the corners of the felt's grid take the seats past four). */
  function positionsFor(n) {
    if (n === 2) return ["bottom", "top"];
    if (n === 3) return ["bottom", "left", "right"];
    if (n === 5) return ["bottom", "left", "tl", "tr", "right"];
    if (n === 6) return ["bottom", "left", "tl", "top", "tr", "right"];
    if (n >= 7) return ["bottom", "bl", "left", "tl", "tr", "right", "br"];
    return ["bottom", "left", "top", "right"];
  }

  function bottomSeat() { return S.seat !== null && S.seat !== undefined ? S.seat : 0; }

  function posOf(seat, n) {
    const pos = positionsFor(n);
    return pos[((seat - bottomSeat()) % n + n) % n];
  }

  function buildLayout(d) {
    const n = playersOf(d);
    const key = n + ":" + bottomSeat();
    if (S.layoutKey === key) return;
    S.layoutKey = key;
    const felt = $("felt");
    felt.classList.toggle("many", n > 4);
    felt.dataset.players = String(n);
    felt.querySelectorAll(".seat").forEach((x) => x.remove());
    S.seatEls = {};
    for (let s = 0; s < n; s++) {
      const pos = posOf(s, n);
      const root = el("div", { class: "seat pos-" + pos, dataset: { seat: String(s) }, "aria-label": "seat " + (s + 1) });
      const name = el("div", { class: "name" });
      const badges = el("div", { class: "badges" });
      const tricks = el("div", { class: "tricks" });
      const bubble = el("div", { class: "bubble" });
      root.append(name, badges, tricks, bubble);
      felt.append(root);
      S.seatEls[s] = { root, name, badges, tricks, bubble };
    }
    S.slots = {};
    S.renderKeys.center = null;
  }

  function render() {
    const d = D();
    if (!d) return;
    buildLayout(d);
    renderScore(d);
    renderSeats(d);
    renderCenter(d);
    renderSummary(d);
    renderStatus(d);
    renderStart(d);
    renderChatForm(d);
    renderScoreSheet(d);
    renderBids(d);
    renderOfferHelp(d);
    renderHand(d);
    renderInfo(d);
    renderHistory(d);
    renderLastTrick(d);
    renderHints();
    renderTools(d);
    scheduleAutoplay();
  }

  /** Claim the rest and Undo (offered by the server: d.claim, d.undo), in the felt's bottom corners. */
  function renderTools(d) {
    const playing = d.status === "playing" && S.seat !== null;
    const c = $("claim-button");
    c.classList.toggle("hidden", !(playing && d.claim === true));
    c.disabled = locked();
    const u = $("undo-button");
    u.classList.toggle("hidden", !(playing && d.undo === true));
    u.disabled = locked();
  }

  function renderScore(d) {
    const sides = sidesOf(d);
    const scores = Array.isArray(d.scores) ? d.scores : (d.view ? d.view.scores : []);
    $("score").textContent = (scores && scores.length ? scores : sides.map(() => 0)).map(scoreText).join(" \u2013 ");
    const l0 = $("side-label-0"), l1 = $("side-label-1");
    $("scoreboard").classList.toggle("three", sides.length > 2);
    $("scoreboard").classList.toggle("many", sides.length > 4);   // Napoleon: up to seven scores
    if (sides.length === 2) {
      l0.textContent = sideLabel(d, 0);
      l1.textContent = sideLabel(d, 1);
      l0.classList.remove("hidden"); l1.classList.remove("hidden");
    } else {
      E.clear(l0);
      sides.forEach((seats, i) => {
        if (i) l0.append(" \u00b7 ");
        l0.append(el("span", { class: "side-" + (i % 3), text: seats.map((x) => (S.seat !== null && x === S.seat) ? "You" : seatName(d, x)).join(" & ") }));
      });
      l1.textContent = "";
      l1.classList.add("hidden");
    }
    const rules = (d.view && d.view.rules) || (d.previous && d.previous.rules) || {};
    const target = d.target !== undefined && d.target !== null ? d.target : rules.target;
    let t = "";
    if (target) t = `to ${target}`;
    else if (rules.duration) t = `${rules.duration} min`;
    else if (rules.deals) t = `${rules.deals} hands`;
    $("target").textContent = t;
    // a match: the game being played and the game wins, beside the game's score
    const m = matchOf(d);
    const ms = $("match-score");
    ms.classList.toggle("hidden", !m);
    if (m) {
      const text = matchLine(m);
      if (ms.textContent !== text) ms.textContent = text;
      const goal = matchGoal(m);
      ms.title = (typeof m.standing === "string" && m.standing) ? `match: ${m.standing}` : `match${goal ? " (" + goal + ")" : ""}: game wins ${m.wins.join(" \u2013 ")}`;
    }
    document.title = `Euchre ${$("score").textContent}` + (isMyTurn(S.shown) ? " \u2022 your turn" : "");
  }

  function renderSeats(d) {
    const v = d.view;
    const n = playersOf(d);
    for (let s = 0; s < n; s++) {
      const E_ = S.seatEls[s];
      if (!E_) continue;
      const info = seatInfo(d, s) || {};
      const side = sideOfSeat(d, s);
      E.clear(E_.name);
      E_.name.append(el("span", { class: "side-dot", style: `background: var(--side${side % 3})`, "aria-hidden": "true" }));
      const hasName = !!info.name;
      E_.name.append(document.createTextNode(hasName ? String(info.name) : (d.status === "waiting" ? "open seat" : `Seat ${s + 1}`)));
      // a computer player's level, beside its (whole) name
      const level = info.kind === "bot" && typeof info.level === "string" && info.level ? info.level : null;
      if (level) E_.name.append(" ", el("span", { class: "badge bot level", text: level, title: `a computer player, level ${level}` }));
      E_.name.title = hasName ? String(info.name) + (level ? ` (computer, ${level})` : "") : "";
      E_.root.classList.toggle("empty", !hasName && d.status === "waiting");
      E.clear(E_.badges);
      const badge = (cls, text, title) => E_.badges.append(el("span", { class: "badge " + cls, text, title: title || text }));
      if (S.seat !== null && s === S.seat) badge("you", "you");
      if (d.status === "waiting" && s === 0 && info.kind === "human") badge("host", "host", "opened the table and starts the game");
      if (v && v.dealer === s) badge("dealer", "D", "dealer");
      if (v && v.maker === s && v.trump && napoleonNow() && E.isNoTrump(v.trump)) badge("maker", "no trump", "misère: no trump, and no trick to take");
      else if (v && v.maker === s && v.trump) badge("maker", "maker " + (trumpName(v.trump) !== E.SUIT_NAME[v.trump] ? trumpName(v.trump) : (E.SUIT_SYM[v.trump] || "")), "made trump");   // Bid Euchre: "maker high"
      if (v && v.maker === s && v.alone) badge("alone", "alone", "going alone");
      // the high bid's holder, once the auction's bubbles are gone
      if (v && v.bid && v.bidder === s && BIDDING.indexOf(v.phase) < 0) {
        badge("bid", moonNow() ? "moon" : napoleonNow() ? bidText(v) : `bid ${v.bid}`, napoleonNow() ? `the high bid: ${bidText(v)}`
          : moonNow() ? "shot the moon: must take every trick, alone"
          : v.forced_bid ? "everyone passed: holds the Joker and must take at least 3 tricks" : `the high bid: ${v.bid} tricks`);
      }
      if (v && v.lone_defender === s) badge("alone", "defends alone");
      if (v && v.farmer === s) badge("farmer", "farmer", "claimed the farmer's hand (held only nines and tens) and swapped three cards with the stock");
      if (v && Array.isArray(v.sitting_out) && v.sitting_out.indexOf(s) >= 0) badge("out", "sitting out");
      if (info.bot) badge("botplay", "bot playing", "a computer player stands in until this player returns");
      else if (info.away && info.kind !== "open") badge("away", "away", "not connected");
      if (info.kind === "bot" && !level) badge("bot", "computer");
      if (info.kind === "open") badge("out", "open seat", "nobody has taken this seat yet");
      // tricks
      E.clear(E_.tricks);
      if (v && (v.phase === "play" || v.phase === "over") && Array.isArray(v.tricks_won)) {
        const k = v.tricks_won[s] || 0;
        E_.tricks.append(document.createTextNode(`tricks ${k}`));
        for (let i = 0; i < k; i++) E_.tricks.append(el("span", { class: "pipbox", "aria-hidden": "true" }));
      }
      // bubble with the seat's last bid during bidding
      let bubble = "";
      if (v && BIDDING.indexOf(v.phase) >= 0 && Array.isArray(v.actions)) {
        let made = false;
        for (const a of v.actions) {
          if (a.action && /^(order|call|take)\b/.test(a.action)) made = true;
          if (a.seat === s && !(a.action && a.action.startsWith("play "))) bubble = bubbleText(v, a, made);
        }
        if (giftsOf(v).some((g) => g.giver === s)) bubble = "Gave a card";   // call for best (given by the engine too)
      }
      if (v && v.phase === "play" && (!v.trick || !v.trick.length) && Array.isArray(v.tricks) && v.tricks.length &&
          v.tricks[v.tricks.length - 1].winner === s) bubble = "won the trick";
      E_.bubble.textContent = bubble;
      E_.root.classList.toggle("to-act", !!(v && v.to_act === s && d.status === "playing"));
      E_.root.classList.toggle("sitting-out", !!(v && Array.isArray(v.sitting_out) && v.sitting_out.indexOf(s) >= 0));
    }
    // trump chip and hand number
    const chip = $("trump-chip");
    E.clear(chip);
    if (v && v.trump && E.isNoTrump(v.trump) && napoleonNow()) {
      // Napoleon's misère has no trump at all (the bidder must take no trick): said so, no suit
      chip.append(el("span", { class: "nt", text: "No trump" }));
      if (isSeat(v.maker)) chip.append(el("span", { class: "sub", text: `${bidText(v)}, by ${whoName(d, v.maker)}` }));
      chip.classList.remove("hidden");
    } else if (v && v.trump && E.isNoTrump(v.trump)) {
      chip.append("Trump ", el("span", { class: "big no-trump", text: capital(trumpName(v.trump)) }));
      if (v.maker !== null && v.maker !== undefined) {
        chip.append(el("span", { class: "sub", text: `by ${whoName(d, v.maker)}${v.alone ? ", alone" : ""}` }));
      }
      chip.classList.remove("hidden");
    } else if (v && v.trump) {
      const red = E.isRed(v.trump);
      chip.append("Trump ", el("span", { class: "big " + (red ? "red" : "black") + " suit-" + v.trump, text: E.SUIT_SYM[v.trump] || v.trump }),
                  el("span", { class: "tname", text: " " + (E.SUIT_NAME[v.trump] || "") }));
      if (v.maker !== null && v.maker !== undefined) {
        chip.append(el("span", { class: "sub", text: `by ${whoName(d, v.maker)}${v.alone ? ", alone" : ""}` }));
      }
      chip.classList.remove("hidden");
    } else {
      chip.classList.add("hidden");
    }
    const hno = $("hand-no");
    const words = v ? `Hand ${handNo(d, v)}` : "";
    if (!hno.firstChild || hno.firstChild.nodeType !== Node.TEXT_NODE) hno.prepend(document.createTextNode(""));
    if (hno.firstChild.nodeValue !== words) hno.firstChild.nodeValue = words;
    renderPracticeTag(d);
  }

  /** The bids of tricks among the legal actions, as numbers (the frame lists only the legal ones). */
  function legalBids(legal) {
    return (legal || []).map((a) => /^bid (\d+)$/.exec(a)).filter(Boolean).map((m) => Number(m[1]));
  }

  /** The high bid in words: "3, by Otto", "3, by Otto (everyone passed: Otto holds the Joker)". */
  function highBidText(d, v) {
    if (!v || !v.bid || !isSeat(v.bidder)) return "";
    const who = whoName(d, v.bidder);
    const forced = v.forced_bid ? ` (everyone passed: ${who} ${v.bidder === S.seat ? "hold" : "holds"} the Joker)` : "";
    return `${bidText(v)}, by ${who}${forced}`;
  }

  /** The hand's number as players count it: a cancelled deal (a misdeal) is not a hand (d.hand_no). */
  function handNo(d, v) { return typeof d.hand_no === "number" ? d.hand_no : v.hand_number + 1; }

  function slotFor(pos) { return S.slots[pos]; }

  function renderCenter(d) {
    const center = $("center");
    const v = d.view;
    const n = playersOf(d);
    // mode: waiting, over, or the trick grid
    let mode = "trick";
    if (d.status === "waiting" || !v) mode = "waiting";
    else if (d.status === "over") mode = "over";
    if (mode !== "trick") {
      const key = mode + JSON.stringify([d.status, d.seats, d.scores, d.winners, S.host, v && v.points, d.match || null]);
      if (S.renderKeys.center === key) return;
      S.renderKeys.center = key;
      S.slots = {};
      E.clear(center);
      if (mode === "waiting") center.append(waitingBox(d));
      else center.append(gameOverBox(d));
      return;
    }
    if (S.renderKeys.center !== "trick") {
      S.renderKeys.center = "trick";
      E.clear(center);
      const grid = el("div", { class: "trick" + (n > 4 ? " many" : ""), id: "trick" });
      for (const pos of positionsFor(n)) {
        const slot = el("div", { class: "slot pos-" + pos, dataset: { pos } });
        grid.append(slot);
        S.slots[pos] = slot;
      }
      grid.append(el("div", { class: "middle", id: "trick-middle" }));
      center.append(grid);
    }
    const grid = $("trick");
    const middle = $("trick-middle");
    E.clear(middle);
    let plays = Array.isArray(v.trick) ? v.trick : [];
    let done = false;
    let winner = null;
    if (!plays.length && (v.phase === "play" || v.phase === "over") && Array.isArray(v.tricks) && v.tricks.length) {
      const last = v.tricks[v.tricks.length - 1];
      plays = last.plays || [];
      done = true;
      winner = last.winner;
    }
    grid.classList.toggle("done", done);
    grid.classList.toggle("swept", done && S.sweptKey === trickKey(v));
    const bySlot = {};
    for (const p of plays) bySlot[posOf(p.seat, n)] = p;
    for (const pos of positionsFor(n)) {
      const slot = slotFor(pos);
      if (!slot) continue;
      const p = bySlot[pos];
      const want = p ? p.card : "";
      if (slot.dataset.card !== want) {
        E.clear(slot);
        slot.dataset.card = want;
        if (p) {
          const c = E.cardEl(p.card);
          c.dataset.order = String(plays.indexOf(p));
          if (FX.away.has("slot:" + pos)) c.classList.add("fx-away");
          slot.append(c);
        }
      }
      const c = slot.firstChild;
      if (c) {
        c.classList.toggle("winner", done && p && p.seat === winner);
        c.title = p ? `${whoName(d, p.seat)}: ${E.cardWords(p.card)}` : "";
      }
    }
    // the middle: up card during bidding, captions otherwise
    const showUp = ["bid1", "take", "bid2", "joker"].concat(OFFER_PHASES).indexOf(v.phase) >= 0 && v.up_card;
    if (showUp) {
      const turned = v.phase === "bid2";
      const box = el("div", { class: "upcard-box" + (turned ? " turned" : ""), id: "up-card" });
      box.append(E.cardEl(v.up_card));
      let caption = "up card";
      if (turned) caption = "turned down";
      else if (v.phase === "joker") caption = "the Joker: dealer calls";
      else if (v.phase === "farmer_give") caption = "up card \u00b7 3 under it for the farmer";
      box.append(el("span", { class: "caption", text: caption }));
      middle.append(box);
      if (OFFER_PHASES.indexOf(v.phase) >= 0 && v.phase !== "farmer_give") {
        middle.append(el("span", { class: "caption offers", text: "before the bidding" }));
      }
    } else if (AUCTION_PHASES.indexOf(v.phase) >= 0 || (!v.up_card && BIDDING.indexOf(v.phase) >= 0)) {
      // an auction of tricks (no up card): the high bid and who holds it
      const box = el("div", { class: "bid-box", id: "high-bid" });
      box.append(el("span", { class: "caption", text: "high bid" }),
                 el("span", { class: "big", id: "high-bid-value", text: v.bid ? bidText(v) : "\u2013" }));
      let caption = "no bid yet";
      if (v.bid && isSeat(v.bidder)) caption = v.forced_bid ? `${whoName(d, v.bidder)}: forced, holds the Joker` : whoName(d, v.bidder);
      box.append(el("span", { class: "caption", id: "high-bid-who", text: caption }));
      middle.append(box);
    } else if (BEST_PHASES.indexOf(v.phase) >= 0) {
      const r = bestReceiver(v);
      const g = isSeat(r) ? partnerOf(d, r) : null;
      let caption = moonNow() ? "the moon" : "call for best";
      if (isSeat(r) && isSeat(g)) {
        caption = v.phase === "best_discard" ? `${whoName(d, r)} ${S.seat === r ? "discard" : "discards"} one of ${withGift(d)}`
          : moonNow() ? `${whoName(d, g)} ${S.seat === g ? "give" : "gives"} ${objName(d, r)} a card`
            : `${whoName(d, r)} ${S.seat === r ? "call" : "calls"} for best`;
      }
      middle.append(el("span", { class: "caption", id: "best-caption", text: caption }));
    } else if (v.phase === "lead" && isSeat(v.to_act)) {
      // Napoleon: the bidder's first lead fixes trump (the engine's LEAD phase)
      middle.append(el("span", { class: "caption", id: "lead-caption", text: `${whoName(d, v.to_act)} ${S.seat === v.to_act ? "lead" : "leads"}: the suit led is trump` }));
    } else if (v.phase === "play" && !plays.length && v.to_act !== null && v.to_act !== undefined) {
      middle.append(el("span", { class: "caption", text: `${whoName(d, v.to_act)} ${S.seat === v.to_act ? "lead" : "leads"}` }));
    } else if (v.phase === "discard") {
      middle.append(el("span", { class: "caption", text: `${whoName(d, v.dealer)} ${S.seat === v.dealer ? "discard" : "discards"}` }));
    } else if (v.phase === "defend") {
      middle.append(el("span", { class: "caption", text: "defend alone?" }));
    }
  }

  function waitingBox(d) {
    const box = el("div", { class: "waiting-box" });
    const seats = Array.isArray(d.seats) ? d.seats : [];
    const filled = seats.filter((s) => s && s.kind !== "open").length;
    box.append(el("div", { class: "title", text: "Waiting for players" }));
    box.append(el("div", { class: "muted small", text: `${filled} of ${seats.length || playersOf(d)} seats taken` }));
    if (S.host) box.append(el("div", { class: "small", text: "Share the seat links, then press Start. Empty seats get computer players." }));
    else box.append(el("div", { class: "small", text: "The host starts the game." }));
    return box;
  }

  function winnerSides(d) {
    const sides = sidesOf(d);
    let w = Array.isArray(d.winners) ? d.winners.slice() : [];   // side indices
    if (!w.length && Array.isArray(d.scores) && d.scores.length) {
      const max = Math.max(...d.scores);
      w = d.scores.map((x, i) => (x === max ? i : -1)).filter((i) => i >= 0);
    }
    return w.filter((i) => i >= 0 && i < sides.length);
  }

  function gameOverBox(d) {
    const box = el("div", { class: "gameover", id: "gameover" });
    const ws = winnerSides(d);
    const mine = S.seat !== null ? sideOfSeat(d, S.seat) : null;
    let title = "Game over";
    if (ws.length === 1) {
      title = mine !== null && ws[0] === mine ? "You win!" : `${sideLabel(d, ws[0])} ${sidesOf(d)[ws[0]].length > 1 ? "win" : "wins"}!`;
      if (mine !== null && ws[0] === mine && sidesOf(d)[mine].length > 1) title = `${sideLabel(d, mine)} win!`;
    }
    const m = matchOf(d);
    if (m && isSeat(m.winner)) {
      // the match is over: its winner first, then each game
      box.append(el("div", { class: "title", id: "match-winner",
                             text: `${sideLabel(d, m.winner)} ${takeVerb(d, m.winner)} the match ${firstFor(m.wins, m.winner)}!` }));
      const games = el("ol", { class: "match-games", id: "match-games" });
      (Array.isArray(m.games) ? m.games : []).forEach((g, i) => games.append(el("li", { text: gameWords(d, g, i) })));
      box.append(games);
      box.append(el("div", { class: "small muted", id: "winner", text: `Last game: ${title.replace(/!$/, "")}` }));
    } else box.append(el("div", { class: "title", id: "winner", text: title }));
    const scores = Array.isArray(d.scores) ? d.scores : [];
    box.append(el("div", { class: "small", text: sidesOf(d).map((_, i) => `${sideLabel(d, i)} ${scores[i] !== undefined ? scores[i] : ""}`).join("  \u00b7  ") }));
    const last = d.view && Array.isArray(d.view.points) ? d.view.points : null;
    if (last) box.append(el("div", { class: "muted small", text: "Last hand: " + last.map((p, i) => `${sideLabel(d, i)} ${signed(p)}`).join(", ") }));
    const dl = el("div", { id: "downloads" });
    const base = `/api/tables/${encodeURIComponent(d.table || tableId)}/record`;
    dl.append(el("a", { href: base + "?format=toml", download: `euchre-${d.table || tableId}.toml`, text: "Download record (TOML)" }));
    // (EGN cannot say every game: the sister games, cut-throat, the Joker... the server tells which)
    if (d.egn !== false) dl.append(el("a", { href: base + "?format=egn", download: `euchre-${d.table || tableId}.egn`, text: "Download record (EGN)" }));
    box.append(dl);
    if (Array.isArray(d.history) && d.history.length) {
      box.append(scoreChart(d));
      // which line is whose: each side's name in its line's colour
      const legend = el("div", { class: "chart-legend small", id: "score-chart-legend" });
      sidesOf(d).forEach((_, i) => legend.append(el("span", { class: `side${i % 3}`, text: sideLabel(d, i) })));
      box.append(legend);
    }
    box.append(rematchRow(d));
    box.append(el("div", { class: "small", style: "margin-top:0.5rem" }, el("a", { href: "/", text: "New game" }), " \u00b7 ", el("a", { href: "/games", text: "All games" })));
    return box;
  }

  /** A rematch: the same seats and rules. A seat asks for it (or joins the one someone asked for:
   *  its own link works there); a spectator can watch it. */
  function rematchRow(d) {
    const row = el("div", { id: "rematch-row" });
    const seat = S.seat !== null && token && Array.isArray(d.seats) && d.seats[S.seat] && d.seats[S.seat].kind === "human";
    if (d.rematch) {
      const href = `/table/${encodeURIComponent(d.rematch)}` + (seat ? `#token=${encodeURIComponent(token)}` : "");
      row.append(el("a", { class: "button-link", id: "rematch-join", href: href, text: seat ? "Join the rematch" : "Watch the rematch" }));
      return row;
    }
    if (!seat) return row;
    const button = el("button", { class: "primary", id: "rematch-button", type: "button", text: "Rematch" });
    button.addEventListener("click", () => {
      button.disabled = true;
      fetch(`/api/tables/${encodeURIComponent(d.table || tableId)}/rematch`, {
        method: "POST", headers: { Authorization: `Bearer ${token}` },
      }).then((r) => r.json().then((body) => ({ ok: r.ok, body })))
        .then(({ ok, body }) => {
          if (ok && body.url) { window.location.assign(body.url); return; }
          button.disabled = false;
          row.append(el("div", { class: "small error", text: (body && body.message) || "The rematch could not be started." }));
        })
        .catch(() => { button.disabled = false; });
    });
    row.append(button);
    return row;
  }

  /** The result of a finished hand as the engine worked it out (d.result: its outcome, the
   *  makers' side and the sentence in words), for the hand ``p`` shows; null for another hand. */
  function resultOf(d, p) {
    const r = d && d.result;
    return r && p && r.hand === p.hand_number ? r : null;
  }

  function summaryTitle(d, p) {
    if (isSeat(p.misdeal)) return `Misdeal: ${objName(d, p.misdeal)} ${p.misdeal === S.seat ? "ask" : "asks"} for a new deal`;
    const r = resultOf(d, p);
    if (!r) return "Hand over";
    if (r.outcome === "thrown in") return "Everyone passed: thrown in";
    // The makers are the subject: they made it, marched, or "were euchred" (by the others).
    const who = sideLabel(d, r.maker_side);
    const one = sidesOf(d)[r.maker_side].length === 1 && who !== "You";
    if (r.moon) {  // Bid Euchre's moon: every trick, alone, or nothing
      const shooter = objName(d, r.maker);
      return r.outcome === "march" ? `${capital(shooter)} shot the moon!` : `${capital(shooter)} missed the moon`;
    }
    if (r.bid) {   // a bid of tricks (Hasenpfeffer, Bid Euchre): made, or set
      if (r.outcome === "march") return `${who} took every trick!`;
      const bid = napoleonNow() && r.bid_words ? r.bid_words : r.bid;
      if (napoleonNow()) return r.outcome === "euchred" ? `${who} failed at ${bid}` : `${who} made ${bid}`;
      if (r.outcome === "made") return `${who} made the bid of ${bid}`;
      return `${who} ${one ? "was" : "were"} set (bid ${bid})`;
    }
    if (r.outcome === "march") return `${who} marched!`;
    if (r.outcome === "made") return `${who} made it`;
    return `${who} ${one ? "was" : "were"} euchred`;
  }

  /** The hand-over banner in one line, for the place above the hand. */
  function summaryLineText(d, p) {
    const title = summaryTitle(d, p);
    if (isSeat(p.misdeal)) return `Last deal: ${title} (${cardsShort(p.misdeal_hand)}); ${objName(d, p.dealer)} ${p.dealer === S.seat ? "deal" : "deals"} again`;
    if (!p.trump || !Array.isArray(p.points)) return `Last hand: ${title}`;
    const who = claimer(d, p);
    const claimed = who !== null ? ` \u00b7 ${whoName(d, who)} claimed the rest` : "";
    return `Last hand: ${title} (${sidesOf(d).map((_, i) => signed(p.points[i] || 0)).join(" \u2013 ")})${claimed}`;
  }

  function summaryOf(d, p) {
    const frag = document.createDocumentFragment();
    const sides = sidesOf(d);
    const points = Array.isArray(p.points) ? p.points : null;
    const tw = Array.isArray(p.tricks_won) ? p.tricks_won : [];
    const r = resultOf(d, p);
    frag.append(el("div", { class: "title", text: summaryTitle(d, p), title: r ? r.words : null }));
    if (isSeat(p.misdeal)) {
      // the cancelled deal (RULES-FAMILY.md 12.4): the caller's hand is shown to all; no score
      const shown = el("div", { class: "misdeal-hand", id: "misdeal-hand" });
      for (const c of Array.isArray(p.misdeal_hand) ? p.misdeal_hand : []) shown.append(E.cardEl(c, { size: "small" }));
      frag.append(shown);
      frag.append(el("div", { class: "small", text: `No king, queen or jack, and at most one ace. The deal is cancelled and nothing is scored: ` +
                                                   `${objName(d, p.dealer)} ${p.dealer === S.seat ? "shuffle and deal" : "shuffles and deals"} again.` }));
      return frag;
    }
    if (p.trump) {
      const bid = r && r.moon ? " \u00b7 the moon" : r && r.bid ? ` \u00b7 bid ${r.bid_words && napoleonNow() ? r.bid_words : r.bid}` : "";
      frag.append(el("div", { class: "small muted", style: "margin-bottom:0.3rem" },
        `${whoName(d, p.maker)} made `, trumpSpan(p.trump, true), p.alone ? " alone" : "", bid,
        claimer(d, p) !== null ? ` \u00b7 ${whoName(d, claimer(d, p))} claimed the rest` : ""));
      if (r && r.forced_bid) {
        frag.append(el("div", { class: "small", id: "forced-bid-note",
          text: `Everyone passed, so ${objName(d, p.maker)}, holding the Joker, had to bid ${r.bid}.` }));
      }
    }
    if (!p.trump) {
      // the server's sentence says why and who deals next (a Hasenpfeffer throw-in: the Joker was left over)
      const text = r && r.words ? capital(r.words) + "." : "The hand is thrown in; the deal passes to the left.";
      frag.append(el("div", { class: "small", id: "thrown-in-note", text }));
      return frag;
    }
    sides.forEach((seats, i) => {
      const tricks = seats.reduce((a, s) => a + (tw[s] || 0), 0);
      const pts = points ? points[i] || 0 : 0;
      frag.append(el("div", { class: "row" }, el("span", { class: "side-" + (i % 3), text: sideLabel(d, i) }),
        el("span", { text: `${tricks} trick${tricks === 1 ? "" : "s"}` }),
        el("span", { class: "pts", text: signed(pts) })));
    });
    // the same in one line, for a narrow screen (the rows above take too much of the felt there)
    const trickCounts = sides.map((seats) => seats.reduce((a, s) => a + (tw[s] || 0), 0));
    frag.append(el("div", { class: "brief", text: `tricks ${trickCounts.join("\u2013")} \u00b7 points ` +
                                                    sides.map((_, i) => signed(points ? points[i] || 0 : 0)).join("\u00a0\u2013\u00a0") }));
    if (Array.isArray(p.tricks) && p.tricks.length) {
      const t = p.tricks[p.tricks.length - 1];
      const line = el("div", { class: "small last-line" }, "Last trick: ");
      for (const q of t.plays || []) line.append(E.cardText(q.card), " ");
      line.append(`\u2014 ${S.seat === t.winner ? "yours" : seatName(d, t.winner)}`);
      frag.append(line);
    }
    return frag;
  }

  /** How the last hand went: a banner over the felt's center while others act, never on your
      turn (it would hide what you decide on: the up card, the seats' bids). From your first turn
      on (the banner does not come back) and once the banner's time is up, one line above your
      hand says it, for the rest of the new hand's bidding (at least SUMMARY_MAX ms from the end). */
  function renderSummary(d) {
    const box = $("hand-summary");
    const line = $("hand-summary-line");
    const sm = S.summary;
    const v = d.view;
    const now = Date.now();
    let show = false;
    let lineShown = false;
    let wake = null;
    clearTimeout(S.summaryTimer);
    if (sm && !sm.closed && d.status === "playing") {
      if (isMyTurn(S.shown)) sm.folded = true;
      const age = now - sm.at;
      const stillPrevious = justDealt(d) && d.previous.hand_number === sm.key;
      show = !sm.folded && age < SUMMARY_MAX && (stillPrevious || age < SUMMARY_MIN);
      if (show) wake = stillPrevious ? SUMMARY_MAX - age : SUMMARY_MIN - age;
      else if (S.seat !== null && v && v.hand_number === sm.key + 1) {
        const bidding = BIDDING.indexOf(v.phase) >= 0;
        lineShown = bidding || age < SUMMARY_MAX;
        if (lineShown && !bidding) wake = SUMMARY_MAX - age;
      }
    }
    // a game of the match just ended: said first, in the banner and (instead of the last hand) in its line
    const notice = matchNotice(d);
    if (notice) {
      const left = MATCH_NOTICE - (now - notice.at);
      if (left > 0) wake = wake === null ? left : Math.min(wake, left);
      if (!show) lineShown = true;
    }
    if (wake !== null) S.summaryTimer = setTimeout(render, wake + 20);
    line.classList.toggle("match-line", !!notice && lineShown);
    if (lineShown) {
      const lkey = notice ? "match:" + notice.text : String(sm.key);
      if (line.dataset.key !== lkey) {
        line.dataset.key = lkey;
        line.textContent = notice ? notice.text : summaryLineText(d, sm.p);
        line.title = line.textContent;
      }
      line.classList.remove("hidden");
    } else {
      line.classList.add("hidden");
      line.dataset.key = "";
    }
    if (!show) { box.classList.add("hidden"); box.dataset.key = ""; return; }
    const bkey = String(sm.key) + (notice ? ":" + notice.text : "");
    if (box.dataset.key === bkey && !box.classList.contains("hidden")) return;
    box.dataset.key = bkey;
    E.clear(box);
    if (notice) box.append(el("div", { class: "match-line", id: "match-notice", text: notice.text }));
    box.append(summaryOf(d, sm.p));
    const close = el("button", { class: "close", type: "button", "aria-label": "close", text: "\u00d7" });
    close.addEventListener("click", () => { sm.closed = true; render(); });
    box.append(close);
    box.classList.remove("hidden");
  }

  function renderStatus(d) {
    const st = $("status");
    const v = d.view;
    let text = "";
    let mine = false;
    if (d.status === "waiting") text = S.host ? "Waiting for players: press Start when ready." : "Waiting for the host to start the game.";
    else if (d.status === "over") {
      const ws = winnerSides(d);
      text = "Game over" + (ws.length === 1 ? `: ${sideLabel(d, ws[0])} ${ws[0] === (S.seat !== null ? sideOfSeat(d, S.seat) : -1) || sidesOf(d)[ws[0]].length > 1 ? "win" : "wins"}` : "") + ".";
      const m = matchOf(d);
      if (m && isSeat(m.winner)) text = `Match over: ${sideLabel(d, m.winner)} ${takeVerb(d, m.winner)} the match ${firstFor(m.wins, m.winner)}.`;
    } else if (!v) text = "Waiting for the table…";
    else if (S.down && !S.stopped) text = "Connection lost \u2014 reconnecting\u2026";
    else if (S.pending) text = "Sending…";
    else if (isMyTurn(S.shown)) {
      mine = true;
      const dealer = v.seat === v.dealer;
      switch (v.phase) {
        case "bid1": text = dealer ? "Your turn: pick up the card, or pass." : "Your turn: order up, or pass."; break;
        case "take": text = "Your turn: take the up card, or leave it."; break;
        case "bid2": text = "Your turn: call trump, or pass."; break;
        case "joker": text = "The Joker is turned up: you name trump."; break;
        case "discard": text = "Your turn: choose a card to discard."; break;
        case "give": {
          const to = partnerOf(d, S.seat);
          const how = isSeat(to) && to === v.lone_defender ? "defends alone" : "goes alone";
          text = moonNow() ? `The moon: ${isSeat(to) ? seatName(d, to) : "your partner"} shot the moon; give them a card (you sit this hand out).`
            : `Call for best: ${isSeat(to) ? seatName(d, to) : "your partner"} ${how} and calls for your best card.`;
          break;
        }
        case "best_discard": {
          const g = giftTo(v, S.seat);
          const of = `Choose one of your ${withGift(d)} cards to discard.`;
          if (g && g.card) {
            const from = seatName(d, g.giver);
            text = giftChosen(v, g) ? `${bestWords()}: ${from} passed you ${cardShort(g.card)}. ${of}`
              : `${bestWords()}: ${from} passed you their best trump, ${cardShort(g.card)}. ${of}`;
          } else text = `${bestWords()}: ${of.charAt(0).toLowerCase() + of.slice(1)}`;
          break;
        }
        case "defend": text = "Your turn: defend alone against the loner, or pass."; break;
        case "misdeal_offer":
          text = acesIn(v.hand) ? "Your hand has one ace and no face card: ask for a new deal?"
            : "Your hand has no ace and no face card: ask for a new deal?";
          break;
        case "farmer_offer": text = "Farmer's hand (only nines and tens): exchange three cards with the stock?"; break;
        case "farmer_give": {
          const left = Math.max(1, 3 - farmerGiven(v).length);
          text = left === 3 ? "Farmer's hand: choose the three cards to give to the stock."
            : `Farmer's hand: choose ${left} more card${left === 1 ? "" : "s"} to give to the stock.`;
          break;
        }
        case "play": text = (v.trick && v.trick.length) ? "Your turn: play a card." : "Your turn: lead a card."; break;
        case "lead": text = `You won the bid (${bidText(v)}): lead any card; its suit becomes trump.`; break;
        case "auction": {
          if (napoleonNow()) {   // Napoleon's bids in the engine's words (d.legal_words), pass last
            const said = v.legal.filter((a) => a !== "pass").map((a) => serverWords(a) || a);
            if (v.legal.indexOf("pass") >= 0) said.push("pass");
            const list = said.length > 1 ? `${said.slice(0, -1).join(", ")}, or ${said[said.length - 1]}` : said.join("");
            text = `Your turn: ${list}.` + (isSeat(v.bidder) ? ` High bid: ${highBidText(d, v)}.` : "");
            break;
          }
          const bids = legalBids(v.legal);
          const range = !bids.length ? "" : bids.length === 1 ? `bid ${bids[0]}` : `bid ${Math.min(...bids)} to ${Math.max(...bids)} tricks`;
          // the choices the frame lists: the bids, the moon (Bid Euchre), pass (not for a stuck dealer: the notes say why)
          const choices = [range, v.legal.indexOf("moon") >= 0 ? "shoot the moon" : "", v.legal.indexOf("pass") >= 0 ? "pass" : ""].filter(Boolean);
          const said = choices.length > 1 ? `${choices.slice(0, -1).join(", ")}, or ${choices[choices.length - 1]}` : choices.join("");
          text = `Your turn: ${said}.` +
                 (v.bid && isSeat(v.bidder) ? ` High bid: ${highBidText(d, v)}.` : "");
          break;
        }
        case "name_trump":
          text = v.forced_bid ? `Everyone passed and you hold the Joker: you bid ${v.bid}. Name trump.`
            : moonNow() ? "You shot the moon: name trump (a suit, high or low)."
              : `You won the bid with ${v.bid}: name trump.`;
          break;
        default: text = "Your turn.";
      }
    } else if (v.to_act !== null && v.to_act !== undefined) {
      const who = seatName(d, v.to_act);
      switch (v.phase) {
        case "bid1": case "bid2": text = `${who} is bidding…`; break;
        case "take": text = `${who} decides on the up card…`; break;
        case "joker": text = `${who} names trump…`; break;
        case "discard": text = `${who} is discarding…`; break;
        case "give":
          text = S.seat !== null && bestReceiver(v) === S.seat ? `${bestWords()}: ${who} chooses a card to give you…`
            : `${bestWords()}: ${who} chooses a card to give…`;
          break;
        case "best_discard": {
          const g = S.seat !== null ? giftsOf(v).find((x) => x.giver === S.seat && x.receiver === v.to_act) : null;
          text = g && g.card ? `${bestWords()}: you gave ${who} ${cardShort(g.card)}; ${who} discards one of ${withGift(d)}…`
            : `${bestWords()}: ${who} is discarding…`;
          break;
        }
        case "defend": text = `${who} may defend alone…`; break;
        case "farmer_give": text = `Farmer's hand: ${who} gives three cards to the stock…`; break;
        case "misdeal_offer": case "farmer_offer": case "offers": text = offersText(v); break;
        case "play": text = (v.trick && v.trick.length) ? `${who} to play…` : `${who} to lead…`; break;
        case "auction": text = `${who} is bidding…` + (v.bid && isSeat(v.bidder) ? ` High bid: ${highBidText(d, v)}.` : ""); break;
        case "lead": text = `${who} won the bid (${bidText(v)}) and leads: the suit led becomes trump…`; break;
        case "name_trump":
          text = v.forced_bid ? `Everyone passed: ${who} holds the Joker, bids ${v.bid} and names trump…`
            : moonNow() ? `${who} shot the moon and names trump…`
              : `${who} won the bid with ${v.bid} and names trump…`;
          break;
        default: text = `${who} to act…`;
      }
    } else if (v.phase === "call_for_best") {
      const r = bestReceiver(v);
      const g = isSeat(r) ? partnerOf(d, r) : null;
      text = isSeat(r) && isSeat(g) ? `${bestWords()}: ${seatName(d, g)} passes ${seatName(d, r)} a card, and ${seatName(d, r)} discards one…`
        : `${bestWords()}: a card is passed to the lone player, who discards one…`;
    } else if (OFFER_PHASES.indexOf(v.phase) >= 0) text = offersText(v);
    else text = "Hand over.";
    st.textContent = text;
    st.classList.toggle("my-turn", mine);
    // Your turn brings the table back into view: on a phone the side panels below it scroll the
    // page, and a player reading the chat there (or a moment when the page did not fit) must not
    // be asked to act on a table they cannot see.
    if (mine && !S.wasMine) {
      const main = document.querySelector("main");
      const felt = $("felt");
      if (main && felt && main.scrollTop > 0 && felt.getBoundingClientRect().top < main.getBoundingClientRect().top) {
        main.scrollTop = 0;
      }
    }
    S.wasMine = mine;
  }

  /** While the offers are pending, nobody is named (RULES-FAMILY.md 12.7): what may happen. */
  function offersText(v) {
    const r = (v && v.rules) || {};
    const what = [];
    if (r.ace_no_face) what.push("ask for a new deal (no face card)");
    if (r.farmers_hand) what.push("claim a farmer's hand (only nines and tens)");
    return what.length ? `Before the bidding: a player may ${what.join(" or ")}…` : "Before the bidding…";
  }

  /** Below the buttons of an offer (and of a call for best): what each choice does, in full. */
  function renderOfferHelp(d) {
    const box = $("offer-help");
    const v = d.view;
    let text = "";
    if (v && d.status === "playing" && S.seat !== null && isMyTurn(S.shown)) {
      const r = v.rules || {};
      switch (v.phase) {
        case "misdeal_offer":
          text = "Misdeal: your five cards are shown to everyone, and the same dealer shuffles and deals again; nothing is scored. Keep: you play this hand.";
          break;
        case "farmer_offer":
          text = "Farmer: you give three cards of your choice face down to the stock and take the three cards under the up card (the up card stays). Keep: you play the hand as dealt.";
          break;
        case "farmer_give": text = "Click a card to give it. Once three are given, the three cards under the up card come to your hand."; break;
        case "give": text = `The card goes face down to your partner, who then discards one of ${withGift(d)}. You sit this hand out.`; break;
        case "best_discard": text = "The card you discard goes face down: nobody else sees it."; break;
        case "defend":
          if (r.call_for_best) text = "Defending alone, your partner sits out and passes you their best card; you then discard one.";
          break;
        default: break;
      }
    }
    if (box.textContent !== text) box.textContent = text;
    box.classList.toggle("hidden", !text);
  }

  function renderStart(d) {
    $("start-row").classList.toggle("hidden", !(d.status === "waiting" && S.host));
  }

  function restoreFocus(container, action) {
    if (!action) return;
    const target = container.querySelector(`[data-action="${CSS.escape(action)}"]`);
    // Without scrolling: a re-render must never move the page (on a phone the side panels below
    // make the main area scrollable, and a focus() there would scroll the table away).
    if (target && !target.disabled) target.focus({ preventScroll: true });
  }

  function renderBids(d) {
    const box = $("bids");
    const v = d.view;
    const legal = (v && isMyTurn(S.shown) && Array.isArray(v.legal)) ? v.legal : [];
    const bids = legal.filter((a) => !/^(play|discard|give) /.test(a));
    // the bidding keeps the row's height (no jump when your turn comes); the play gives it back
    // (a card to choose from your hand needs no buttons: the discard, the farmer's three, call for best)
    document.body.classList.toggle("bidding", !!(v && d.status === "playing" && BIDDING.indexOf(v.phase) >= 0 && S.seat !== null &&
                                                 ["discard", "farmer_give", "give", "best_discard"].indexOf(v.phase) < 0));
    // why a choice is missing now (the server's words), quietly under the buttons
    const rawNotes = (v && Array.isArray(v.notes) && v.notes) || (Array.isArray(d.notes) && d.notes) || [];
    const notes = rawNotes.filter((x) => typeof x === "string" && x);
    const nb = $("bid-notes");
    const notesText = notes.join(" ");
    if (nb.textContent !== notesText) nb.textContent = notesText;
    nb.classList.toggle("hidden", !notes.length || S.seat === null || d.status !== "playing");
    const confirm = S.confirm && S.confirm.v === S.shownV && bids.indexOf(S.confirm.action) >= 0 ? S.confirm.action : null;
    const key = JSON.stringify([bids, locked(), v && v.phase, v && v.dealer, v && v.seat, v && v.up_card, confirm]);
    if (S.renderKeys.bids === key) return;
    S.renderKeys.bids = key;
    const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.action : null;
    E.clear(box);
    box.classList.toggle("many", bids.length > 4 && !confirm);
    box.classList.toggle("confirming", !!confirm);
    if (confirm) {
      // going alone, asked once more (the setting): nothing is sent until Yes
      const words = / alone$/.test(confirm) && confirm.startsWith("defend") ? "Defend alone against them?" : "Go alone? Your partner sits this hand out.";
      const yes = el("button", { type: "button", class: "bid confirm-yes", id: "confirm-yes", title: actionLabelText(confirm, v) },
                     "Yes: ", ...actionLabelNodes(confirm, v));
      const no = el("button", { type: "button", class: "bid pass confirm-no", id: "confirm-no", text: "Cancel" });
      yes.disabled = no.disabled = locked();
      yes.addEventListener("click", () => act(confirm));
      no.addEventListener("click", () => {
        S.confirm = null;
        render();
        const back = box.querySelector(`[data-action="${CSS.escape(confirm)}"]`);
        if (back) back.focus({ preventScroll: true });
      });
      box.append(el("span", { class: "confirm-q", id: "confirm-question", text: words }), yes, no);
      return;
    }
    // keeping the hand is the offers' "pass": first, as pass is in the bidding
    const ordered = bids.filter((a) => a === "keep").concat(bids.filter((a) => a !== "keep"));
    for (const a of ordered) {
      const parts = a.split(/\s+/);
      const b = el("button", { type: "button", class: "bid" + (a === "pass" || a === "keep" ? " pass" : "") +
                                 (parts[parts.length - 1] === "alone" || a === "moon" ? " alone" : "") + (a === "misdeal" || a === "farmer" ? " offer" : ""),
                               dataset: { action: a }, title: actionTitle(a, v) }, ...actionLabelNodes(a, v));
      b.disabled = locked();
      b.addEventListener("click", () => choose(a));
      box.append(b);
    }
    restoreFocus(box, focused);
  }

  function handCards() { return Array.from($("hand").querySelectorAll(".card")); }

  function renderHand(d) {
    const box = $("hand");
    const v = d.view;
    const label = $("hand-label");
    const hand = v && Array.isArray(v.hand) ? v.hand : [];
    const legal = v && isMyTurn(S.shown) && Array.isArray(v.legal) ? v.legal : [];
    const key = JSON.stringify([hand, legal, locked(), v && v.up_card_taken, v && v.dealer, v && v.up_card, v && v.phase,
                                v && v.gifts, v && v.farmer_took]);
    // the label above the hand
    let lab = "";
    // the trick that just ended, while it is still this hand's latest (the panel's "Last trick")
    const flash = S.trickFlash && S.trickFlash.until > Date.now() && v && S.trickFlash.key === trickKey(v) ? S.trickFlash.trick : null;
    if (S.seat === null) lab = d.status === "waiting" ? "" : "You are watching: you see what every player sees, no hidden cards.";
    else if (v && v.phase === "discard" && legal.length) lab = "Choose the card to bury (discard).";
    else if (v && v.phase === "give" && legal.length) lab = "Choose the card to give your partner.";
    else if (v && v.phase === "best_discard" && legal.length) lab = `${capital(withGift(d))} cards in your hand: one goes face down.`;
    else if (v && v.phase === "misdeal_offer" && legal.length) lab = "No king, queen or jack in your hand" + (acesIn(hand) ? ", and only one ace." : ", and no ace.");
    else if (v && v.phase === "farmer_offer" && legal.length) lab = "Only nines and tens: a farmer's hand.";
    else if (v && v.phase === "farmer_give" && legal.length) lab = `Farmer's hand: card ${farmerGiven(v).length + 1} of 3 to give.`;
    else if (v && v.phase === "play" && legal.length) lab = legal.length === 1 ? "Only one card can be played." : "Choose a card to play.";
    else if (v && Array.isArray(v.sitting_out) && v.sitting_out.indexOf(S.seat) >= 0) lab = "You sit this hand out.";
    E.clear(label);
    const swept = !!(v && S.sweptKey === trickKey(v) && (!v.trick || !v.trick.length));
    if (flash && v && v.phase === "play" && ((v.trick && v.trick.length) || swept)) {
      label.append(`Last trick, won by ${S.seat === flash.winner ? "you" : seatName(d, flash.winner)}: `);
      for (const p of flash.plays || []) label.append(E.cardText(p.card), " ");
    } else label.textContent = lab;
    // one line above the hand: the last hand's summary has it while it shows (the status line says
    // what to do), then the label
    label.classList.toggle("hidden", !$("hand-summary-line").classList.contains("hidden"));
    if (S.renderKeys.hand === key) return;
    S.renderKeys.hand = key;
    const focusedIdx = (() => {
      const a = document.activeElement;
      if (!a || !box.contains(a)) return -1;
      return handCards().indexOf(a);
    })();
    if (S.renderKeys.handCards !== JSON.stringify(hand)) { S.sel = -1; S.renderKeys.handCards = JSON.stringify(hand); }
    E.clear(box);
    // twelve cards (Bid Euchre's double deck): one row where the column has room for them, else
    // two rows of half the hand (app.css, #hand.twelve); the cards keep one size all the hand
    const twelve = (d.hand_size || 5) >= 12;
    box.classList.toggle("twelve", twelve);
    box.classList.toggle("six", !twelve && hand.length > 5);
    box.classList.toggle("seven", !twelve && hand.length > 6);
    if (twelve) {
      const slots = Math.max(hand.length, d.hand_size);   // thirteen: the moon's shooter holds the partner's card
      box.style.setProperty("--n", String(Math.max(1, hand.length)));
      box.style.setProperty("--row", String(Math.max(1, hand.length <= 6 ? hand.length : Math.ceil(hand.length / 2))));
      box.style.setProperty("--slots", String(slots));
      box.style.setProperty("--half-slots", String(Math.ceil(slots / 2)));
    }
    box.classList.toggle("choosing", legal.some((a) => /^(play|discard|give) /.test(a)) || locked());
    let giftTagged = false;
    hand.forEach((c, i) => {
      const b = E.cardEl(c, { tag: "button" });
      let action = null;
      if (legal.indexOf("play " + c) >= 0) action = "play " + c;
      else if (legal.indexOf("discard " + c) >= 0) action = "discard " + c;
      else if (legal.indexOf("give " + c) >= 0) action = "give " + c;
      if (action && !locked()) {
        b.dataset.action = action;
        b.classList.add("playable");
        b.setAttribute("aria-label", v.phase === "farmer_give" ? `give ${E.cardWords(c)} to the stock` : action.split(" ")[0] + " " + E.cardWords(c));
      } else {
        b.disabled = true;
      }
      const before = !!(v && BIDDING.indexOf(v.phase) >= 0);
      const got = v && S.seat !== null ? giftTo(v, S.seat) : null;
      if (v && v.up_card_taken && v.seat === v.dealer && c === v.up_card) b.append(el("span", { class: "tag", text: "up card" }));
      else if (before && got && got.card === c && !giftTagged) {
        // one copy only (the double deck holds a card twice), in a word that fits a small card
        giftTagged = true;
        b.append(el("span", { class: "tag", text: twelve ? "gift" : "from partner", title: "from your partner" }));
      }
      else if (before && Array.isArray(v.farmer_took) && v.farmer_took.indexOf(c) >= 0) b.append(el("span", { class: "tag", text: "from the stock" }));
      if (i === S.sel) b.classList.add("selected");
      if (FX.away.has("hand:" + c)) b.classList.add("fx-away");
      b.addEventListener("click", () => { if (b.dataset.action) act(b.dataset.action); });
      b.addEventListener("focus", () => { selectCard(i, false); });
      box.append(b);
    });
    if (focusedIdx >= 0) {
      const cards = handCards();
      const c = cards[S.sel >= 0 ? S.sel : focusedIdx];
      if (c && !c.disabled) c.focus({ preventScroll: true });  // never scroll the table away (see renderBids)
    }
  }

  function selectCard(i, focus) {
    const cards = handCards();
    if (!cards.length) return;
    i = Math.max(0, Math.min(cards.length - 1, i));
    S.sel = i;
    cards.forEach((c, k) => c.classList.toggle("selected", k === i));
    if (focus) {
      if (!cards[i].disabled) cards[i].focus({ preventScroll: true });
      else if (document.activeElement && $("hand").contains(document.activeElement)) document.activeElement.blur();
    }
  }

  function renderInfo(d) {
    const dl = $("info");
    E.clear(dl);
    const v = d.view;
    const row = (k, ...val) => { dl.append(el("dt", { text: k }), el("dd", null, ...val)); };
    if (v) {
      row("Hand", String(handNo(d, v)));
      row("Dealer", whoName(d, v.dealer));
      if (v.up_card) {
        let note = "";
        if (v.up_card_taken) note = " (taken)";
        else if (v.phase === "bid2" || (v.trump && v.trump !== upSuit(v) && upSuit(v))) note = " (turned down)";
        row("Up card", E.cardText(v.up_card), note);
      }
      if (v.bid && isSeat(v.bidder)) row("High bid", highBidText(d, v));
      if (v.trump) row("Trump", trumpSpan(v.trump, true));
      if (v.maker !== null && v.maker !== undefined && v.trump) row("Maker", whoName(d, v.maker) + (v.alone ? ", alone" : ""));
      if (v.lone_defender !== null && v.lone_defender !== undefined) row("Defends alone", whoName(d, v.lone_defender));
      if (v.discard) row("You buried", E.cardText(v.discard));
      if (isSeat(v.farmer)) {
        if (S.seat !== null && v.farmer === S.seat) {
          const given = farmerGiven(v).filter(Boolean);
          if (given.length) row("You gave", ...cardNodes(given));
          if (Array.isArray(v.farmer_took) && v.farmer_took.length) row("You took", ...cardNodes(v.farmer_took));
        } else row("Farmer's hand", whoName(d, v.farmer));
      }
      for (const g of giftsOf(v)) {
        const nodes = [`${whoName(d, g.giver)} gave ${objName(d, g.receiver)} `, g.card ? E.cardText(g.card) : "a card"];
        row(moonNow() ? "Partner's card" : "Best card", ...nodes);
        if (g.receiver === S.seat && g.discard) row("You discarded", E.cardText(g.discard));
      }
    }
    const rules = (v && v.rules) || {};
    let game = "";
    if (rules.target) game = `first to ${rules.target}`;
    else if (rules.duration) game = `${rules.duration} minutes`;
    else if (rules.deals) game = `${rules.deals} hands`;
    // the double deck is two packs of rules.deck cards: every card twice
    const deck = rules.double_deck ? `${2 * rules.deck} cards, every card twice` : `${rules.deck} cards`;
    if (rules.players) game += `${game ? ", " : ""}${rules.players} players, ${deck}`;
    if (game) row("Game", game);
    const house = houseRules(rules);
    if (house.length) row("House rules", house.join(", "));
    const m = matchOf(d);
    if (m) {
      const goal = matchGoal(m);
      row("Match", (typeof m.standing === "string" && m.standing) ? m.standing : `game wins ${m.wins.join(" \u2013 ")}${goal ? " (" + goal + ")" : ""}`);
    }
    if (d.level) row("Computer", String(d.level));
    let lastPoints = null;
    if (v && v.phase === "over" && Array.isArray(v.points)) lastPoints = v.points;
    else if (d.previous && Array.isArray(d.previous.points)) lastPoints = d.previous.points;
    else if (S.summary && S.summary.p && Array.isArray(S.summary.p.points) && v && S.summary.key === v.hand_number - 1) lastPoints = S.summary.p.points;
    if (lastPoints) row("Last hand", lastPoints.map((p, i) => `${sideLabel(d, i)} ${signed(p)}`).join(", "));
    const st = $("side-tricks");
    E.clear(st);
    if (v && (v.phase === "play" || v.phase === "over") && Array.isArray(v.tricks_won)) {
      const parts = sidesOf(d).map((seats, i) => {
        const k = seats.reduce((a, s) => a + (v.tricks_won[s] || 0), 0);
        return el("span", { class: "side-" + (i % 3), text: `${sideLabel(d, i)}: ${k}` });
      });
      st.append("Tricks: ");
      parts.forEach((p, i) => { if (i) st.append(" \u00b7 "); st.append(p); });
    }
    $("table-id").textContent = `Table ${d.table || tableId}` + (S.seat === null ? " (watching)" : "");
  }

  function renderHistory(d) {
    const ul = $("bid-history");
    const v = d.view;
    const before = misdealBefore(d, v);
    const key = JSON.stringify([v && v.hand_number, v && v.actions, v && v.gifts, v && v.farmer_took, before && before.hand_number,
                                d.seats && d.seats.map((s) => s && s.name)]);
    if (S.renderKeys.history === key) return;
    S.renderKeys.history = key;
    E.clear(ul);
    if (!v) return;
    const line = (seat, nodes, cls) => {
      const li = el("li", cls ? { class: cls } : null);
      if (isSeat(seat)) li.append(el("span", { class: "who side-" + (sideOfSeat(d, seat) % 3), text: whoName(d, seat) }), " ");
      li.append(...nodes);
      ul.append(li);
    };
    if (before) {
      // the cancelled deal: who called the misdeal and the hand they showed (RULES-FAMILY.md 12.4)
      line(before.misdeal, ["called a misdeal, showing ", ...cardNodes(before.misdeal_hand),
                            ` (no face card): the deal is cancelled and ${objName(d, before.dealer)} ${before.dealer === S.seat ? "deal" : "deals"} again`], "misdeal");
    }
    if (v.up_card) line(null, [`${whoName(d, v.dealer)} dealt; up card `, E.cardText(v.up_card)], "muted");
    else line(null, [`${whoName(d, v.dealer)} dealt ${d.hand_size || (v.hand || []).length || ""} cards each`], "muted");
    for (const item of historyItems(d, v)) line(item.seat, item.nodes, item.cls);
    ul.scrollTop = ul.scrollHeight;
  }

  /** The latest finished trick of the hand being played (after the game, of its last hand), read
      from the frame alone, so a reload shows the same. Until the hand's first card, the last
      trick of the hand before (d.previous, sent until then; under match rules the last hand of
      the game before), said so; from its first card to its first trick's end, none. */
  function renderLastTrick(d) {
    const box = $("last-trick");
    const v = d.view;
    let tricks = v && Array.isArray(v.tricks) ? v.tricks : [];
    const prev = d.previous;
    const before = !tricks.length && v && !(v.trick || []).length && prev && Array.isArray(prev.tricks) &&
                   prev.tricks.length ? prev : null;
    if (before) tricks = before.tricks;
    const t = tricks.length ? tricks[tricks.length - 1] : null;
    const key = JSON.stringify([v ? v.hand_number : null, before ? before.hand_number : null, tricks.length, t,
                                d.seats && d.seats.map((s) => s && s.name), S.seat]);
    if (S.renderKeys.last === key) return;
    S.renderKeys.last = key;
    E.clear(box);
    box.dataset.hand = before ? String(before.hand_number) : v ? String(v.hand_number) : "";
    box.dataset.tricks = String(tricks.length);
    box.dataset.previous = before ? "1" : "";
    if (!t) { box.append(el("span", { class: "muted small", text: "No trick yet in this hand." })); return; }
    const who = S.seat !== null && t.winner === S.seat ? "you" : seatName(d, t.winner);
    const text = before ? `Last trick of ${previousHandWords(d, v, before)}, won by ${who}`
      : `Trick ${tricks.length} of hand ${handNo(d, v)}, won by ${who}`;
    box.append(el("span", { class: "muted small", id: "last-trick-caption", text }));
    for (const p of t.plays || []) {
      const win = p.seat === t.winner;
      const item = el("div", { class: "play" + (win ? " win" : ""), dataset: { seat: String(p.seat) },
                               title: `${whoName(d, p.seat)}: ${E.cardWords(p.card)}${win ? " (won the trick)" : ""}` });
      item.append(E.cardEl(p.card, { size: "small" }), el("span", { class: "pos", text: placeWord(d, p.seat) }));
      // the whole name, wrapped if long (never cut short: several computer players look alike)
      if (S.seat === null || p.seat !== S.seat) item.append(el("span", { class: "n", text: baseName(d, p.seat) }));
      box.append(item);
    }
  }

  /** The hand before the one being played, as players count it: "hand 3" (the hand before in this
      game is a real one, having tricks), or under match rules "game 1" (its last hand). */
  function previousHandWords(d, v, p) {
    if (p.hand_number === v.hand_number - 1) return `hand ${typeof d.hand_no === "number" ? d.hand_no - 1 : p.hand_number + 1}`;
    const r = resultOf(d, p);
    const m = matchOf(d);
    const game = r && typeof r.game === "number" ? r.game : m && typeof m.game === "number" ? m.game - 1 : null;
    return game ? `game ${game}` : "the hand before";
  }

  /** Where a seat sits on the felt, in a word: You, Left, Partner, Right (or the compass for a
      spectator, who sees seat 1 at the bottom). */
  function placeWord(d, s) {
    const n = playersOf(d);
    const pos = posOf(s, n);
    if (S.seat === null || S.seat === undefined) return { bottom: "South", left: "West", top: "North", right: "East" }[pos] || `Seat ${s + 1}`;
    if (s === S.seat) return "You";
    if (pos === "top") return n === 4 ? "Partner" : "Opponent";
    return { left: "Left", right: "Right" }[pos] || `Seat ${s + 1}`;
  }

  // ---------------------------------------------------------------- name bar
  function updateNameBar() {
    const bar = $("name-bar");
    const show = !!token && !E.getName() && !S.nameDismissed;
    bar.classList.toggle("hidden", !show);
  }

  function saveName() {
    const name = $("name-input").value.trim().slice(0, 24);
    if (!name) return;
    E.setName(name);
    S.nameDismissed = true;
    updateNameBar();
    reconnectNow();  // the hello carries the name
  }

  // ---------------------------------------------------------------- input
  function onKey(e) {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape" && S.confirm) { e.preventDefault(); S.confirm = null; render(); return; }
    const cards = handCards();
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      if (!cards.length) return;
      e.preventDefault();
      const dir = e.key === "ArrowLeft" ? -1 : 1;
      // move among the playable cards when there are some, else among all
      const playable = cards.map((c, k) => (c.dataset.action ? k : -1)).filter((k) => k >= 0);
      const pool = playable.length ? playable : cards.map((_, k) => k);
      let pos = pool.indexOf(S.sel);
      if (pos < 0) pos = dir > 0 ? 0 : pool.length - 1;
      else pos = (pos + dir + pool.length) % pool.length;
      selectCard(pool[pos], true);
      return;
    }
    if (/^[1-9]$/.test(e.key)) {
      const i = Number(e.key) - 1;
      if (i < cards.length) { e.preventDefault(); selectCard(i, true); }
      return;
    }
    if (e.key === "Enter" || e.key === " " || e.key === "Spacebar") {
      // a focused button handles Enter/Space itself (native click)
      if (t && t.tagName === "BUTTON" || t && t.tagName === "A") return;
      if (S.sel >= 0 && cards[S.sel]) {
        e.preventDefault();
        const a = cards[S.sel].dataset.action;
        if (a) act(a);
        else if (isMyTurn(S.shown)) toast("That card cannot be played now.", "info");
      }
    }
  }

  function init() {
    if (!tableId) { $("status").textContent = "No table given."; return; }
    $("table-id").textContent = `Table ${tableId}`;
    initSettings();
    $("hint-button").addEventListener("click", askHint);
    $("hint-quick").addEventListener("click", askHint);
    $("hint-strip-close").addEventListener("click", () => { if (S.hints) S.hintsClosed = S.hints.v; renderHints(); });
    $("claim-button").addEventListener("click", claim);
    $("undo-button").addEventListener("click", undo);
    $("chat-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const input = $("chat-input");
      const text = input.value.trim();
      if (!text) return;
      if (send({ t: "chat", text: text.slice(0, 300) })) input.value = "";
      else toast("Not connected: the message was not sent.");
    });
    $("start-button").addEventListener("click", () => {
      if (send({ t: "start" })) $("start-button").disabled = true;
      setTimeout(() => { $("start-button").disabled = false; }, 3000);
    });
    $("name-save").addEventListener("click", saveName);
    $("conn-retry").addEventListener("click", () => { if (!S.stopped) reconnectNow(); });
    $("name-input").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); saveName(); } });
    document.addEventListener("keydown", onKey);
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) {
        if (!S.ws && !S.stopped) reconnectNow();
        pump();
      }
    });
    window.addEventListener("online", () => { if (!S.ws && !S.stopped) reconnectNow(); });
    window.addEventListener("hashchange", () => location.reload());
    updateNameBar();
    setConn("connecting…", "bad");
    connect();
  }

  // for browser tests and debugging: read-only peeks
  window.euchreTable = {
    get state() { return S.shown; },
    get version() { return S.shownV; },
    get pending() { return S.pending; },
    get connected() { return !!(S.ws && S.ws.readyState === WebSocket.OPEN && S.welcomed); },
    get settings() { return Object.assign({}, S.settings); },
    get motion() { return motion(); },
    /** cards in flight now, and flights started since the page opened */
    get animating() { return FX.flights.length; },
    get flights() { return FX.started; },
    /** AudioContexts made (none until sounds are turned on) */
    get audioContexts() { return Sound.made; },
    /** for tests: how long (ms) a frame stays when it follows the frame before */
    pace(frame, before) { return delayAfter(frame, before); },
    /** for tests: every motion lasts this many times longer */
    set motionScale(k) { FX.debugScale = Number(k) > 0 ? Number(k) : 1; },
  };

  init();
})();
