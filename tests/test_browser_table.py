"""Browser tests of the table page's motion, sounds and settings, claim and undo, and the phone
layouts (the hint answers beside the hand, /stats): a real ``euchre serve`` and Chromium, as in
``test_browser.py``, whose fixtures and helpers these tests use (this module gets its own server).

Settings live in ``localStorage["euchre.settings"]`` (JSON). A test that only needs some settings
sets them before the page loads; the persistence test sets them through the panel, as a person does.
"""

# The fixtures imported from test_browser are parameters of the tests here: F811 is expected.
# ruff: noqa: F811
from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from test_browser import (  # noqa: F401  (browser, server, shots_dir are fixtures)
    IN_VIEW,
    PHONE,
    PHONE_KW,
    Pages,
    _turn_not_seen,
    act,
    assert_all_in_view,
    bots_table,
    browser,
    choose,
    my_play_turn,
    my_turn_in,
    pages,
    peek,
    play,
    server,
    shots_dir,
    wait_connected,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

SETTINGS_KEY = "euchre.settings"
DEFAULTS = {"speed": None, "sounds": False, "autoplay": False, "confirmAlone": False, "cardSize": "normal",
            "fourColor": False, "hints": True}

# Every frame the page sends (but pings), with the time it went, and the AudioContexts made.
SPY = """(() => {
  window.__sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { const m = JSON.parse(data); if (m.t !== "ping") window.__sent.push({at: performance.now(), m}); } catch (e) {}
    return send.call(this, data);
  };
  window.__audio = 0;
  const A = window.AudioContext;
  if (A) window.AudioContext = class extends A { constructor(...args) { super(...args); window.__audio += 1; } };
})();"""


def open_table(pages: Pages, name: str, *, settings: dict[str, Any] | None = None, rules: dict[str, Any] | None = None,
               seed: int | None = None, **kw: Any) -> Page:
    """A table against computer players (its deals fixed by ``seed``), its page opened with the
    spy and (before any script of the page runs) the given settings."""
    t = bots_table(pages.server, name, seed, **(rules or {}))
    page = pages.page(name=name, **kw)
    page.add_init_script(SPY)
    if settings is not None:
        value = json.dumps(json.dumps(settings))
        page.add_init_script(f"try {{ localStorage.setItem({SETTINGS_KEY!r}, {value}); }} catch (e) {{}}")
    page.goto(t["url"])
    wait_connected(page)
    return page


def sent(page: Page, kind: str | None = None) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = page.evaluate("() => window.__sent")
    return [f for f in frames if kind is None or f["m"]["t"] == kind]


def hook(page: Page, what: str) -> Any:
    return page.evaluate(f"() => window.euchreTable.{what}")


def live_shot(pages: Pages, page: Page, what: str) -> None:
    """A screenshot with the motion running (Pages.shot finishes every animation first)."""
    page.screenshot(path=str(pages.shots / f"{pages.test}-{what}.png"))


def open_settings(page: Page) -> None:
    page.click("#settings-button")
    page.wait_for_selector("#settings-panel:not(.hidden)")


# --- settings ----------------------------------------------------------------------------------------
def test_settings_persist_across_a_reload(pages: Pages) -> None:
    page = open_table(pages, "Sal")
    assert hook(page, "settings") == DEFAULTS
    # by keyboard: the button opens the panel and puts the focus in it, Escape closes it
    page.focus("#settings-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#settings-panel:not(.hidden)")
    assert page.evaluate("() => document.getElementById('settings-panel').contains(document.activeElement)")
    assert page.get_attribute("#settings-button", "aria-expanded") == "true"
    page.select_option("#set-speed", "fast")
    page.check("#set-four-color")
    page.select_option("#set-card-size", "large")
    pages.shot(page, "panel")
    page.keyboard.press("Escape")
    page.wait_for_selector("#settings-panel.hidden", state="attached")
    assert page.evaluate("() => document.activeElement.id") == "settings-button"
    want = dict(DEFAULTS, speed="fast", fourColor=True, cardSize="large")
    assert hook(page, "settings") == want
    assert json.loads(page.evaluate(f"() => localStorage.getItem({SETTINGS_KEY!r})")) == want

    page.reload()
    wait_connected(page)
    assert hook(page, "settings") == want and hook(page, "motion") == "fast"
    body = page.evaluate("() => [...document.body.classList]")
    assert "four-color" in body and "cards-large" in body, body
    open_settings(page)
    assert page.input_value("#set-speed") == "fast" and page.input_value("#set-card-size") == "large"
    assert page.is_checked("#set-four-color") and not page.is_checked("#set-sounds")
    # the four-colour deck: diamonds blue, clubs green (on the white of the cards)
    colours = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#hand .card')]
        .map((c) => [c.dataset.card[1], getComputedStyle(c).color]))""")
    expect = {"h": "rgb(200, 16, 46)", "d": "rgb(11, 87, 201)", "c": "rgb(18, 128, 58)", "s": "rgb(22, 24, 29)"}
    for suit, colour in colours.items():
        if suit in expect:
            assert colour == expect[suit], (suit, colour)
    pages.shot(page, "reloaded")

    # a value that is not JSON, or not a settings object, or holds values not among the choices:
    # the defaults (field by field)
    for raw, expected in (("{not json", DEFAULTS), ("[1, 2]", DEFAULTS), ('"fast"', DEFAULTS),
                          (json.dumps({"speed": "warp", "cardSize": 7, "fourColor": "yes", "hints": False}),
                           dict(DEFAULTS, hints=False))):
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [SETTINGS_KEY, raw])
        page.reload()
        wait_connected(page)
        assert hook(page, "settings") == expected, raw
        assert "four-color" not in page.evaluate("() => [...document.body.classList]")


def test_settings_panel_fits_a_phone(pages: Pages) -> None:
    page = open_table(pages, "Pia", **PHONE_KW)
    open_settings(page)
    box = page.locator("#settings-panel").bounding_box()
    assert box is not None and box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= PHONE["width"] and box["y"] + box["height"] <= PHONE["height"], box
    for sel in ("#set-speed", "#set-sounds", "#set-autoplay", "#set-confirm-alone", "#set-card-size",
                "#set-four-color", "#set-hints", "#settings-close"):
        assert page.locator(sel).is_visible(), sel
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    pages.shot(page, "panel")
    page.click("#settings-close")
    page.wait_for_selector("#settings-panel.hidden", state="attached")


# --- motion ----------------------------------------------------------------------------------------------
def test_reduced_motion_means_no_motion_unless_chosen(pages: Pages) -> None:
    page = open_table(pages, "Rex", reduced_motion="reduce")
    assert hook(page, "motion") == "off"
    assert "motion-off" in page.evaluate("() => [...document.body.classList]")
    first = peek(page)
    assert first is not None
    play(page, lambda s: s["hand_number"] != first["hand_number"] or (my_play_turn(s) and len(s["hand"]) <= 3),
         timeout=45)
    assert hook(page, "flights") == 0, "cards moved under prefers-reduced-motion"
    assert page.locator("#fx .card").count() == 0
    open_settings(page)
    assert page.input_value("#set-speed") == "off"
    # the player's own choice wins over the system's
    page.select_option("#set-speed", "normal")
    assert hook(page, "motion") == "normal"
    page.click("#settings-close")
    s = peek(page)
    assert s is not None
    play(page, lambda x: hook(page, "flights") > 0, timeout=30)


def test_no_motion_holds_up_a_click(pages: Pages) -> None:
    """Cards in flight (made ten times slower here) never stand in the way: a click on a card of
    the hand while cards fly sends its act frame at once, and the next frame ends the flights and
    shows the new state."""
    page = open_table(pages, "Max", settings={"speed": "normal"})
    page.evaluate("() => { window.euchreTable.motionScale = 10; }")
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "never the player's card to play while cards flew"
        s = peek(page)
        assert s is not None
        if my_play_turn(s) and hook(page, "animating") > 0:
            break
        if s["actions"] and not s["pending"] and s["status"] == "playing":
            page.locator(f'[data-action="{choose(s["actions"])}"]').click(force=True)
            page.wait_for_function("(v) => window.euchreTable.version > v && !window.euchreTable.pending", arg=s["v"])
        else:
            page.wait_for_timeout(20)
    live_shot(pages, page, "in-flight")
    card = next(a for a in s["actions"] if a.startswith("play "))
    box = page.locator(f'#hand .card[data-action="{card}"]').bounding_box()
    assert box is not None
    before = len(sent(page, "act"))
    flying = hook(page, "animating")
    t0 = page.evaluate("() => performance.now()")
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    acts = sent(page, "act")
    assert len(acts) == before + 1 and acts[-1]["m"]["action"] == card, acts[-1:]
    assert acts[-1]["at"] - t0 < 250, f"the act frame went {acts[-1]['at'] - t0:.0f} ms after the click"
    assert flying > 0
    page.wait_for_function("(v) => window.euchreTable.version > v && !window.euchreTable.pending", arg=s["v"])
    after = peek(page)
    assert after is not None and after["dom_hand"] == after["hand"], after
    # (the card was the hand's last, and the next hand dealt it again: it may be back in the hand)
    assert card[5:] not in after["dom_hand"] or after["hand_number"] != s["hand_number"], (card, after)
    # the state shown is the new one: the card is on the felt (or the trick it ended is)
    played = page.evaluate("""() => { const v = window.euchreTable.state.d.view;
        return v.trick.concat(...v.tricks.map((t) => t.plays)).map((p) => p.card); }""")
    assert card[5:] in played or after["hand_number"] != s["hand_number"], played
    # the felt shows the new state, not the old one
    # read at one moment: the next frames (the computer players' moves) may come at any time
    on_felt, slots = page.evaluate("""() => [
        [...document.querySelectorAll('#trick .slot .card')].map((c) => c.dataset.card),
        [...document.querySelectorAll('#trick .slot')].map((s) => s.dataset.card || '').filter((x) => x)]""")
    assert on_felt == slots, (on_felt, slots)
    pages.shot(page, "after-click")


def test_motion_shows_deal_play_and_sweep(pages: Pages) -> None:
    """At the normal speed cards fly: dealt to the hand at a new hand, from a seat to the middle,
    and a complete trick sweeps to its winner (the felt is then clear, the trick still listed)."""
    page = open_table(pages, "Noa", settings={"speed": "normal"})
    first = peek(page)
    assert first is not None
    seen = {"flying": False, "swept": False}
    deadline = time.monotonic() + 90
    while not (seen["swept"] and seen["flying"]):
        assert time.monotonic() < deadline, f"not seen in time: {seen}"
        s = peek(page)
        assert s is not None
        if not seen["flying"] and page.locator("#fx .card").count() >= 1:
            live_shot(pages, page, "cards-flying")
            seen["flying"] = True
        if my_play_turn(s) and s["trick_done"] and not seen["swept"]:
            # the player won the trick and leads: it sweeps to them while they think
            page.wait_for_selector("#trick.swept", state="attached", timeout=3000)
            assert page.locator("#hand-label").inner_text().startswith("Last trick, won by you")
            pages.shot(page, "swept")
            seen["swept"] = True
        if s["actions"] and not s["pending"] and s["status"] == "playing":
            act(page, choose(s["actions"]))
        else:
            page.wait_for_timeout(20)
    play(page, lambda x: x["hand_number"] != first["hand_number"], timeout=60)
    assert hook(page, "flights") > 5
    page.wait_for_function("() => window.euchreTable.animating === 0", timeout=5000)
    assert page.locator("#fx .card").count() == 0


# --- sounds --------------------------------------------------------------------------------------------------
def test_sounds_are_off_until_turned_on(pages: Pages) -> None:
    page = open_table(pages, "Sue")
    first = peek(page)
    assert first is not None
    play(page, lambda s: my_play_turn(s) and len(s["hand"]) <= 4, timeout=45)
    assert page.evaluate("() => window.__audio") == 0 and hook(page, "audioContexts") == 0
    open_settings(page)
    page.check("#set-sounds")
    page.wait_for_function("() => window.__audio === 1")
    assert hook(page, "audioContexts") == 1 and hook(page, "settings")["sounds"] is True
    page.click("#settings-close")
    s = peek(page)
    assert s is not None
    play(page, lambda x: x["v"] > s["v"] + 3, timeout=30)
    assert page.evaluate("() => window.__audio") == 1  # one context, made once
    page.reload()
    wait_connected(page)
    # on again after a reload, but no context before the first sound (nothing made at load)
    assert hook(page, "settings")["sounds"] is True


# --- auto-play, confirm alone, hints off ------------------------------------------------------------------------
def test_a_forced_card_is_played_for_you(pages: Pages) -> None:
    page = open_table(pages, "Ada", settings={"autoplay": True, "speed": "off"})
    deadline = time.monotonic() + 90  # the last card of a hand is forced, unless a claim ended it first
    while True:
        assert time.monotonic() < deadline, "no forced card came"
        s = peek(page)
        assert s is not None
        if my_play_turn(s) and len(s["legal"]) == 1:
            break
        if s["actions"] and not s["pending"] and s["status"] == "playing":
            act(page, choose(s["actions"]))
        else:
            page.wait_for_timeout(20)
    forced = s["legal"][0]
    assert page.locator("#hand .card[data-action]").count() == 1
    page.wait_for_function("(v) => window.euchreTable.version > v", arg=s["v"], timeout=5000)
    acts = [f["m"] for f in sent(page, "act")]
    last = acts[-1]
    assert last["action"] == forced and last["v"] == s["v"] and set(last) == {"t", "id", "action", "v"}, last
    # a turn with a choice is never played for you
    s = play(page, lambda x: my_play_turn(x) and len(x["legal"]) >= 2, timeout=45)
    n = len(sent(page, "act"))
    page.wait_for_timeout(1500)
    assert len(sent(page, "act")) == n and hook(page, "version") == s["v"]


def test_going_alone_asks_first(pages: Pages) -> None:
    page = open_table(pages, "Ole", settings={"confirmAlone": True})
    s = play(page, lambda x: any(a.endswith(" alone") for a in x["actions"]) and not x["pending"], timeout=60)
    alone = next(a for a in s["actions"] if a.endswith(" alone"))
    n = len(sent(page, "act"))
    page.click(f'[data-action="{alone}"]')
    page.wait_for_selector("#confirm-question")
    assert page.locator("#confirm-yes").is_visible() and page.locator("#confirm-no").is_visible()
    assert page.evaluate("() => document.activeElement.id") == "confirm-yes"
    assert len(sent(page, "act")) == n, "an alone was sent before it was confirmed"
    pages.shot(page, "asked")
    page.click("#confirm-no")
    page.wait_for_selector(f'[data-action="{alone}"]')
    page.wait_for_timeout(200)
    assert len(sent(page, "act")) == n and hook(page, "version") == s["v"]
    # asked again, and Escape says no as well
    page.click(f'[data-action="{alone}"]')
    page.wait_for_selector("#confirm-question")
    page.keyboard.press("Escape")
    page.wait_for_selector(f'[data-action="{alone}"]')
    page.click(f'[data-action="{alone}"]')
    page.click("#confirm-yes")
    page.wait_for_function("(v) => window.euchreTable.version > v && !window.euchreTable.pending", arg=s["v"])
    last = sent(page, "act")[-1]["m"]
    assert last["action"] == alone and len(sent(page, "act")) == n + 1, last


def test_hints_off_hides_the_hint_button(pages: Pages) -> None:
    for kw in ({}, PHONE_KW):
        page = open_table(pages, "Hu", settings={"hints": False}, **kw)
        play(page, lambda x: bool(x["actions"]) and not x["pending"], timeout=30)
        assert page.locator("#hint-button").is_hidden() and page.locator("#hints-box").is_hidden()
        assert page.locator("#hint-quick").is_hidden()
        open_settings(page)
        page.check("#set-hints")
        page.click("#settings-close")
        if kw:
            assert page.locator("#hint-quick").is_visible()
        else:
            assert page.locator("#hint-button").is_visible()


# --- everything fits, with the settings button and large cards --------------------------------------------------
@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_table_fits_with_settings_and_large_cards(pages: Pages, size: tuple[int, int]) -> None:
    w, h = size
    extra: dict[str, Any] = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2} if w < 500 else {}
    page = open_table(pages, "Ivy", settings={"cardSize": "large", "fourColor": True, "speed": "off"},
                      rules={"target": 100}, viewport={"width": w, "height": h}, **extra)
    seen: set[str] = set()
    while len(seen) < 3:
        s = _turn_not_seen(page, seen)
        phase = my_turn_in(s)
        assert phase is not None
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        r = page.evaluate(IN_VIEW, [["#settings-button", True]])
        assert not r["bad"], r
        assert_all_in_view(page, phase, f"{phase} at {w}x{h}, large cards")
        pages.shot(page, f"{phase}-{w}x{h}")
        seen.add(phase)
        if phase != "play":
            act(page, "pass")
    # the large cards are larger than the normal ones where there is room (the desktop)
    if w > 500:
        card = page.locator("#hand .card").first

        def width() -> Any:
            # (after the last pass the hand may be between deals, no card shown for a moment; a
            # card shown can also be redrawn between the wait and the measure: None then, again)
            deadline = time.monotonic() + 30
            while True:
                card.wait_for(state="visible", timeout=30_000)
                box = card.bounding_box()
                if box is not None or time.monotonic() > deadline:
                    return box
                page.wait_for_timeout(100)

        large = width()
        open_settings(page)
        page.select_option("#set-card-size", "normal")
        page.click("#settings-close")
        normal = width()
        assert large is not None and normal is not None and large["width"] > normal["width"] + 5, (large, normal)


# --- the phone: hint answers beside the hand; /stats -----------------------------------------------------------
def test_phone_hints_show_with_the_hand(pages: Pages) -> None:
    page = open_table(pages, "Kai", **PHONE_KW)
    play(page, lambda x: len(x["actions"]) >= 2 and not x["pending"], timeout=30)
    assert page.locator("#hint-quick").is_visible()
    page.click("#hint-quick")
    page.wait_for_selector("#hint-strip li .pts", timeout=60_000)  # a hint takes seconds; more under load
    page.wait_for_timeout(100)
    n = len(page.evaluate("() => window.euchreTable.state.d.view.legal"))
    assert page.locator("#hint-strip li").count() == n
    # the game's first hint says, under its answers, that hints make it a practice game
    assert page.locator("#hint-strip-practice").is_visible(), "no practice note under the first hint"
    assert page.inner_text("#hint-strip-practice") == PRACTICE_HINT
    for sel in ("#hint-strip", "#hand .card", "#score", "#status"):
        for i in range(page.locator(sel).count()):
            b = page.locator(sel).nth(i).bounding_box()
            assert b is not None and b["y"] >= 0 and b["y"] + b["height"] <= PHONE["height"] + 0.5, (sel, b)
            assert b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"] + 0.5, (sel, b)
    assert page.evaluate("() => document.querySelector('main').scrollTop") == 0
    pages.shot(page, "hints")
    # the best answer is one of the choices offered, and it can be played from there
    best = page.get_attribute("#hint-strip li.best", "data-hint-action")
    assert best in page.eval_on_selector_all("[data-action]", "els => els.map((e) => e.dataset.action)")
    page.click("#hint-strip-close")
    assert page.locator("#hint-strip").is_hidden()


@pytest.mark.parametrize("width", [390, 360])
def test_stats_page_fits_a_phone(pages: Pages, width: int) -> None:
    if "Stu Featherstonehaugh" not in httpx.get(pages.server.base + "/api/stats", timeout=10).text:
        # a finished game, so the table has rows (one with a long name)
        game = open_table(pages, "Stu Featherstonehaugh", settings={"speed": "off"}, rules={"target": 1})
        play(game, lambda s: s["status"] == "over", timeout=60)
    page = pages.page(viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.goto("/stats")
    page.wait_for_function("() => !document.getElementById('stats-body').textContent.includes('Loading')")
    scroll = page.evaluate("() => ({doc: document.documentElement.scrollWidth, body: document.body.scrollWidth})")
    assert scroll["doc"] <= width and scroll["body"] <= width, scroll
    # the table itself scrolls sideways in its box (or fits)
    wrap = page.locator(".table-wrap").bounding_box()
    assert wrap is not None and wrap["x"] >= 0 and wrap["x"] + wrap["width"] <= width, wrap
    pages.shot(page, f"stats-{width}")


# /api/stats rows with long names (the 24 characters a name may have) and large numbers: what a
# server that has run for years shows, served to the page in place of the real answer.
BIG_STATS = [
    {"name": "Bartholomew Featherstone", "key": "k1", "kind": "human", "games": 12345, "wins": 6789,
     "matches": 1234, "match_wins": 987, "hands": 123456, "points_per_hand": -0.1234, "calls": 45678,
     "make_rate": 0.8123, "defended": 45678, "euchre_rate": 0.2345, "loners": 12345, "loner_marches": 4567,
     "practice_games": 23456},
    {"name": "Maximiliane Oberholzer", "key": None, "kind": "bot", "games": 99999, "wins": 54321,
     "matches": 8888, "match_wins": 4444, "hands": 999999, "points_per_hand": 0.4567, "calls": 1,
     "make_rate": 1.0, "defended": 3, "euchre_rate": 1 / 3, "loners": 99999, "loner_marches": 1,
     "practice_games": 0},
    {"name": "Wilhelmina Ashworth-Hale", "key": "k3", "kind": "human", "games": 1, "wins": 0, "matches": 0,
     "match_wins": 0, "hands": 7, "points_per_hand": None, "calls": 0, "make_rate": None, "defended": 0,
     "euchre_rate": None, "loners": 0, "loner_marches": 0, "practice_games": 99999},
]

# The boxes of the statistics table (every column name and cell) that end past the panel's inner
# right edge, and how far the document and the table's box scroll sideways.
STATS_FIT = """() => {
  const panel = document.querySelector("#stats").closest(".panel");
  const p = panel.getBoundingClientRect();
  const right = p.right - parseFloat(getComputedStyle(panel).paddingRight) + 0.5;
  const wrap = document.querySelector(".table-wrap");
  const out = [...document.querySelectorAll("#stats th, #stats td")]
    .map((c) => [c.textContent.trim(), c.getBoundingClientRect().right])
    .filter(([, r]) => r > right);
  return {out, right, doc: document.documentElement.scrollWidth, body: document.body.scrollWidth,
          wrap: wrap.scrollWidth - wrap.clientWidth};
}"""


def test_stats_page_fits_a_laptop(pages: Pages) -> None:
    """At 1280x800 every column of /stats fits in its panel, long names and large numbers too:
    nothing is cut off and nothing scrolls sideways. In a narrower window the table scrolls in its
    own box, the players' names staying at its left."""
    page = pages.page(viewport={"width": 1280, "height": 800})
    page.route("**/api/stats", lambda route: route.fulfill(json=BIG_STATS))
    page.goto("/stats")
    page.wait_for_function("() => document.getElementById('stats-body').textContent.includes('Wilhelmina')")
    assert page.locator("#stats-body tr").count() == len(BIG_STATS)
    assert page.locator("#stats th").count() == 11
    fit = page.evaluate(STATS_FIT)
    pages.shot(page, "laptop")
    assert not fit["out"], fit
    assert fit["doc"] <= 1280 and fit["body"] <= 1280 and fit["wrap"] <= 0, fit
    # every column name says what it counts when pointed at
    titles = page.eval_on_selector_all("#stats th.num", "els => els.map((e) => e.title)")
    assert all(titles), titles

    # a window too narrow for the table: it scrolls in its box, the names stay in view
    page.set_viewport_size({"width": 700, "height": 800})
    fit = page.evaluate(STATS_FIT)
    assert fit["doc"] <= 700 and fit["wrap"] > 0, fit
    wrap = page.locator(".table-wrap")
    left = wrap.bounding_box()
    page.evaluate("() => { document.querySelector('.table-wrap').scrollLeft = 10000; }")
    name = page.locator("#stats-body td.player").first.bounding_box()
    assert left is not None and name is not None and abs(name["x"] - left["x"]) < 1, (left, name)
    pages.shot(page, "narrow")


