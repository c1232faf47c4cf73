"""Browser tests of the replay viewer (``/replay/{id}`` and ``/replay``, ``docs/server.md``), with
the server, browser and screenshot fixtures of ``test_browser.py``: a finished game opened from
``/games`` and an uploaded record, stepped through at desktop and phone sizes.

The viewer shows what the server's timeline holds, so the tests compare the page with the
timeline it was given (``window.euchreViewer``) and with the record itself.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import test_browser
from server_support import Client, Server
from test_browser import DESKTOP, PHONE, Pages, bots_table

from euchre import Game, Rules, egn, notation
from euchre.bots import make_bot
from euchre.replay import game_over_words

# The fixtures of test_browser.py: one server and one browser for this module, screenshots beside theirs.
browser = test_browser.browser
server = test_browser.server
shots_dir = test_browser.shots_dir
pages = test_browser.pages

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": PHONE}
NAMES = ["Ann", "Bob", "Cy", "Di"]

# What the viewer shows, read in one go.
PEEK = """() => {
  const v = window.euchreViewer;
  if (!v || !v.timeline) return null;
  const cards = (sel) => Array.from(document.querySelectorAll(sel)).map((c) => c.dataset.card);
  const seats = {};
  for (const s of document.querySelectorAll('#felt .vseat')) {
    seats[s.dataset.seat] = Array.from(s.querySelectorAll('.vcards .card')).map((c) => c.dataset.card);
  }
  const doc = document.documentElement;
  return {
    index: v.index, analyzed: !!v.timeline.analyzed, steps: v.timeline.steps.length,
    words: document.getElementById('words').textContent,
    result: document.getElementById('result').classList.contains('hidden') ? null
            : document.getElementById('result').textContent,
    seats, face_up: cards('#felt .vseat .vcards .card').length,
    backs: document.querySelectorAll('#felt .card.back').length,
    trick: Array.from(document.querySelectorAll('#trick .vslot')).filter((s) => s.dataset.card)
                .map((s) => ({seat: Number(s.dataset.seat), card: s.dataset.card})),
    up: cards('#up-card .card'),
    bids: Array.from(document.querySelectorAll('#vbids li')).map((li) => li.textContent),
    tricks: document.querySelectorAll('#tricks li').length,
    score: document.getElementById('vscore').textContent,
    hand: document.getElementById('hand-picker').value,
    slider: document.getElementById('slider').value,
    marks: document.querySelectorAll('#moves .mark').length,
    mark: document.getElementById('mark').classList.contains('hidden') ? null
          : document.getElementById('mark').textContent,
    here: (document.querySelector('#moves li.here') || {}).textContent || null,
    scroll: doc.scrollWidth - doc.clientWidth,
  };
}"""


def peek(page: Any) -> dict[str, Any]:
    s: dict[str, Any] | None = page.evaluate(PEEK)
    assert s is not None
    return s


def step(page: Any, i: int) -> dict[str, Any]:
    """Step ``i`` of the timeline the page holds."""
    out: dict[str, Any] = page.evaluate("(i) => window.euchreViewer.timeline.steps[i]", i)
    return out


def hands_info(page: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = page.evaluate("() => window.euchreViewer.timeline.hands")
    return out


def wait_index(page: Any, i: int) -> dict[str, Any]:
    page.wait_for_function("(i) => window.euchreViewer && window.euchreViewer.index === i", arg=i)
    return peek(page)


def check_shows(page: Any, s: dict[str, Any], i: int) -> None:
    """The page shows step ``i``: its words, every seat's cards face up, the trick, the score."""
    st = step(page, i)
    assert s["index"] == i and s["slider"] == str(i) and s["hand"] == str(st["hand"])
    assert s["words"].startswith(st["words"])
    assert s["seats"] == {str(seat): cards for seat, cards in enumerate(st["hands"])}
    assert s["face_up"] == sum(len(h) for h in st["hands"]) and s["backs"] == 0
    assert s["up"] == [st["up_card"]]
    if st["trick"]:  # the page's slots go by seat, the trick by play order
        assert s["trick"] == sorted(st["trick"], key=lambda p: p["seat"])
    assert [b for b in s["bids"] if b != "no bid yet"] == [b["words"] for b in st["bids"]]
    for score in st["scores"]:
        assert str(score) in s["score"]
    assert s["scroll"] <= 0, f"horizontal scroll of {s['scroll']} px"


