"""Browser tests of Bid Euchre's double deck (preset ``bid-euchre-double``) at the table page:
twelve cards in the hand, on a 390 x 844 phone in two rows of six and on a desktop in one row,
every card inside the screen and the play column, none over another or over the bids, the
status or the felt, and nothing scrolling sideways; the auction's bids 6 to 12 and the moon as
buttons; a pair of identical cards one choice (both copies carry the same play, and a click
plays one copy); the moon's thirteen cards with the partner's card marked once; the Hint button
at every turn (the hints advise the double deck by truncated search); the start page offering
the preset by its name; the viewer replaying an uploaded record and, from the games page, a
finished table's game, twelve cards a seat face up; the games page naming the game. A real
``euchre serve`` and Chromium, with the fixtures and helpers of ``test_browser.py``.
"""

# The fixtures imported from test_browser are parameters of the tests here: F811 is expected.
# ruff: noqa: F811
from __future__ import annotations

import asyncio
import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from server_support import Client
from test_browser import (  # noqa: F401  (browser, server, shots_dir are fixtures)
    DESKTOP,
    FIELDS,
    IN_VIEW,
    PHONE,
    PHONE_KW,
    Pages,
    act,
    bots_table,
    browser,
    pages,
    peek,
    server,
    shots_dir,
    wait_connected,
)
from test_browser_bid_euchre import fits, wait_turn
from test_browser_napoleon import FELT_PARTS, OVERLAPS, hints_offered, no_overlap
from test_browser_viewer import _play_out

from euchre import Game, Rules, notation

PRESET = "bid-euchre-double"



def click(page: Any, action: str, nth: int = 0) -> dict[str, Any]:
    """``test_browser.act`` where two cards may carry one action (a pair): click the ``nth``
    element carrying it and wait until the table shows it applied."""
    before = page.evaluate("() => window.euchreTable.version")
    page.locator(f'[data-action="{action}"]').nth(nth).click()
    page.wait_for_function("(v) => window.euchreTable.version > v && !window.euchreTable.pending", arg=before)
    s = peek(page)
    assert s is not None
    return s


def hand_fits(page: Any, viewport: dict[str, int], cards: int) -> list[float]:
    """The hand of ``cards`` cards inside the screen and the play column, no card over another,
    the hand over nothing else of the table; returns the tops of the cards' rows. Measured once
    the cards are still (a re-sorted hand slides its cards to their places)."""
    page.wait_for_function("() => [...document.querySelectorAll('#hand .card')]"
                           ".every((c) => !c.getAnimations().length)")
    fits(page, viewport)
    needed = [["#hand .card", True], ["#status", False], ["#felt", False]]
    if page.locator("#bids button").count():
        needed.append(["#bids button", True])
    r = page.evaluate(IN_VIEW, needed)  # in the window, nothing over them, nothing scrolled
    assert r["bad"] == [] and r["scrollY"] == 0 and r["mainScroll"] == 0, r
    assert page.locator("#hand .card").count() == cards
    no_overlap(page, ["#hand .card"], cards)
    no_overlap(page, ["#hand", "#bids button", "#status", "#felt"], 3)
    no_overlap(page, FELT_PARTS, 5)
    felt = page.locator("#felt").bounding_box()
    assert felt is not None
    tops = set()
    # (a row by its cards' laid-out top: a card under the pointer is lifted a little)
    for box in page.evaluate("() => [...document.querySelectorAll('#hand .card')].map((c) => { "
                             "const r = c.getBoundingClientRect(); return [r.left, c.offsetTop, r.right, r.width]; })"):
        left, top, right, width = box
        assert left >= felt["x"] - 0.5 and right <= felt["x"] + felt["width"] + 0.5, (box, felt)  # under the felt
        assert width >= 30, box  # a card big enough to read and to tap
        tops.add(round(top))
    return sorted(tops)


