"""Browser tests of the table page's turn highlight and its "Last trick" panel, as a person sees
them: computer players that take a moment (``--bot-delay``) so that every frame is shown, paced,
with the motion on (the trick sweeps to its winner). The fixtures and helpers are
``test_browser.py``'s; this module starts its own server with the delay.

A script in the page looks at every animation frame and keeps what it saw (``window.__seen``):
the frame shown (its version, hand, seat to act, finished tricks), the seat highlighted on the
felt, the cards of the "Last trick" panel and the line above the hand, and when each state frame
came in on the socket.
"""

# The fixtures imported from test_browser are parameters of the tests here: F811 is expected.
# ruff: noqa: F811
from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
import test_browser
from server_support import Server, fresh_database
from test_browser import Pages, act, bots_table, choose, my_play_turn, peek, wait_connected

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

browser = test_browser.browser
shots_dir = test_browser.shots_dir
pages = test_browser.pages

BOT_DELAY = "0.35"
SETTINGS = {"speed": "normal", "sounds": False, "autoplay": False, "confirmAlone": False, "cardSize": "normal",
            "fourColor": False, "hints": True}

SEEN = """(() => {
  window.__seen = [];
  window.__came = [];
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        try {
          const m = JSON.parse(e.data);
          if (m.t === 'state') window.__came.push({at: performance.now(), v: m.v});
        } catch (err) { /* not ours */ }
      });
    }
  };
  let last = '';
  const cards = (sel) => Array.from(document.querySelectorAll(sel)).map((c) => c.dataset.card);
  const look = () => {
    const t = window.euchreTable;
    if (t && t.state && t.state.d.view) {
      const d = t.state.d, v = d.view;
      const tricks = v.tricks || [];
      const before = d.previous && d.previous.tricks && d.previous.tricks.length ? d.previous.tricks : [];
      const now = {
        v: t.version, status: d.status, hand: v.hand_number, phase: v.phase, to_act: v.to_act,
        previous: !!d.previous, tricks: tricks.length, played: (v.trick || []).length,
        latest: tricks.length ? tricks[tricks.length - 1].plays.map((p) => p.card) : [],
        before: before.length ? before[before.length - 1].plays.map((p) => p.card) : [],
        winner: tricks.length ? tricks[tricks.length - 1].winner : null,
        lit: Array.from(document.querySelectorAll('#felt .seat.to-act')).map((s) => Number(s.dataset.seat)),
        panel: cards('#last-trick .play .card'),
        panel_text: document.getElementById('last-trick').textContent,
        caption: (document.getElementById('last-trick-caption') || {}).textContent || '',
        label: document.getElementById('hand-label').textContent,
      };
      const key = JSON.stringify(now);
      if (key !== last) { last = key; now.at = performance.now(); window.__seen.push(now); }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();"""


