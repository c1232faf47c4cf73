"""Browser tests of the web client (``docs/server.md``): a real ``euchre serve`` subprocess and
Chromium driven by Playwright's sync API, clicking what a person clicks.

Without Playwright or a Chromium (``/usr/bin/chromium`` or ``chromium`` on the PATH) the tests
are skipped, unless ``EUCHRE_REQUIRE_BROWSER`` is set (CI sets it), in which case they fail: CI
must never pass by skipping them. Screenshots go to ``$EUCHRE_ARTIFACTS`` when set, else to
``screenshots`` in pytest's temporary directory.

One server (``--bot-delay 0``, medium computer players) and one browser serve every test of a
worker; each test opens its own browser contexts, so no test sees another's name or table. A test
marked ``xfail(strict=True)`` shows a bug of the pages; its reason says which.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from server_support import Server, fresh_database

from euchre import notation

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
NO_SCORE = "0 \u2013 0"
LEVEL = "medium"  # the heuristic player: instant, so the bots never hold a test up
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
NAME_KEY = "euchre.name"

# What the page shows, read in one go: the table's hook (window.euchreTable) and the DOM.
PEEK = """() => {
  const t = window.euchreTable;
  if (!t || !t.state) return null;
  const d = t.state.d;
  const v = d.view;
  const cards = (sel) => Array.from(document.querySelectorAll(sel)).map((c) => c.dataset.card);
  return {
    v: t.version, pending: !!t.pending, connected: t.connected, status: d.status, seat: d.seat,
    phase: v ? v.phase : null, hand_number: v ? v.hand_number : null,
    legal: v && Array.isArray(v.legal) ? v.legal : [], hand: v && Array.isArray(v.hand) ? v.hand : [],
    actions: Array.from(document.querySelectorAll("[data-action]")).filter((b) => !b.disabled)
                  .map((b) => b.dataset.action),
    dom_hand: cards("#hand .card"),
    trick: cards("#trick:not(.done) .slot .card"),
    slots: Object.fromEntries(Array.from(document.querySelectorAll("#trick .slot"))
                                   .map((s) => [s.dataset.pos, s.dataset.card || ""])),
    trick_done: !!document.querySelector("#trick.done"),
    score: document.getElementById("score").textContent,
    banner: !document.getElementById("hand-summary").classList.contains("hidden"),
    connection: document.getElementById("connection").textContent,
  };
}"""


# --- browser and server -----------------------------------------------------------------------------
def _chromium() -> str:
    """Chromium's path, after checking that Playwright imports; skip (or fail under CI) otherwise."""
    def missing(why: str) -> None:
        if os.environ.get("EUCHRE_REQUIRE_BROWSER"):
            pytest.fail(f"EUCHRE_REQUIRE_BROWSER is set but {why}")
        pytest.skip(why)

    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing("playwright cannot be imported (pip install -e '.[test]')")
    path = "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else shutil.which("chromium")
    if not path:
        missing("no Chromium (/usr/bin/chromium or chromium on the PATH)")
    assert path is not None
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    executable = _chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def server(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    home = tmp_path_factory.mktemp("browser-server")
    s = Server(fresh_database("sqlite", home), home, "--bot-delay", "0").start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def shots_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    env = os.environ.get("EUCHRE_ARTIFACTS")
    d = Path(env) if env else tmp_path_factory.getbasetemp() / "screenshots"
    d.mkdir(parents=True, exist_ok=True)
    return d


class Pages:
    """The contexts and pages a test opens; every uncaught page error fails the test."""

    def __init__(self, browser: Browser, server: Server, shots: Path, test: str) -> None:
        self.browser = browser
        self.server = server
        self.shots = shots
        self.test = test
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def page(self, *, viewport: dict[str, int] = DESKTOP, name: str | None = None, **kw: Any) -> Page:
        ctx = self.browser.new_context(base_url=self.server.base, viewport=viewport, accept_downloads=True, **kw)
        ctx.set_default_timeout(15_000)
        if name is not None:
            ctx.add_init_script(f"try {{ localStorage.setItem({NAME_KEY!r}, {name!r}); }} catch (e) {{}}")
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        # Anything the server's Content-Security-Policy blocks is a bug of the pages.
        page.on("console", lambda m: self.errors.append(f"{page.url}: {m.text}")
                if m.type == "error" and "Content Security Policy" in m.text else None)
        return page

    def shot(self, page: Page, what: str, *, full_page: bool = False) -> Path:
        path = self.shots / f"{self.test}-{what}.png"
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")
        return path

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def pages(browser: Browser, server: Server, shots_dir: Path, request: pytest.FixtureRequest) -> Iterator[Pages]:
    p = Pages(browser, server, shots_dir, request.node.name.removeprefix("test_"))
    try:
        yield p
        assert not p.errors, f"JavaScript errors: {p.errors}"
    finally:
        p.close()


# --- driving a table ----------------------------------------------------------------------------------
def peek(page: Page) -> dict[str, Any] | None:
    result: dict[str, Any] | None = page.evaluate(PEEK)
    return result


def wait_connected(page: Page, after: int = -1) -> dict[str, Any]:
    """Wait for the socket to be welcomed and a state newer than ``after`` to be shown."""
    page.wait_for_function(
        """(after) => { const t = window.euchreTable;
             return t && t.connected && t.state && t.version > after && !t.pending &&
                    document.getElementById('connection').textContent === 'connected'; }""", arg=after)
    s = peek(page)
    assert s is not None
    return s


def choose(actions: list[str]) -> str:
    """A simple player: order up or call (never alone), else pass, else the last card to bury or
    the first card to play."""
    for prefix in ("order", "call", "take", "pass"):
        for a in actions:
            if a.startswith(prefix) and not a.endswith("alone"):
                return a
    discards = [a for a in actions if a.startswith("discard ")]
    if discards:
        return discards[-1]
    plain = [a for a in actions if not a.endswith("alone")]
    return (plain or actions)[0]


def act(page: Page, action: str) -> dict[str, Any]:
    """Click the action's button or card and wait until the table shows it applied."""
    before = page.evaluate("() => window.euchreTable.version")
    page.locator(f'[data-action="{action}"]').click()
    page.wait_for_function("(v) => window.euchreTable.version > v && !window.euchreTable.pending", arg=before)
    s = peek(page)
    assert s is not None
    return s


def play(page: Page, until: Callable[[dict[str, Any]], bool], *, timeout: float = 40.0,
         observe: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play every turn of this page's seat by clicking until ``until(peek)`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        s = peek(page)
        if s is not None:
            if observe is not None:
                observe(s)
            if until(s):
                return s
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s; the page showed {s}")
        if s is not None and s["actions"] and not s["pending"] and s["status"] == "playing":
            act(page, choose(s["actions"]))
        else:
            page.wait_for_timeout(30)


def bots_table(server: Server, name: str, **rules: Any) -> dict[str, Any]:
    r = httpx.post(server.base + "/api/tables",
                   json={"mode": "bots", "rules": rules, "level": LEVEL, "name": name}, timeout=10)
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def open_bots_table(pages: Pages, name: str, **kw: Any) -> Page:
    t = bots_table(pages.server, name)
    page = pages.page(name=name, **kw)
    page.goto(t["url"])
    wait_connected(page)
    return page


def seat_name(page: Page, seat: int) -> str:
    return page.locator(f'.seat[data-seat="{seat}"] .name').inner_text().strip()


def my_play_turn(s: dict[str, Any]) -> bool:
    return s["phase"] == "play" and bool(s["actions"]) and not s["pending"]


# --- the tests ----------------------------------------------------------------------------------------
def test_new_player_plays_a_hand_from_the_start_page(pages: Pages) -> None:
    page = pages.page()
    page.goto("/")
    page.wait_for_selector("#preset option", state="attached")
    page.fill("#name", "Ana")
    page.select_option("#level", LEVEL)
    page.click("#play-now")
    page.wait_for_url(re.compile(r"/table/[A-Za-z0-9_-]+#token="))
    s = wait_connected(page)
    assert s["seat"] == 0 and s["status"] == "playing"
    assert page.inner_text("#score") == NO_SCORE
    assert seat_name(page, 0) == "Ana"
    assert page.locator("#name-bar").is_hidden()  # the start page remembered the name

    # Screenshots: the player's own bidding turn, a trick in progress, the table once the score
    # changed. A hand everyone passes is thrown in (no stick the dealer), and computer players may
    # name trump before the player's turn, so play on, hand after hand, until all three were seen.
    taken: dict[str, Path] = {}

    def observe(s: dict[str, Any]) -> None:
        if "bidding" not in taken and s["phase"] in ("bid1", "bid2") and s["actions"]:
            assert page.locator("#up-card").is_visible() and page.locator("#bids button").count() >= 2
            taken["bidding"] = pages.shot(page, "bidding")
        if "mid-trick" not in taken and 1 <= len(s["trick"]) <= 3:
            taken["mid-trick"] = pages.shot(page, "mid-trick")
        if "scored" not in taken and s["score"] != NO_SCORE:
            assert re.fullmatch(r"\d+ \u2013 \d+", s["score"]), s["score"]
            taken["scored"] = pages.shot(page, "scored")

    play(page, lambda s: len(taken) == 3, timeout=60, observe=observe)


def test_two_friends_play_at_one_table(pages: Pages) -> None:
    a = pages.page()
    a.goto("/")
    a.wait_for_selector("#preset option", state="attached")
    a.fill("#name", "Ana")
    a.select_option("#level", LEVEL)
    a.click("#open-friends")
    a.wait_for_selector("#friends-result:not(.hidden)")
    links = a.eval_on_selector_all("input.seat-link",
                                   "els => els.map((e) => ({seat: Number(e.dataset.seat), url: e.value}))")
    assert sorted(x["seat"] for x in links) == [1, 2, 3]
    assert all(re.search(r"/table/[A-Za-z0-9_-]+#token=[A-Za-z0-9_-]{40,}$", x["url"]) for x in links), links
    watch = a.input_value("#watch-link")
    assert "#token=" not in watch and "/table/" in watch
    partner = next(x["url"] for x in links if x["seat"] == 2)

    b = pages.page()
    b.goto(partner)
    wait_connected(b)
    assert "Waiting for the host" in b.inner_text("#status")
    b.wait_for_selector("#name-bar:not(.hidden)")  # no name yet in this browser
    b.fill("#name-input", "Bo")
    b.click("#name-save")
    b.wait_for_selector("#name-bar.hidden", state="attached")
    b.wait_for_function("() => document.querySelector('.seat[data-seat=\"2\"] .name').textContent.includes('Bo')")
    # the host's page polls the table and shows who joined
    a.wait_for_function("() => (document.getElementById('seat-state-2') || {}).textContent === 'joined: Bo'")
    a.click("#start-button")
    a.wait_for_function("() => /started/.test(document.getElementById('friends-status').textContent)")
    a.click("#my-seat-link")
    a.wait_for_url(re.compile(r"/table/[A-Za-z0-9_-]+#token="))
    sa = wait_connected(a)
    assert sa["seat"] == 0
    b.wait_for_function("() => window.euchreTable.state.d.status === 'playing'")

    for page in (a, b):
        assert seat_name(page, 0) == "Ana" and seat_name(page, 2) == "Bo"
        assert page.locator('.seat[data-seat="1"] .badge.bot').count() == 1  # a computer player filled seat 1

    a.fill("#chat-input", "good luck, partner")
    a.press("#chat-input", "Enter")
    b.wait_for_function("() => document.getElementById('chat-log').textContent.includes('good luck, partner')")
    assert "Ana:" in b.inner_text("#chat-log")
    # A spectator reads the chat but has nothing to write with (the server takes chat from seats only).
    w = pages.page()
    w.goto(watch)
    w.wait_for_function("() => document.getElementById('chat-log').textContent.includes('good luck, partner')")
    assert not w.is_visible("#chat-form") and a.is_visible("#chat-form")
    w.close()

    # Both play their own turns; each page's hand must hold only its own seat's cards.
    seen: dict[str, dict[int, set[str]]] = {"a": {}, "b": {}}
    done = {"a": False, "b": False}
    deadline = time.monotonic() + 60
    shot_mid = False
    while not all(done.values()):
        assert time.monotonic() < deadline, f"no hand was finished; last: {seen}"
        for key, page in (("a", a), ("b", b)):
            s = peek(page)
            assert s is not None
            if s["hand_number"] is not None:
                assert s["dom_hand"] == s["hand"], (key, s)
                seen[key].setdefault(s["hand_number"], set()).update(s["dom_hand"])
            if s["score"] != NO_SCORE or (s["banner"] and s["status"] == "playing"):
                done[key] = True
            if not shot_mid and 1 <= len(s["trick"]) <= 3:
                pages.shot(a, "ana-mid-hand")
                pages.shot(b, "bo-mid-hand")
                shot_mid = True
            if s["actions"] and not s["pending"] and s["status"] == "playing":
                act(page, choose(s["actions"]))
        a.wait_for_timeout(20)
    for n in set(seen["a"]) & set(seen["b"]):
        assert not seen["a"][n] & seen["b"][n], f"hand {n}: both pages showed {seen['a'][n] & seen['b'][n]}"
    assert any(len(c) >= 5 for c in seen["a"].values()) and any(len(c) >= 5 for c in seen["b"].values())
    pages.shot(a, "ana")
    pages.shot(b, "bo")
    for page in (a, b):
        assert seat_name(page, 0) == "Ana" and seat_name(page, 2) == "Bo"


def table_as_shown(page: Page) -> dict[str, Any]:
    """What a player sees of the table: their hand in order, the cards they may play, each trick
    slot, the score, the hand number and the status line."""
    s = peek(page)
    assert s is not None
    return {"hand": s["dom_hand"], "playable": sorted(s["actions"]), "slots": s["slots"], "score": s["score"],
            "hand_no": page.inner_text("#hand-no"), "status": page.inner_text("#status")}


def test_reload_in_the_middle_of_a_trick_restores_the_table(pages: Pages) -> None:
    page = open_bots_table(pages, "Cy")
    s = play(page, lambda s: my_play_turn(s) and 1 <= len(s["trick"]) <= 3, timeout=45)
    before = table_as_shown(page)
    assert before["hand"] == s["hand"] and sum(1 for c in before["slots"].values() if c) == len(s["trick"])
    pages.shot(page, "before")
    page.reload()
    after_state = wait_connected(page)  # "#connection" says connected again
    assert after_state["v"] == s["v"], "the table moved on while nobody acted"
    page.wait_for_function("(n) => document.querySelectorAll('#hand .card[data-action]').length === n",
                           arg=len(before["playable"]))
    after = table_as_shown(page)
    pages.shot(page, "after")
    assert after == before


def test_phone_sized_table(pages: Pages) -> None:
    page = open_bots_table(pages, "Dee", viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    play(page, lambda s: bool(s["actions"]) and not s["pending"], timeout=30)
    pages.shot(page, "table")
    pages.shot(page, "table-full", full_page=True)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px screen"
    for box in (page.locator("#hand .card").nth(i).bounding_box() for i in range(page.locator("#hand .card").count())):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box


def test_keyboard_plays_a_card(pages: Pages) -> None:
    page = open_bots_table(pages, "Eve")
    s = play(page, lambda s: my_play_turn(s) and len(s["actions"]) >= 2, timeout=45)
    cards = s["dom_hand"]
    playable = [c for c in cards if f"play {c}" in s["actions"]]
    # arrows move among the playable cards: the first press picks the first, the second the next
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    chosen = playable[1]
    assert page.evaluate("() => document.activeElement.dataset.card") == chosen
    assert page.locator(f'#hand .card.selected[data-card="{chosen}"]').count() == 1
    pages.shot(page, "selected")
    page.keyboard.press("Enter")
    page.wait_for_function("(v) => window.euchreTable.version > v && !window.euchreTable.pending", arg=s["v"])
    s2 = peek(page)
    assert s2 is not None and chosen not in s2["hand"] and len(s2["hand"]) == len(cards) - 1
    played = page.evaluate("() => window.euchreTable.state.d.view.actions.filter((a) => a.seat === 0)"
                           ".map((a) => a.action)")
    assert f"play {chosen}" in played

    # a digit picks a card by its place in the hand; Enter plays it
    s = play(page, lambda s: my_play_turn(s) or s["hand_number"] != s2["hand_number"], timeout=30)
    if my_play_turn(s):
        idx = next(i for i, c in enumerate(s["dom_hand"]) if f"play {c}" in s["actions"])
        page.keyboard.press(str(idx + 1))
        page.keyboard.press("Enter")
        page.wait_for_function("(v) => window.euchreTable.version > v && !window.euchreTable.pending", arg=s["v"])
        s3 = peek(page)
        assert s3 is not None and s["dom_hand"][idx] not in s3["hand"]


def parse_points(text: str) -> float:
    return float(text.replace("\u2212", "-").replace("\u00b1", "").replace("+", ""))


def test_hint_button_shows_points(pages: Pages) -> None:
    page = open_bots_table(pages, "Flo")
    s = play(page, lambda s: len(s["actions"]) >= 2 and not s["pending"], timeout=30)
    assert page.locator("#hint-button").is_visible()
    page.click("#hint-button")
    page.wait_for_selector("#hints li .pts")
    items = page.eval_on_selector_all(
        "#hints li", "els => els.map((e) => ({act: e.querySelector('.act').textContent, "
                     "pts: e.querySelector('.pts').textContent, action: e.dataset.hintAction}))")
    pages.shot(page, "hints")
    assert len(items) == len(s["legal"]), (items, s["legal"])
    for it in items:
        assert re.fullmatch(r"[+\u2212\u00b1]\d+\.\d\d", it["pts"]), it
    points = [parse_points(it["pts"]) for it in items]
    assert points == sorted(points, reverse=True), "hints are best first"
    # taking the advice: the best hint's action is one of the offered buttons or cards (compared by
    # action, not by text: a card button shows its corners, the hint the card's name)
    offered = set(page.eval_on_selector_all("[data-action]", "els => els.map((e) => e.dataset.action)"))
    assert items[0]["action"] in offered, (items[0], offered)
    assert {it["action"] for it in items} == set(s["legal"]), (items, s["legal"])
    assert all(it["act"].strip() for it in items)


def test_short_game_ends_with_downloadable_records(pages: Pages) -> None:
    page = pages.page()
    page.goto("/")
    page.wait_for_selector("#preset option", state="attached")
    page.fill("#name", "Gus")
    page.select_option("#level", LEVEL)
    page.fill("#rule-target", "1")
    page.click("#play-now")
    page.wait_for_url(re.compile(r"/table/[A-Za-z0-9_-]+#token="))
    wait_connected(page)
    table_id = page.evaluate("() => window.euchreTable.state.d.table")
    assert page.inner_text("#target") == "to 1"
    play(page, lambda s: s["status"] == "over", timeout=60)
    page.wait_for_selector("#gameover #downloads a")
    pages.shot(page, "over")
    winner = page.inner_text("#winner")
    assert winner.endswith("!"), winner
    score = page.inner_text("#score")
    links = page.eval_on_selector_all("#downloads a", "els => els.map((e) => e.getAttribute('href'))")
    assert any("format=toml" in x for x in links) and any("format=egn" in x for x in links), links

    with page.expect_download() as info:
        page.click("#downloads a[href*='format=toml']")
    text = Path(info.value.path()).read_text(encoding="utf-8")
    record = notation.loads(text)
    assert record.players[0] == "Gus"
    assert record.scores is not None and " \u2013 ".join(map(str, record.scores)) == score
    assert max(record.scores) >= 1
    record.replay()  # the record checks out against the engine

    with page.expect_download() as info:
        page.click("#downloads a[href*='format=egn']")
    egn_record = notation.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert egn_record.scores == record.scores

    # the finished game is listed, and its player counted
    page.goto("/games")
    row = page.locator(f'#games-body tr[data-id="{table_id}"]')
    row.wait_for()
    assert "Gus" in row.inner_text() and score in row.inner_text()
    pages.shot(page, "games")
    page.goto("/stats")
    page.wait_for_function("() => document.getElementById('stats-body').textContent.includes('Gus')")
    pages.shot(page, "stats")


# Records every state frame the page receives and every hand-over banner it shows.
SPY = """(() => {
  window.__frames = [];
  window.__banners = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        let m = null;
        try { m = JSON.parse(e.data); } catch (err) { return; }
        if (m.t !== "state") return;
        const v = m.d.view;
        window.__frames.push({v: m.v, to_act: v ? v.to_act : null, hand: v ? v.hand_number : null,
                              previous: m.d.previous ? m.d.previous.hand_number : null, last: m.d.last});
      });
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    const box = document.getElementById("hand-summary");
    new MutationObserver(() => {
      if (!box.classList.contains("hidden")) window.__banners.push(Number(box.dataset.key));
    }).observe(box, {attributes: true});
  });
})();"""


def test_every_hand_ended_by_a_computer_shows_the_hand_over_banner(pages: Pages) -> None:
    t = bots_table(pages.server, "Hal", target=30)  # room for two such hands before the game ends
    page = pages.page(name="Hal")
    page.add_init_script(SPY)
    page.goto(t["url"])
    wait_connected(page)

    def bot_ended_hands() -> list[int]:
        """Hands whose last action was a computer's, followed by a computer's turn in the next hand:
        the frame with ``previous`` is then not the player's turn, and others follow it at once."""
        hands: list[int] = page.evaluate(
            "() => window.__frames.filter((f) => f.previous !== null && f.last && f.last.seat !== 0 "
            "&& f.to_act !== 0).map((f) => f.previous)")
        return sorted(set(hands))

    play(page, lambda s: len(bot_ended_hands()) >= 2 and my_play_turn(s), timeout=50)
    page.wait_for_timeout(300)
    pages.shot(page, "new-hand")
    shown = set(page.evaluate("() => window.__banners"))
    missing = [h for h in bot_ended_hands() if h not in shown]
    assert not missing, f"no hand-over banner for hands {missing} (banners shown: {sorted(shown)})"