def test_a_hand_of_twelve_on_a_phone(pages: Pages) -> None:
    t = bots_table(pages.server, "Dee", preset=PRESET, level="easy", seed=3)
    page = pages.page(name="Dee", **PHONE_KW)
    page.goto(t["url"])
    wait_connected(page)
    s = wait_turn(page)
    assert s["phase"] == "auction" and len(s["hand"]) == 12 and len(s["dom_hand"]) == 12
    # the bids: exactly the legal ones, 6 to 12 and the moon, in words a player knows
    assert sorted(s["actions"]) == sorted(s["legal"]) and {f"bid {n}" for n in range(6, 13)} <= set(s["legal"]), s
    labels = {a: page.locator(f'#bids [data-action="{a}"]').inner_text().strip() for a in s["legal"]}
    for a, text in labels.items():
        assert text == {"pass": "Pass", "moon": "Shoot the moon"}.get(a, "Bid " + a.split()[-1]), labels
    assert page.inner_text("#status").startswith("Your turn: bid 6 to 12 tricks"), page.inner_text("#status")
    rows = hand_fits(page, PHONE, 12)
    assert len(rows) == 2, rows  # two rows of six
    hints_offered(page, phone=True)
    pages.shot(page, "auction")
    small = {"width": 360, "height": 740}  # a smaller phone: still all of it on the screen
    page.set_viewport_size(small)
    assert len(hand_fits(page, small, 12)) == 2
    pages.shot(page, "auction-360x740")
    page.set_viewport_size(PHONE)
    act(page, "pass")
    # the play: a pair is one choice, both copies carry it, a click plays one copy
    pair_played = False
    for _ in range(12):
        s = wait_turn(page)
        if s["phase"] != "play":
            break  # the hand is over
        n = len(s["hand"])
        if n <= 6:
            assert len(hand_fits(page, PHONE, n)) == 1  # one row once six are left
        else:
            assert len(hand_fits(page, PHONE, n)) == 2
        hints_offered(page, phone=True)
        counts = Counter(s["hand"])
        pairs = [a for a in s["legal"] if counts[a.split()[1]] == 2]
        assert len(s["legal"]) == len(set(s["legal"])), s["legal"]
        if pairs and not pair_played:
            action = pairs[0]
            card = action.split()[1]
            copies = page.locator(f'#hand .card[data-card="{card}"]')
            assert copies.count() == 2
            assert {copies.nth(k).get_attribute("data-action") for k in range(2)} == {action}
            pages.shot(page, "pair")
            after = click(page, action, 1)  # the second copy: either plays one
            assert Counter(after["hand"])[card] == 1 and page.locator(f'#hand .card[data-card="{card}"]').count() == 1
            pair_played = True
            continue
        click(page, s["actions"][0])
        if pair_played and n <= 8:
            break
    assert pair_played, "this seat never held a pair it could play"
    pages.shot(page, "play")


def test_a_hand_of_twelve_on_a_desktop(pages: Pages) -> None:
    t = bots_table(pages.server, "Dee", preset=PRESET, level="easy", seed=5)
    page = pages.page(name="Dee", viewport=DESKTOP)
    page.goto(t["url"])
    wait_connected(page)
    s = wait_turn(page)
    rows = hand_fits(page, DESKTOP, 12)
    assert len(rows) == 1, rows  # one row of twelve
    side = page.locator(".side-col").bounding_box()
    last = page.locator("#hand .card").nth(11).bounding_box()
    assert side is not None and last is not None and last["x"] + last["width"] <= side["x"], (last, side)
    assert "48 cards, every card twice" in page.inner_text("#info")
    hints_offered(page)
    assert page.locator("#hints-box").is_visible()
    pages.shot(page, s["phase"])
    while s["phase"] != "play":
        click(page, "pass" if "pass" in s["legal"] else s["actions"][0])
        s = wait_turn(page)
    assert len(hand_fits(page, DESKTOP, len(s["hand"]))) == 1
    pages.shot(page, "play")


def test_the_moon_with_thirteen_cards_on_a_phone(pages: Pages) -> None:
    """Seed 3: this seat shoots the moon, names clubs, and the partner's card comes: thirteen
    cards in two rows, the partner's card marked on one copy only, then the discard."""
    t = bots_table(pages.server, "Dee", preset=PRESET, level="easy", seed=3)
    page = pages.page(name="Dee", **PHONE_KW)
    page.goto(t["url"])
    wait_connected(page)
    s = wait_turn(page)
    act(page, "moon")
    s = wait_turn(page)
    assert s["phase"] == "name_trump", s
    act(page, "call c")
    s = wait_turn(page)
    assert s["phase"] == "best_discard" and len(s["hand"]) == 13, s
    d = page.evaluate("() => window.euchreTable.state.d")
    gift = d["view"]["gifts"][0]["card"]
    assert d["moon"] and s["hand"].count(gift) >= 1
    assert page.locator("#hand .card .tag").count() == 1  # marked once, though a copy may be held too
    assert page.locator(f'#hand .card[data-card="{gift}"] .tag').inner_text() == "gift"
    assert page.inner_text("#hand-label").startswith("13 cards in your hand"), page.inner_text("#hand-label")
    rows = hand_fits(page, PHONE, 13)
    assert len(rows) == 2, rows
    tag = page.locator("#hand .card .tag").bounding_box()
    holder = page.locator("#hand .card:has(.tag)").bounding_box()
    assert tag is not None and holder is not None
    right = holder["x"] + holder["width"]
    assert tag["x"] >= holder["x"] - 0.5 and tag["x"] + tag["width"] <= right + 0.5, (tag, holder)
    pages.shot(page, "moon-discard")
    click(page, s["actions"][-1])
    s = wait_turn(page)
    assert s["phase"] == "play" and len(s["hand"]) == 12
    assert len(hand_fits(page, PHONE, 12)) == 2
    assert "moon" in page.inner_text('.seat[data-seat="0"] .badges')
    pages.shot(page, "moon-play")