def test_stats_page_counts_practice_games_apart(pages: Pages) -> None:
    """A game whose deals come from a chosen seed is a practice game: /stats shows it under
    Practice and leaves it out of the player's games (docs/server.md, "Practice games")."""
    game = open_table(pages, "Pia Practice", settings={"speed": "off"}, rules={"target": 1}, seed=8)
    play(game, lambda s: s["status"] == "over", timeout=60)
    page = pages.page()
    page.goto("/stats")
    row = page.locator("#stats-body tr", has_text="Pia Practice")
    row.wait_for()
    assert page.locator("#stats th[data-sort='practice_games']").inner_text().startswith("Practice")
    assert row.locator("td[data-label='Practice']").inner_text() == "1"
    assert row.locator("td[data-label='Games']").inner_text() == "0"
    assert row.locator("td[data-label='Win %']").inner_text() == "–"

    # /games tags the game (a chosen deal: every seat's), on a phone too, and still fits it
    table_id = hook(game, "state")["d"]["table"]
    phone = pages.page(**PHONE_KW)
    phone.goto("/games")
    listed = phone.locator(f'#games-body tr[data-id="{table_id}"]')
    listed.wait_for()
    tags = listed.locator(".practice-tag")
    assert tags.count() == 1 and tags.inner_text() == "practice"
    assert "chosen deal" in (tags.get_attribute("title") or "")
    # under the game's date (one tag for every seat), in view without scrolling the table sideways
    assert listed.locator("td").nth(0).locator(".practice-tag").count() == 1
    box = tags.bounding_box()
    # (the list holds the other finished games of this worker's server too, whose names widen the
    # table: after the players the tag once ended 3.5 px past the phone's edge in CI; under the
    # date, in the first column, it cannot)
    assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"] / 2, box
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    pages.shot(phone, "games-phone")