def set_slider(page: Any, i: int) -> dict[str, Any]:
    page.evaluate("""(i) => { const r = document.getElementById('slider'); r.value = String(i);
                              r.dispatchEvent(new Event('input', {bubbles: true})); }""", i)
    return wait_index(page, i)


# --- games to replay ------------------------------------------------------------------------------
async def _play_out(c: Client, rng: random.Random) -> None:
    acted = -1
    while c.state is None or c.state["status"] != "over":
        view = c.state["view"] if c.state else None
        if view and view["legal"] and c.v > acted:
            acted = c.v
            await c.send({"t": "act", "id": f"r{c.v}", "action": rng.choice(view["legal"]), "v": c.v})
        await c.recv(10)


def finished_game(srv: Server, name: str, seed: int) -> str:
    """A game to 1 point against computer players, played to the end through the socket."""
    t = bots_table(srv, name, target=1)

    async def scenario() -> None:
        c = await Client.connect(f"{srv.ws_base}/ws/{t['id']}", t["token"])
        await c.until("state")
        await asyncio.wait_for(_play_out(c, random.Random(seed)), 60)
        await c.close()

    # On a thread of its own: Playwright's sync API holds an event loop on this one.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario()).result()
    table_id: str = t["id"]
    return table_id


def long_game(seed: int = 11) -> Game:
    """A whole game to 10 between heuristic players: many hands to pick from."""
    game = Game(Rules(), seed=seed)
    bots = [make_bot("heuristic", seed=seed * 10 + s) for s in range(4)]
    while not game.is_over:
        game.push(bots[game.to_act].choose(game.view(game.to_act)))
    return game


# --- the tests ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", list(SIZES))
def test_viewer_steps_through_a_finished_game(pages: Pages, size: str) -> None:
    table_id = finished_game(pages.server, "Vera", seed=len(size))
    page = pages.page(viewport=SIZES[size])
    page.goto("/games")
    link = page.locator(f'#games-body tr[data-id="{table_id}"] a.replay-link')
    link.wait_for()
    pages.shot(page, "games")
    # The link is checked by where it points, then followed with goto: on the phone it sits past
    # the edge of a sideways-scrolling table, and one CI run's click there never navigated.
    assert link.get_attribute("href") == f"/replay/{table_id}"
    page.goto(f"/replay/{table_id}")
    page.wait_for_selector("#viewer:not(.hidden)")
    s = wait_index(page, 0)
    check_shows(page, s, 0)
    assert s["face_up"] == 20 and "dealt by" in s["words"] and s["bids"] == ["no bid yet"]
    assert "Vera" in page.inner_text("#felt")
    pages.shot(page, "deal", full_page=True)

    # forward with the arrow key and the button, back with the button: step 1 again, as it was
    page.keyboard.press("ArrowRight")
    one = wait_index(page, 1)
    check_shows(page, one, 1)
    page.click("#next")
    check_shows(page, wait_index(page, 2), 2)
    page.click("#prev")
    again = wait_index(page, 1)
    check_shows(page, again, 1)
    assert again["words"] == one["words"] and again["seats"] == one["seats"]

    # the slider: a trick half played, with the cards in the middle
    total = s["steps"]
    mid = next((i for i in range(total) if len(step(page, i)["trick"]) == 2), None)
    if mid is not None:
        m = set_slider(page, mid)
        check_shows(page, m, mid)
        assert len(m["trick"]) == 2
        pages.shot(page, "mid-trick", full_page=True)

    # End: the last step of the hand, with how it ended
    page.keyboard.press("End")
    end_i = hands_info(page)[0]["last_step"]
    end = wait_index(page, end_i)
    check_shows(page, end, end_i)
    assert end["result"] == step(page, end_i)["result"] and end["result"]
    pages.shot(page, "hand-end", full_page=True)

    # the analysis: a mark beside every decision of the hand
    page.keyboard.press("Home")
    wait_index(page, 0)
    page.check("#analyze")
    page.wait_for_function("() => window.euchreViewer.timeline.analyzed && !window.euchreViewer.analyzing",
                           timeout=60_000)
    a = peek(page)
    decisions = page.evaluate("""() => { const t = window.euchreViewer.timeline;
        const h = t.hands[t.steps[window.euchreViewer.index].hand];
        return t.steps.slice(h.first_step, h.last_step + 1).filter((s) => s.review).length; }""")
    assert a["analyzed"] and a["index"] == 0 and a["marks"] == decisions > 0
    # a marked decision if there is one (else the first decision): its mark beside the words
    decision = page.evaluate("""() => { const steps = window.euchreViewer.timeline.steps;
        const marked = steps.findIndex((s) => s.review && s.review.mark);
        return marked >= 0 ? marked : steps.findIndex((s) => s.review); }""")
    d = set_slider(page, decision)
    review = step(page, decision)["review"]
    assert d["mark"] is not None and (review["mark"] in d["mark"] if review["mark"] else "best" in d["mark"])
    if review["mark"]:
        assert review["best_words"] in page.inner_text("#best")
    pages.shot(page, "analyzed", full_page=True)
    page.uncheck("#analyze")
    assert peek(page)["marks"] == 0 and peek(page)["mark"] is None