def test_start_page_offers_the_double_deck(pages: Pages) -> None:
    page = pages.page(name="Dee")
    page.goto("/")
    page.wait_for_selector(f'#preset option[value="{PRESET}"]', state="attached")
    assert page.inner_text(f'#preset option[value="{PRESET}"]') == "Double-deck Bid Euchre"
    page.select_option("#preset", PRESET)
    page.wait_for_selector('#rules [data-field="target"]', state="attached")
    assert sorted(page.evaluate(FIELDS)) == ["laps", "match_games", "match_wins", "slam", "target"]
    assert page.input_value("#rule-target") == "50"
    assert "48 cards" in page.inner_text("#preset-desc")
    pages.shot(page, "start")
    page.fill("#name", "Dee")
    page.click("#play-now")
    page.wait_for_url("**/table/**")
    wait_connected(page)
    page.wait_for_function("() => { const v = window.euchreTable.state.d.view; return v && v.hand.length === 12; }")


def test_viewer_replays_a_double_deck_game(pages: Pages) -> None:
    game, rng = Game(Rules.preset(PRESET), seed=7), random.Random(7)
    while not game.is_over:
        game.push(rng.choice(game.legal_actions()))
    for kw, what in ((PHONE_KW, "phone"), ({"viewport": DESKTOP}, "desktop")):
        page = pages.page(**kw)
        page.goto("/replay")
        page.wait_for_selector("#upload:not(.hidden)")
        page.fill("#record", notation.dumps(game, players=["Ann", "Bo", "Cy", "Di"]))
        page.click("#load")
        page.wait_for_selector("#viewer:not(.hidden)")
        page.wait_for_function("() => window.euchreViewer && window.euchreViewer.index === 0")
        assert page.locator(".vseat").count() == 4 and page.locator(".vseat .vcards .card").count() == 48
        assert "12 cards each, every card dealt" in page.inner_text("#words")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= kw["viewport"]["width"], width
        for seat in range(4):
            no_overlap(page, [f'.vseat[data-seat="{seat}"] .vcards .card'], 12)
        r = page.evaluate(OVERLAPS, [".vseat", "#trick .vslot .card"])
        assert r["bad"] == [], r["bad"]
        pages.shot(page, f"{what}-deal")
        t = page.evaluate("() => window.euchreViewer.timeline")
        step = next(i for i, st in enumerate(t["steps"]) if st["kind"] == "play" and len(st["trick"]) == 3)
        page.evaluate("""(i) => { const r = document.getElementById('slider'); r.value = String(i);
                                  r.dispatchEvent(new Event('input', {bubbles: true})); }""", step)
        page.wait_for_function("(i) => window.euchreViewer.index === i", arg=step)
        assert page.locator("#trick .vslot .card").count() == 3
        assert page.inner_text("#high-bid") == str(t["steps"][step]["bid"])
        assert page.evaluate("() => document.documentElement.scrollWidth") <= kw["viewport"]["width"]
        pages.shot(page, f"{what}-play")


def test_a_finished_game_is_listed_and_replayed(pages: Pages) -> None:
    """A game to 12 played out through the socket: the games page lists it by its name, and its
    replay (``/replay/{id}``, the record the server saved) shows twelve cards a seat."""
    t = bots_table(pages.server, "Dee", preset=PRESET, level="easy", seed=4, target=12)

    async def scenario() -> None:
        c = await Client.connect(f"{pages.server.ws_base}/ws/{t['id']}", t["token"])
        await c.until("state")
        await asyncio.wait_for(_play_out(c, random.Random(4)), 90)
        await c.close()

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds an event loop on this thread
        pool.submit(asyncio.run, scenario()).result()
    page = pages.page(viewport=DESKTOP)
    page.goto("/games")
    row = page.locator(f'#games-body tr[data-id="{t["id"]}"]')
    row.wait_for()
    assert "Double-deck Bid Euchre" in row.inner_text(), row.inner_text()
    link = row.locator("a.replay-link")
    assert link.get_attribute("href") == f"/replay/{t['id']}"
    page.goto(f"/replay/{t['id']}")
    page.wait_for_selector("#viewer:not(.hidden)")
    page.wait_for_function("() => window.euchreViewer && window.euchreViewer.index === 0")
    assert page.locator(".vseat .vcards .card").count() == 48
    assert "12 cards each, every card dealt" in page.inner_text("#words")
    assert "Dee" in page.inner_text("#felt")
    page.click("#last")
    page.wait_for_function("() => window.euchreViewer.index > 0")
    assert page.inner_text("#result").strip(), "the hand's result in words"
    pages.shot(page, "replay-end")
