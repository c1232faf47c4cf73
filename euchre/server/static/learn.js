/* The "Learn to play" page: how to play and the rules of a game in plain words. Every word
   comes from the server (GET /api/rules, GET /api/tables/ID/rules); this page knows no rule. */
"use strict";

(function () {
  const E = Euchre;
  const el = E.el;
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const tableId = params.get("table");

  /** Sections ({title, paragraphs}) as h3 + p, into box. */
  function renderSections(box, sections, skipFirst) {
    E.clear(box);
    (sections || []).slice(skipFirst ? 1 : 0).forEach((s) => {
      const part = el("section", { class: "learn-part" }, el("h3", { text: String(s.title || "") }));
      (s.paragraphs || []).forEach((p) => part.append(el("p", { text: String(p) })));
      box.append(part);
    });
  }

  function showError(message) {
    $("error").textContent = message;
    $("error").classList.remove("hidden");
  }

  function showRules(data) {
    const words = data.words || [];
    // When the server knows the game, its first section names it: the heading says it instead.
    const hasIntro = !!data.preset && words.length > 0;
    const intro = hasIntro && words[0].paragraphs && words[0].paragraphs.length ? String(words[0].paragraphs[0]) : "";
    $("rules-title").textContent = tableId ? "The rules of this table" : String(data.heading || "The rules of a game");
    const note = $("table-note");
    note.textContent = tableId || data.changed ? (intro || "These rules were chosen for this table.") : "";
    note.classList.toggle("hidden", !note.textContent);
    renderSections($("rules-body"), words, hasIntro);
    renderSections($("how-body"), data.how_to_play);
  }

  /** A preset's rules; with the address's switches (?stick_the_dealer=yes) on the first load only. */
  async function loadPreset(name, switches) {
    const query = switches ? new URLSearchParams(params) : new URLSearchParams();
    query.delete("table");
    query.set("preset", name);
    try {
      const data = await E.fetchJSON("/api/rules?" + query.toString());
      $("error").classList.add("hidden");
      const select = $("learn-preset");
      if (data.preset && Array.from(select.options).some((o) => o.value === data.preset)) select.value = data.preset;
      showRules(data);
    } catch (e) {
      showError("Could not load the rules: " + (e.message || e));
    }
  }

  async function load() {
    if (tableId) {
      $("learn-choose").classList.add("hidden");
      // A table's rules come first: that is what its "Rules" link asks for.
      $("learn").insertBefore($("rules"), $("how-to-play"));
      try {
        showRules(await E.fetchJSON("/api/tables/" + encodeURIComponent(tableId) + "/rules"));
      } catch (e) {
        E.clear($("rules-body"));
        showError("Could not load the rules of this table: " + (e.message || e));
        loadHowToPlay();
      }
      return;
    }
    const select = $("learn-preset");
    let presets = [];
    try {
      presets = (await E.fetchJSON("/api/options")).presets || [];
    } catch (e) {
      showError("Could not load the games: " + (e.message || e));
    }
    presets.forEach((p) => select.append(el("option", { value: p.name, text: String(p.title || p.name) })));
    const asked = params.get("preset");
    if (asked) $("learn").insertBefore($("rules"), $("how-to-play"));
    // An alias (?preset=uk) is the server's business: it answers with the canonical name.
    await loadPreset(asked || select.value || "american", true);
    select.addEventListener("change", () => {
      history.replaceState(null, "", "/learn?preset=" + encodeURIComponent(select.value));
      loadPreset(select.value, false);
    });
  }

  async function loadHowToPlay() {
    try {
      renderSections($("how-body"), (await E.fetchJSON("/api/rules")).how_to_play);
    } catch (e) {
      E.clear($("how-body"));
    }
  }

  load();
})();