@pytest.mark.parametrize("size", list(SIZES))
def test_viewer_opens_an_uploaded_record(pages: Pages, size: str) -> None:
    game = long_game()
    page = pages.page(viewport=SIZES[size])
    page.goto("/replay")
    page.wait_for_selector("#upload:not(.hidden)")
    assert page.locator("#viewer").is_hidden()
    page.fill("#record", "this is not a record")
    page.click("#load")
    page.wait_for_selector("#error:not(.hidden)")
    error = page.inner_text("#error")
    assert error.startswith("The record cannot be replayed: not valid TOML") and error.count("cannot be replayed") == 1
    pages.shot(page, "upload-error")

    page.fill("#record", notation.dumps(game, players=NAMES))
    page.click("#load")
    page.wait_for_selector("#viewer:not(.hidden)")
    s = wait_index(page, 0)
    check_shows(page, s, 0)
    assert s["steps"] == len(game.actions()) + len(game.hands)
    assert page.locator("#hand-picker option").count() == len(game.hands)

    # the hand picker jumps to the deal of hand 3; Page Down to hand 4; back once: the end of hand 3
    hands = hands_info(page)
    page.select_option("#hand-picker", "2")
    h3 = wait_index(page, hands[2]["first_step"])
    check_shows(page, h3, hands[2]["first_step"])
    assert h3["words"].startswith(f"Hand 3, dealt by {NAMES[game.hands[2].dealer]}")
    pages.shot(page, "upload-hand3", full_page=True)
    page.keyboard.press("PageDown")
    wait_index(page, hands[3]["first_step"])
    page.keyboard.press("ArrowLeft")
    end3 = wait_index(page, hands[2]["last_step"])
    check_shows(page, end3, hands[2]["last_step"])
    assert end3["result"] and end3["hand"] == "2" and end3["here"] is not None
    # the last step: the final score of the record
    last = set_slider(page, s["steps"] - 1)
    check_shows(page, last, s["steps"] - 1)
    assert page.inner_text("#game-over") == game_over_words(game, NAMES)
    # an address edited by hand goes to its step; the first step's empty lists are not numbered
    page.evaluate("() => { location.hash = '#step=0'; }")
    wait_index(page, 0)
    styles = page.eval_on_selector_all("#vbids li, #tricks li",
                                       "ls => ls.map((l) => getComputedStyle(l).listStyleType)")
    assert styles == ["none", "none"], styles
    pages.shot(page, "upload-last", full_page=True)

    # the same game as EGN, the format chosen by hand
    page.goto("/replay")
    page.wait_for_selector("#upload:not(.hidden)")
    page.fill("#record", egn.dumps(game, players=NAMES))
    page.select_option("#format", "egn")
    page.click("#load")
    page.wait_for_selector("#viewer:not(.hidden)")
    e = wait_index(page, 0)
    assert e["steps"] == s["steps"] and e["words"] == s["words"]


def test_viewer_of_a_game_in_progress_says_so(pages: Pages) -> None:
    t = bots_table(pages.server, "Wes")
    page = pages.page(viewport=DESKTOP)
    page.goto(f"/replay/{t['id']}")
    page.wait_for_selector("#error:not(.hidden)")
    assert "once the game is over" in page.inner_text("#error")
    assert page.locator("#viewer").is_hidden()