@pytest.fixture(scope="module")
def server(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    home = tmp_path_factory.mktemp("polish-server")
    s = Server(fresh_database("sqlite", home), home, "--bot-delay", BOT_DELAY).start()
    try:
        yield s
    finally:
        s.stop()


def open_table(pages: Pages, name: str, seed: int) -> Page:
    t = bots_table(pages.server, name, seed, target=100)
    page = pages.page(name=name)
    page.add_init_script(SEEN)
    value = json.dumps(json.dumps(SETTINGS))
    page.add_init_script(f"try {{ localStorage.setItem('euchre.settings', {value}); }} catch (e) {{}}")
    page.goto(t["url"])
    wait_connected(page)
    return page


def seen(page: Page) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = page.evaluate("() => window.__seen")
    return out


def trick_ends(page: Page) -> int:
    """How many frames the page showed that ended a trick (a trick more, the same hand)."""
    out: int = page.evaluate("""() => window.__seen.filter((x, i, all) => i > 0 && x.hand === all[i - 1].hand &&
                                                            x.tricks > all[i - 1].tricks).length""")
    return out


def play_until(page: Page, done: Any, timeout: float) -> dict[str, Any]:
    """Play this seat's turns (a beat after each turn comes, as a person would) until ``done(peek)``."""
    deadline = time.monotonic() + timeout
    while True:
        s = peek(page)
        assert s is not None
        if done(s):
            return s
        assert time.monotonic() < deadline, f"not reached in {timeout} s; the page showed {s}"
        if s["actions"] and not s["pending"] and s["status"] == "playing":
            page.wait_for_timeout(150)
            act(page, choose(s["actions"]))
        else:
            page.wait_for_timeout(30)


# --- the turn highlight ------------------------------------------------------------------------
def test_turn_highlight_follows_the_trick_winner_at_once(pages: Pages) -> None:
    """When a trick ends the felt highlights its winner, the seat to lead, in the same frame the
    trick is shown complete (the sweep to the winner comes later, and nothing waits for it); at
    every moment the seat highlighted is the seat to act of the state shown, and no state that
    ends a trick waits long before it is shown."""
    page = open_table(pages, "Tess", seed=21)
    play_until(page, lambda s: trick_ends(page) >= 6, timeout=90)
    frames = seen(page)
    came = {c["v"]: c["at"] for c in page.evaluate("() => window.__came")}
    checked = 0
    for i, x in enumerate(frames):
        if x["status"] == "playing" and x["to_act"] is not None:
            assert x["lit"] == [x["to_act"]], f"highlighted {x['lit']}, to act {x['to_act']}: {x}"
        before = frames[i - 1] if i else None
        if before is not None and x["hand"] == before["hand"] and x["tricks"] > before["tricks"]:
            # the trick just ended: its winner leads and is highlighted now
            assert x["to_act"] == x["winner"] and x["lit"] == [x["winner"]], x
            # shown soon after it came (a frame before it is paced at most PACE_PLAY, 320 ms)
            assert x["at"] - came[x["v"]] < 900, f"a trick's end shown {x['at'] - came[x['v']]:.0f} ms after it came"
            # and it stays until the next state (no later render points elsewhere)
            later = [y for y in frames[i + 1:] if y["v"] == x["v"]]
            assert all(y["lit"] == [x["winner"]] for y in later), later
            checked += 1
    assert checked >= 6, checked
    pages.shot(page, "after")


# --- the last trick panel ----------------------------------------------------------------------
def panel(page: Page) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate("""() => { const b = document.getElementById('last-trick');
        return {cards: Array.from(b.querySelectorAll('.play')).map((p) => [Number(p.dataset.seat),
                       p.querySelector('.card').dataset.card, p.classList.contains('win')]),
                text: b.textContent, hand: b.dataset.hand, tricks: b.dataset.tricks}; }""")
    return out


def hook_tricks(page: Page) -> list[dict[str, Any]]:
    """The finished tricks of the hand in the state shown."""
    out: list[dict[str, Any]] = page.evaluate("() => window.euchreTable.state.d.view.tricks")
    return out


def reload_same(page: Page) -> None:
    v = page.evaluate("() => window.euchreTable.version")
    page.reload()
    wait_connected(page)
    page.wait_for_function("(v) => window.euchreTable.version === v", arg=v)


def hook_previous(page: Page) -> dict[str, Any] | None:
    """The hand before in the state shown (``previous``: sent until this hand's first card)."""
    out: dict[str, Any] | None = page.evaluate("() => window.euchreTable.state.d.previous")
    return out


def caption_of_before(page: Page) -> str:
    """The caption the panel must show for the hand before's last trick, from the state shown:
    "Last trick of hand N, won by NAME" (N the hand before as players count it, NAME "you" for
    the player)."""
    d = page.evaluate("() => { const d = window.euchreTable.state.d; return {hand_no: d.hand_no, seats: d.seats}; }")
    previous = hook_previous(page)
    assert previous is not None and previous["tricks"]
    winner = previous["tricks"][-1]["winner"]
    who = "you" if winner == 0 else d["seats"][winner]["name"]
    return f"Last trick of hand {d['hand_no'] - 1}, won by {who}"


def test_last_trick_panel_shows_this_hands_latest_trick(pages: Pages) -> None:
    """The "Last trick" panel shows the latest finished trick of the hand being played; from a
    hand's end until the next hand's first card (its bidding), the last trick of the hand before,
    said so ("Last trick of hand 3, won by ..."); from that first card until the hand's first
    trick ends, nothing ("No trick yet in this hand"); and a reload shows exactly what was shown
    before it (it used to show nothing in the new hand's bidding, the hand before's last trick
    being only in the hand-over summary). The line above the hand ("Last trick, won by ...")
    only ever names a trick of the hand being played."""
    page = open_table(pages, "Lars", seed=33)
    log: list[dict[str, Any]] = []

    # mid-hand, with a trick of the hand finished: the panel, then the same after a reload
    s = play_until(page, lambda x: my_play_turn(x) and 1 <= len(hook_tricks(page)) <= 3, timeout=60)
    before = panel(page)
    tricks = hook_tricks(page)
    assert [c for _, c, _ in before["cards"]] == [p["card"] for p in tricks[-1]["plays"]], (before, tricks)
    assert [w for _, _, w in before["cards"]].count(True) == 1 and "No trick yet" not in before["text"]
    pages.shot(page, "mid-hand")
    log += seen(page)
    reload_same(page)
    assert panel(page) == before

    # on to the bidding of a hand after a hand was played out: the hand before's last trick, said
    # so, before and after a reload
    start = play_until(page, lambda x: x["hand_number"] is not None and x["hand_number"] > s["hand_number"]
                       and x["phase"] not in ("play", "over") and bool(x["actions"]) and not x["pending"], timeout=90)
    last = hook_previous(page)
    assert last is not None and last["tricks"], "the frames carry the hand before through the bidding"
    shown = panel(page)
    assert [c for _, c, _ in shown["cards"]] == [p["card"] for p in last["tricks"][-1]["plays"]], (shown, last)
    assert [w for _, _, w in shown["cards"]].count(True) == 1
    assert shown["text"].startswith(caption_of_before(page)) and shown["hand"] == str(last["hand_number"]), shown
    pages.shot(page, "hand-start")
    log += seen(page)
    reload_same(page)
    assert panel(page) == shown

    # two more hands' boundaries, watched frame by frame
    play_until(page, lambda x: x["hand_number"] is not None and x["hand_number"] >= start["hand_number"] + 2,
               timeout=120)
    log += seen(page)
    starts = bidding = empty = 0
    for x in log:
        if x["tricks"]:
            assert x["panel"] == x["latest"], f"the panel shows {x['panel']}, the hand's latest is {x['latest']}: {x}"
        elif x["played"] or not x["before"]:
            # a card of this hand is played (or the hand before had no trick): nothing yet
            assert not (x["played"] and x["previous"]), f"the hand before sent after a card: {x}"
            assert x["panel"] == [] and x["panel_text"].startswith("No trick yet"), x
            empty += bool(x["played"])
        else:
            # this hand has no card yet: the hand before's last trick, said so
            assert x["panel"] == x["before"] and x["caption"].startswith("Last trick of hand "), x
            starts += 1
            bidding += x["phase"] not in ("play", "over")
        if x["label"].startswith("Last trick"):
            assert x["tricks"] and x["phase"] == "play", x
    assert starts and bidding and empty, (starts, bidding, empty)


def test_a_reload_in_the_bidding_shows_the_hand_befores_last_trick(pages: Pages) -> None:
    """Reloaded during a new hand's bidding, the page shows in the "Last trick" panel the last
    trick of the hand before (its cards, its winner marked) with a caption that says so, as it
    did before the reload; reloaded once a card of the new hand is played, no trick of the hand
    before: "No trick yet in this hand" until this hand's first trick ends."""
    page = open_table(pages, "Rosa", seed=41)
    # the player's turn to bid in a hand after the first
    play_until(page, lambda x: bool(x["hand_number"]) and x["phase"] not in ("play", "over")
               and bool(x["actions"]) and not x["pending"], timeout=90)
    last = hook_previous(page)
    assert last is not None and last["tricks"], last
    trick = last["tricks"][-1]
    caption = caption_of_before(page)
    shown = panel(page)
    reload_same(page)
    after = panel(page)
    assert after == shown
    assert [(seat, card) for seat, card, _ in after["cards"]] == [(p["seat"], p["card"]) for p in trick["plays"]]
    assert [seat for seat, _, win in after["cards"] if win] == [trick["winner"]]
    assert after["text"].startswith(caption), (after["text"], caption)
    pages.shot(page, "bidding-reloaded")

    # the player's turn in this hand's (or a later hand's) first trick, a card already on the felt:
    # reloaded there, the hand before is no longer sent and the panel has no trick
    hand = page.evaluate("() => window.euchreTable.state.d.view.hand_number")
    play_until(page, lambda x: my_play_turn(x) and x["hand_number"] >= hand and not hook_tricks(page)
               and bool(page.evaluate("() => (window.euchreTable.state.d.view.trick || []).length")), timeout=120)
    reload_same(page)
    assert hook_previous(page) is None
    empty = panel(page)
    assert empty["cards"] == [] and empty["text"].startswith("No trick yet"), empty
    pages.shot(page, "first-card-reloaded")


def test_a_tricks_sweep_ends_before_the_next_frame_is_shown() -> None:
    """A complete trick sweeps to its winner (SWEEP_BEAT after its last card lands) and the next
    frame waits PACE_TRICK: if the sweep outlasted it, the next frame would cut it short (it did:
    about 90 ms into the sweep), and the cards vanished instead of going to the winner."""
    import re
    from pathlib import Path

    js = (Path(__file__).resolve().parent.parent / "euchre/server/static/table.js").read_text()

    def const(name: str) -> int:
        m = re.search(rf"const {name} = (\d+);", js)
        assert m, name
        return int(m.group(1))

    # the last card's flight (one card: FLY_PLAY plus its 110 ms stagger), the beat, the sweep
    assert const("FLY_PLAY") + 110 + const("SWEEP_BEAT") + const("FLY_SWEEP") < const("PACE_TRICK")
    assert "scheduleSweep(v, FLY_PLAY + fresh * 110)" in js  # (the stagger the sum above assumes)