# /api/games rows as a server might list them: long names, a seat helped by a hint, one by a
# take-back, one by both, seats a computer player stood in for (one also hinted), a chosen deal, a
# fair game and one listed before results were kept.
BIG_GAMES = [
    {"id": "g-helped", "preset": "american", "players": ["Bartholomew Featherstone", "Maximiliane Oberholzer",
                                                         "Wilhelmina Ashworth-Hale", "Cornelius Vanderbilt"],
     "scores": [10, 8], "winners": [0], "created_at": "2026-12-08T10:00:00+00:00",
     "finished_at": "2026-12-08T10:30:00+00:00", "egn": True, "seeded": False,
     "practice": [True, False, True, True],
     "practice_reasons": [["hinted"], [], ["took_back"], ["took_back", "hinted"]]},
    {"id": "g-stood", "preset": "american", "players": ["Stan", "Hope", "Otto", "Ines"], "scores": [10, 7],
     "winners": [1], "created_at": "2026-12-08T09:40:00+00:00", "finished_at": "2026-12-08T10:00:00+00:00",
     "egn": True, "seeded": False, "practice": [True, True, False, False],
     "practice_reasons": [["stood_in"], ["hinted", "stood_in"], [], []]},
    {"id": "g-seeded", "preset": "british", "players": ["Sly", "Hana", "Otto", "Ines"], "scores": [11, 4],
     "winners": [1], "created_at": "2026-12-08T09:00:00+00:00", "finished_at": "2026-12-08T09:20:00+00:00",
     "egn": True, "seeded": True, "practice": [True] * 4, "practice_reasons": [["seeded"]] * 4},
    {"id": "g-fair", "preset": "american", "players": ["Fay", "Hana", "Otto", "Ines"], "scores": [10, 2],
     "winners": [0], "created_at": "2026-12-08T08:00:00+00:00", "finished_at": "2026-12-08T08:20:00+00:00",
     "egn": True, "seeded": False, "practice": [False] * 4, "practice_reasons": [[]] * 4},
    {"id": "g-old", "preset": "american", "players": ["Old", "Hana", "Otto", "Ines"], "scores": [10, 9],
     "winners": [0], "created_at": "2026-11-08T08:00:00+00:00", "finished_at": "2026-11-08T08:20:00+00:00",
     "egn": True, "seeded": False, "practice": [None] * 4, "practice_reasons": [[]] * 4},
]