def test_viewer_steps_through_a_match_game_by_game(pages: Pages) -> None:
    """An uploaded match record opens at its first game with a game picker and the match's
    outcome; choosing game 2 shows that game from its deal."""
    from euchre.match import Match

    m = Match(Rules(match_games=2, target=4), seed=5)
    bot = make_bot("heuristic", seed=2)
    while not m.is_over:
        m.push(bot.choose(m.game.view(m.to_act)))
    page = pages.page(viewport=DESKTOP)
    page.goto("/replay")
    page.wait_for_selector("#upload:not(.hidden)")
    page.fill("#record", notation.dumps(m, players=NAMES))
    page.click("#load")
    page.wait_for_selector("#viewer:not(.hidden)")
    first = wait_index(page, 0)
    assert first["steps"] == len(m.games[0].actions()) + len(m.games[0].hands)
    assert page.locator("#game-picker option").count() == len(m.games)
    assert page.inner_text("#subtitle").startswith(f"Game 1 of {len(m.games)}: ")
    assert page.inner_text("#match-line") == m.summary()[0].upper() + m.summary()[1:]
    page.select_option("#game-picker", "2")
    page.wait_for_function("() => window.euchreViewer.timeline.match.shown === 2")
    second = wait_index(page, 0)
    assert second["steps"] == len(m.games[1].actions()) + len(m.games[1].hands)
    assert page.inner_text("#subtitle").startswith(f"Game 2 of {len(m.games)}: ")
    assert page.locator("#hand-picker option").count() == len(m.games[1].hands)
    pages.shot(page, "match-game2", full_page=True)


# Of each element the selectors find, those not wholly inside the window (as it is scrolled now).
OUT_OF_VIEW = """(sels) => {
  const bad = [];
  for (const sel of sels) {
    const found = document.querySelectorAll(sel);
    if (!found.length) bad.push(`${sel}: none`);
    found.forEach((e, k) => {
      const r = e.getBoundingClientRect();
      if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
        bad.push(`${sel}#${k} [${[r.left, r.top, r.right, r.bottom].map(Math.round).join(", ")}]`);
    });
  }
  return bad;
}"""
TABLE_PARTS = ['.vseat[data-seat="0"] .vcards', "#felt .vseat .vcards", "#trick", "#up-card", "#first", "#prev",
               "#next", "#last", "#slider", "#hand-picker", "#words"]
"""The table (every seat's hand, the trick, the up card), the controls and the step in words."""


def test_viewer_fits_a_laptop_window(pages: Pages) -> None:
    """At 1280x800 the whole table is in view without scrolling: the hand of the seat the record is
    seen from (seat 0, at the bottom) too, at the deal, mid-trick, at the end of a hand (its result
    shown) and at the game's last step; on a phone nothing scrolls sideways."""
    game = long_game()
    record = notation.dumps(game, players=NAMES)
    for size in ({"width": 1280, "height": 800}, PHONE):
        page = pages.page(viewport=size)
        page.goto("/replay")
        page.wait_for_selector("#upload:not(.hidden)")
        page.fill("#record", record)
        page.click("#load")
        page.wait_for_selector("#viewer:not(.hidden)")
        s = wait_index(page, 0)
        steps = s["steps"]
        mid = next(i for i in range(steps) if len(step(page, i)["trick"]) == 2)
        for i in (0, mid, hands_info(page)[0]["last_step"], steps - 1):
            s = set_slider(page, i)
            assert s["scroll"] <= 0, f"step {i}: horizontal scroll of {s['scroll']} px at {size}"
            if size is PHONE:
                continue
            assert page.evaluate("() => window.scrollY") == 0
            own = page.locator('.vseat[data-seat="0"] .vcards').bounding_box()
            assert own is not None and own["y"] >= 0 and own["y"] + own["height"] <= size["height"], (i, own)
            bad = page.evaluate(OUT_OF_VIEW, TABLE_PARTS)
            assert not bad, f"step {i}: out of the window: {bad}"
            pages.shot(page, f"step{i}")
        if size is PHONE:
            pages.shot(page, "phone", full_page=True)
