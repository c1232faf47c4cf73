/* Shared helpers of the Euchre pages. Plain browser JavaScript, no dependencies.
   Untrusted text (names, chat, anything from the server) is only ever set with textContent. */
"use strict";

const Euchre = (function () {
  const SUIT_SYM = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660", n: "NT", low: "Low" };
  const SUIT_NAME = { c: "clubs", d: "diamonds", h: "hearts", s: "spades", n: "no trump", low: "low" };
  /** The trumps of a hand without a trump suit (house rules no_trump, low_no_trump): "call n", "trump": "low". */
  function isNoTrump(t) { return t === "n" || t === "low"; }
  const RANK_TEXT = { "7": "7", "8": "8", "9": "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };
  const RANK_NAME = { "7": "seven", "8": "eight", "9": "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
  const NAME_KEY = "euchre.name";
  const PLAYER_KEY = "euchre.player";
  const PLAYER_RE = /^[A-Za-z0-9_-]{8,64}$/;

  function isRed(suit) { return suit === "h" || suit === "d"; }

  /** Build an element: el("div", {class: "x", text: "..."}, child, ...). Text goes via textContent. */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === null || v === undefined || v === false) continue;
        if (k === "text") e.textContent = String(v);
        else if (k === "class") e.className = v;
        else if (k === "dataset") Object.assign(e.dataset, v);
        // Through the CSSOM, not a style attribute: the server's Content-Security-Policy
        // (style-src 'self') blocks inline style attributes, not script-set properties.
        else if (k === "style") e.style.cssText = String(v);
        else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
        else if (v === true) e.setAttribute(k, "");
        else e.setAttribute(k, String(v));
      }
    }
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  function parseCard(text) {
    if (!text || typeof text !== "string") return null;
    if (text === "Jk") return { joker: true, rank: "Jk", suit: null, text };
    return { joker: false, rank: text[0], suit: text[1], text };
  }

  function cardWords(text) {
    const c = parseCard(text);
    if (!c) return String(text);
    if (c.joker) return "the Joker";
    return `${RANK_NAME[c.rank] || c.rank} of ${SUIT_NAME[c.suit] || c.suit}`;
  }

  /** A card drawn with HTML elements. tag: "div" or "button". */
  function cardEl(text, opts) {
    opts = opts || {};
    const c = parseCard(text);
    const tag = opts.tag || "div";
    const e = document.createElement(tag);
    if (tag === "button") e.type = "button";
    e.className = "card" + (opts.size ? " " + opts.size : "");
    e.dataset.card = text;
    if (!c) { e.classList.add("back"); e.setAttribute("aria-label", "a card face down"); return e; }
    e.setAttribute("aria-label", cardWords(text));
    e.title = cardWords(text);
    if (c.joker) {
      e.classList.add("joker");
      e.append(el("span", { class: "corner", "aria-hidden": "true" }, el("span", { text: "Jk" }), el("span", { class: "s", text: "\u2605" })));
      e.append(el("span", { class: "pip", "aria-hidden": "true", text: "\u2605" }));
      e.append(el("span", { class: "corner br", "aria-hidden": "true" }, el("span", { text: "Jk" }), el("span", { class: "s", text: "\u2605" })));
      return e;
    }
    if (isRed(c.suit)) e.classList.add("red");
    e.classList.add("suit-" + c.suit);   // the four-colour deck colours each suit its own way
    const rank = RANK_TEXT[c.rank] || c.rank;
    const sym = SUIT_SYM[c.suit] || c.suit;
    e.append(el("span", { class: "corner", "aria-hidden": "true" }, el("span", { class: "r", text: rank }), el("span", { class: "s", text: sym })));
    e.append(el("span", { class: "pip", "aria-hidden": "true", text: sym }));
    e.append(el("span", { class: "corner br", "aria-hidden": "true" }, el("span", { class: "r", text: rank }), el("span", { class: "s", text: sym })));
    return e;
  }

  function backEl(size) { return cardEl(null, { size }); }

  /** Short inline card text, e.g. "A♥" (red or black span). */
  function cardText(text) {
    const c = parseCard(text);
    if (!c) return el("span", { class: "ctext", text: "?" });
    if (c.joker) return el("span", { class: "ctext joker", text: "Joker" });
    return el("span", { class: "ctext " + (isRed(c.suit) ? "red" : "black") + " suit-" + c.suit, title: cardWords(text),
                        text: (RANK_TEXT[c.rank] || c.rank) + (SUIT_SYM[c.suit] || c.suit) });
  }

  function suitSpan(suit, withName) {
    if (isNoTrump(suit)) return el("span", { class: "no-trump", text: withName ? SUIT_NAME[suit] : SUIT_SYM[suit] });
    const sym = SUIT_SYM[suit] || suit;
    return el("span", { class: (isRed(suit) ? "suit-red" : "suit-black") + " suit-" + suit, text: withName ? `${sym} ${SUIT_NAME[suit] || suit}` : sym });
  }

  async function fetchJSON(url, opts) {
    let resp;
    try {
      resp = await fetch(url, Object.assign({ headers: { Accept: "application/json" } }, opts || {}));
    } catch (e) {
      throw new Error("The server cannot be reached (" + (e && e.message ? e.message : "network error") + ").");
    }
    let body = null;
    const text = await resp.text();
    if (text) { try { body = JSON.parse(text); } catch (e) { body = null; } }
    if (!resp.ok) {
      const msg = body && (body.message || body.error || body.detail) ? (body.message || body.error || (typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail))) : `HTTP ${resp.status}`;
      const err = new Error(msg);
      err.status = resp.status;
      err.body = body;
      throw err;
    }
    return body;
  }

  function getName() { try { return localStorage.getItem(NAME_KEY) || ""; } catch (e) { return ""; } }
  function setName(name) { try { if (name) localStorage.setItem(NAME_KEY, name); else localStorage.removeItem(NAME_KEY); } catch (e) { /* private mode */ } }

  /** This browser's player id: random, made on first use and kept in localStorage, so the
      statistics group this person's games whatever name they use. Sent only when creating a table
      and in a seat's hello; never shown. null when localStorage (or a random source) is missing. */
  function getPlayer() {
    try {
      const kept = localStorage.getItem(PLAYER_KEY);
      if (kept && PLAYER_RE.test(kept)) return kept;
      const bytes = new Uint8Array(16);
      crypto.getRandomValues(bytes);
      const id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      localStorage.setItem(PLAYER_KEY, id);
      return localStorage.getItem(PLAYER_KEY) === id ? id : null;
    } catch (e) { return null; }
  }

  function formatDate(value) {
    if (value === null || value === undefined || value === "") return "";
    let d;
    if (typeof value === "number") d = new Date(value > 1e12 ? value : value * 1000);
    else d = new Date(value);
    if (isNaN(d.getTime())) return String(value);
    return d.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  }

  function pct(x) {
    if (x === null || x === undefined || x === "" || isNaN(Number(x))) return "–";
    const n = Number(x);
    return (n <= 1 ? n * 100 : n).toFixed(0) + "%";
  }

  function num(x, digits) {
    if (x === null || x === undefined || x === "" || isNaN(Number(x))) return "–";
    const n = Number(x);
    return digits === undefined ? String(n) : n.toFixed(digits);
  }

  async function copyText(text, input) {
    try {
      if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); return true; }
    } catch (e) { /* fall back */ }
    try {
      const t = input || el("textarea", { style: "position:fixed;top:-100px;opacity:0" });
      if (!input) { t.value = text; document.body.append(t); }
      t.focus(); t.select();
      const ok = document.execCommand("copy");
      if (!input) t.remove();
      return ok;
    } catch (e) { return false; }
  }

  return { SUIT_SYM, SUIT_NAME, RANK_TEXT, isRed, isNoTrump, el, clear, parseCard, cardWords, cardEl, backEl, cardText,
           suitSpan, fetchJSON, getName, setName, getPlayer, formatDate, pct, num, copyText };
})();