@pytest.mark.parametrize("width", [390, 360])
def test_games_page_tags_practice_games_and_fits_a_phone(pages: Pages, width: int) -> None:
    """/games puts a small "practice" tag after each player whose game was a practice game (a
    take-back, a hint or a stand-in: that seat's only), or one under the game's date for a chosen
    deal, each with a title that says why; a fair game has none, nor a game without marks. The page still
    fits a phone: nothing scrolls sideways but the table in its box, and a tag stays on one line."""
    page = pages.page(viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.route("**/api/games*", lambda route: route.fulfill(json={"games": BIG_GAMES}))
    page.goto("/games")
    page.wait_for_function("() => document.getElementById('games-body').textContent.includes('Bartholomew')")
    rows = {g["id"]: page.locator(f'#games-body tr[data-id="{g["id"]}"]') for g in BIG_GAMES}
    titles = rows["g-helped"].locator(".practice-tag").evaluate_all("(els) => els.map((e) => e.title)")
    assert titles == [
        "Bartholomew Featherstone was given a hint: a practice game for them, counted apart in the statistics.",
        "Wilhelmina Ashworth-Hale took back a card: a practice game for them, counted apart in the statistics.",
        "Cornelius Vanderbilt took back a card and was given a hint: a practice game for them, counted apart in "
        "the statistics."], titles
    # each tag right after its player's name, in the players' cell
    assert rows["g-helped"].locator("td").nth(1).locator(".practice-tag").count() == 3
    # a computer player standing in is said as what befell the player, beside what they did
    titles = rows["g-stood"].locator(".practice-tag").evaluate_all("(els) => els.map((e) => e.title)")
    assert titles == [
        "A computer player stood in for Stan while they were away: a practice game for them, counted apart in "
        "the statistics.",
        "Hope was given a hint, and a computer player stood in for them while they were away: a practice game for "
        "them, counted apart in the statistics."], titles
    seeded = rows["g-seeded"].locator(".practice-tag")
    assert seeded.count() == 1 and "chosen deal" in (seeded.get_attribute("title") or "")
    assert rows["g-seeded"].locator("td").nth(0).locator(".practice-tag").count() == 1
    box = seeded.bounding_box()  # (in the first column: in view however wide the names make the table)
    assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= width, box
    assert rows["g-fair"].locator(".practice-tag").count() == 0 and rows["g-old"].locator(".practice-tag").count() == 0
    # the winner's mark still shows the side's names (the tags are inside it, not in its place)
    assert "Bartholomew Featherstone" in rows["g-helped"].locator("td").nth(4).inner_text()
    fit = page.evaluate("""() => ({doc: document.documentElement.scrollWidth, body: document.body.scrollWidth,
        tags: [...document.querySelectorAll('.practice-tag')].map((t) => t.getClientRects().length)})""")
    assert fit["doc"] <= width and fit["body"] <= width, fit
    assert fit["tags"] and all(n == 1 for n in fit["tags"]), fit  # (a tag never breaks over two lines)
    wrap = page.locator(".table-wrap").bounding_box()
    assert wrap is not None and wrap["x"] >= 0 and wrap["x"] + wrap["width"] <= width, wrap
    pages.shot(page, f"games-{width}")


# --- claim and undo -----------------------------------------------------------------------------------------------
def test_undo_puts_the_card_back(pages: Pages) -> None:
    page = open_table(pages, "Uma", settings={"speed": "normal"})
    s = play(page, lambda x: my_play_turn(x) and len(x["hand"]) >= 3, timeout=45)
    assert page.locator("#undo-button").is_hidden() or hook(page, "state")["d"]["undo"]
    card = next(a for a in s["actions"] if a.startswith("play "))
    after = act(page, card)
    # (5 s alone; over 15 s once, on two cores shared with other test runs and a browser review)
    page.wait_for_function("() => window.euchreTable.state.d.undo === true", timeout=60_000)
    page.wait_for_selector("#undo-button:not(.hidden)", timeout=60_000)
    pages.shot(page, "offered")
    v = hook(page, "version")
    page.click("#undo-button")
    undos = sent(page, "undo")
    assert undos and set(undos[-1]["m"]) == {"t", "id", "v"} and undos[-1]["m"]["v"] == v, undos
    page.wait_for_function("(v) => window.euchreTable.version > v && !window.euchreTable.pending", arg=v)
    back = peek(page)
    assert back is not None and card[5:] in back["hand"] and back["dom_hand"] == back["hand"], (card, back)
    assert f"{card}" in back["actions"] or back["phase"] != "play" or back["actions"] == [], back
    page.wait_for_function("() => window.euchreTable.animating === 0", timeout=5000)
    assert page.locator(f'#hand .card[data-card="{card[5:]}"]').evaluate(
        "(c) => getComputedStyle(c).opacity") == "1"
    pages.shot(page, "undone")
    assert after["v"] > s["v"]


PRACTICE_HINT = "Hints make this a practice game: it is counted apart in the statistics."
PRACTICE_SEEDED = "A chosen deal: this is a practice game, counted apart in the statistics."


# Click Undo if the state shown offers it (d.undo), in one step of the page, so that a frame cannot
# come between the look and the click: -1 when not offered.
CLICK_UNDO = """() => { const t = window.euchreTable;
  if (!t.state.d.undo || t.pending) return -1;
  document.getElementById('undo-button').click();
  return t.version; }"""


def take_back_a_card(page: Page, s: dict[str, Any]) -> None:
    """Play a card of ``s`` (the seat's turn to play) and take it back with Undo.

    A computer player may claim the rest of the tricks right after the card (about one deal in a
    hundred), and a claim is never taken back: Undo is then no longer offered, or the server
    refuses it (the claim came first). The seat's next turn to play with three cards or more is
    then tried instead."""
    for _ in range(6):
        card = next(a for a in s["actions"] if a.startswith("play "))
        act(page, card)
        if page.evaluate(CLICK_UNDO) >= 0:
            page.wait_for_function("() => !window.euchreTable.pending")
            if card.removeprefix("play ") in hook(page, "state")["d"]["view"]["hand"]:
                return
        s = play(page, lambda x: my_play_turn(x) and len(x["hand"]) >= 3, timeout=45)
    raise AssertionError("no card could be taken back in six tries")


def practice_toast(page: Page) -> bool:
    """Whether the toast shown (if any) speaks of a practice game."""
    toast = page.locator("#toast")
    return toast.is_visible() and "practice game" in toast.inner_text()


def test_undo_and_hints_say_they_make_a_practice_game(pages: Pages) -> None:
    """Hint and Undo say, before they are used (their titles), that they make the game a practice
    game, counted apart in the statistics; the game's first hint says it under its answers and the
    first take-back in a toast, once each, and only while the game is not one already: after
    either, the felt's quiet practice tag says it, and the other says nothing more
    (docs/server.md, "Practice games")."""
    page = open_table(pages, "Pru", settings={"speed": "off"})
    for sel in ("#hint-button", "#hint-quick", "#undo-button"):
        title = page.get_attribute(sel, "title") or ""
        assert "practice game" in title and "statistics" in title, (sel, title)
    s = play(page, lambda x: my_play_turn(x) and len(x["hand"]) >= 3, timeout=45)
    assert page.locator("#hint-practice").is_hidden() and page.locator("#practice-tag").count() == 0
    assert hook(page, "state")["d"]["practice"] is False
    page.click("#hint-button")
    page.wait_for_selector("#hints li .pts", timeout=120_000)
    note = page.locator("#hint-practice")
    assert note.is_visible() and note.inner_text() == PRACTICE_HINT
    pages.shot(page, "first-hint")

    # the hint made a practice game: the next frames say so, and the felt's tag with them; a
    # take-back then says nothing more
    take_back_a_card(page, s)
    assert page.locator("#hint-practice").is_hidden()  # (the hint went with its position)
    assert hook(page, "state")["d"]["practice"] is True
    tag = page.locator("#hand-no #practice-tag")
    # (its title says why, from the frame's practice_reasons, in the order the games list names them:
    # the hint's alone on the frames between the card and its take-back)
    helped = "You took back a card and you were given a hint: this is a practice game, counted apart in the statistics."
    page.wait_for_function("(t) => document.querySelector('#hand-no #practice-tag')?.title === t", arg=helped,
                           timeout=10_000)
    assert tag.is_visible()
    assert not practice_toast(page)
    pages.shot(page, "undo-after-a-hint")

    # another game: its first take-back says it in a toast, and a hint after it has no note
    page = open_table(pages, "Pat", settings={"speed": "off"})
    s = play(page, lambda x: my_play_turn(x) and len(x["hand"]) >= 3, timeout=45)
    take_back_a_card(page, s)
    assert practice_toast(page), page.locator("#toast").inner_text()
    pages.shot(page, "first-undo")
    page.locator("#hand-no #practice-tag").wait_for()
    page.wait_for_selector("#hint-button:not(.hidden)")
    page.click("#hint-button")
    page.wait_for_selector("#hints li .pts", timeout=120_000)
    assert page.locator("#hint-practice").is_hidden()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_chosen_deal_is_a_practice_game_from_the_start(pages: Pages, phone: bool) -> None:
    """A table dealt from a chosen seed is a practice game for its player from the first frame
    (``practice`` and ``seeded``): a quiet tag under the hand's number says so once, its title
    (a tap, on a phone) saying why, and neither the first hint (no note under its answers) nor
    the first take-back (no toast) says it again. On a phone the tag covers nothing on the felt."""
    page = open_table(pages, "Sly", settings={"speed": "off"}, seed=8, **(PHONE_KW if phone else {}))
    d = hook(page, "state")["d"]
    assert d["practice"] is True and d["seeded"] is True, d
    tag = page.locator("#hand-no #practice-tag")
    tag.wait_for()
    assert tag.inner_text() == "practice" and tag.get_attribute("title") == PRACTICE_SEEDED
    assert page.locator(".practice-tag").count() == 1
    s = play(page, lambda x: my_play_turn(x) and len(x["hand"]) >= 3, timeout=45)
    r = page.evaluate(IN_VIEW, [["#practice-tag", True], [".seat", True], ["#hand .card", True], ["#score", True]])
    assert not r["bad"] and r["docWidth"] <= (PHONE["width"] if phone else 1280), r
    pages.shot(page, "tag")

    # the first hint: its answers, without the note
    page.click("#hint-quick" if phone else "#hint-button")
    page.wait_for_selector("#hint-strip li .pts" if phone else "#hints li .pts", timeout=120_000)
    assert page.locator("#hint-strip-practice").is_hidden() and page.locator("#hint-practice").is_hidden()
    pages.shot(page, "hint")
    # the first take-back: no toast
    if phone:
        page.click("#hint-strip-close")
    take_back_a_card(page, s)
    assert not practice_toast(page)
    assert tag.is_visible() and page.locator(".practice-tag").count() == 1
    # the tag says why when tapped (a phone has no titles)
    tag.click()
    toast = page.locator("#toast")
    assert toast.is_visible() and toast.inner_text() == PRACTICE_SEEDED


def test_claim_the_rest(pages: Pages) -> None:
    """Play on (taking back nothing) until the server offers a claim; Claim the rest plays the
    hand out at once and the table shows the next hand (or the end) cleanly.

    A claim needs cards that win every trick left wherever the unseen cards are, which few hands
    get: with seed 8 the simple player below (``choose`` over the engine's order of the legal
    actions) holds one at the fourth trick of the first hand (found by replaying seeds with the
    engine and the same computer players)."""
    page = open_table(pages, "Cleo", settings={"speed": "normal"}, rules={"target": 100}, seed=8)
    deadline = time.monotonic() + 150
    while True:
        assert time.monotonic() < deadline, "no claim was offered in the time given"
        s = peek(page)
        assert s is not None
        d = hook(page, "state")["d"]
        if my_play_turn(s) and d.get("claim"):
            break
        if s["actions"] and not s["pending"] and s["status"] == "playing":
            act(page, choose(s["legal"]))
        else:
            page.wait_for_timeout(20)
    page.wait_for_selector("#claim-button:not(.hidden)")
    pages.shot(page, "offered")
    hand = s["hand_number"]
    page.click("#claim-button")
    claims = sent(page, "claim")
    assert claims and set(claims[-1]["m"]) == {"t", "id", "v"} and claims[-1]["m"]["v"] == s["v"], claims
    page.wait_for_function("(v) => window.euchreTable.version > v && !window.euchreTable.pending", arg=s["v"])
    after = peek(page)
    assert after is not None and (after["hand_number"] != hand or after["status"] == "over"), after
    assert after["dom_hand"] == after["hand"]
    page.wait_for_function("() => window.euchreTable.animating === 0", timeout=5000)
    assert page.locator("#claim-button").is_hidden()
    d = hook(page, "state")["d"]
    assert d["claimed"] == {"hand": hand, "seat": 0}, d["claimed"]
    if after["status"] == "playing":
        assert "claimed the rest" in page.inner_text("#hand-summary") + page.inner_text("#hand-summary-line") \
            or not after["banner"]
    pages.shot(page, "claimed")
