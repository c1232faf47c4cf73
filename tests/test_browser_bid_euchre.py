"""Browser tests of Bid Euchre (preset ``bid-euchre``) at the table page: the auction's buttons
(the bids, "Shoot the moon" and pass, only the legal ones), the high bid shown as "moon", naming
trump with the four suits, High and Low, the moon's discard of seven with the partner sitting
out, the hand's summary with both sides' trick points, at phone width and on a desktop; the start
page offering the preset with its target; the replay viewer showing a moon. A real ``euchre
serve`` and Chromium, with the fixtures and helpers of ``test_browser.py``.
"""

# The fixtures imported from test_browser are parameters of the tests here: F811 is expected.
# ruff: noqa: F811
from __future__ import annotations

import random
from typing import Any

from test_browser import (  # noqa: F401  (browser, server, shots_dir are fixtures)
    DESKTOP,
    FIELDS,
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

from euchre import Game, Rules, notation
from euchre.actions import MOON


def wait_turn(page: Any, timeout: float = 30_000) -> dict[str, Any]:
    """Wait until this page's seat is to act (buttons or cards enabled)."""
    page.wait_for_function(
        """() => { const t = window.euchreTable; const v = t && t.state && t.state.d.view;
             return v && v.legal.length && !t.pending &&
                    document.querySelectorAll('[data-action]:not([disabled])').length > 0; }""", timeout=timeout)
    s = peek(page)
    assert s is not None
    return s


def fits(page: Any, viewport: dict[str, int]) -> None:
    """Nothing wider than the screen; every card of the hand inside it."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page is {width} px wide on a {viewport['width']} px screen"
    cards = page.locator("#hand .card")
    for i in range(cards.count()):
        box = cards.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5, box
        assert box["y"] + box["height"] <= viewport["height"] + 0.5, box


def moon_at(pages: Pages, viewport_kw: dict[str, Any], viewport: dict[str, int], what: str) -> None:
    """Bid until this seat may shoot the moon, shoot it, name high, discard one of seven and play
    the hand out: every step as the page shows it."""
    for seed in range(1, 30):
        t = bots_table(pages.server, preset="bid-euchre", level="easy", name="Bea", seed=seed)
        page = pages.page(name="Bea", **viewport_kw)
        page.goto(t["url"])
        wait_connected(page)
        s = wait_turn(page)
        if s["phase"] == "auction" and "moon" in s["legal"]:
            break
        page.close()
    else:
        raise AssertionError("no table let seat 0 shoot the moon")
    # the auction's buttons: exactly the legal ones, the moon among them, in words a player knows
    assert sorted(s["actions"]) == sorted(s["legal"]), s
    labels = {a: page.locator(f'#bids [data-action="{a}"]').inner_text().strip() for a in s["legal"]}
    for a, text in labels.items():
        want = {"pass": "Pass", "moon": "Shoot the moon"}.get(a, "Bid " + a.split()[-1])
        assert text == want, labels
    assert page.get_attribute('#bids [data-action="moon"]', "title") == "Shoot the moon (every trick, alone)"
    status = page.inner_text("#status")
    assert status.startswith("Your turn: bid ") and "shoot the moon" in status, status
    assert page.locator("#high-bid").is_visible() and page.locator("#up-card").count() == 0
    assert len(s["hand"]) == 6
    fits(page, viewport)
    pages.shot(page, f"{what}-auction")
    act(page, "moon")
    s = wait_turn(page)
    assert s["phase"] == "name_trump", s
    assert page.inner_text("#high-bid-value") == "moon"
    names = {a: page.locator(f'#bids [data-action="{a}"]').inner_text().strip() for a in s["legal"]}
    assert names["call n"] == "Call high" and names["call low"] == "Call low", names
    assert names["call h"].startswith("Call \u2665"), names  # (the suit names hide on a crowded row)
    assert page.inner_text("#status").startswith("You shot the moon: name trump"), page.inner_text("#status")
    fits(page, viewport)
    pages.shot(page, f"{what}-name-trump")
    act(page, "call n")
    # the partner (a computer player) chooses the card; this seat then discards one of seven
    s = wait_turn(page)
    assert s["phase"] == "best_discard" and len(s["hand"]) == 7, s
    d = page.evaluate("() => window.euchreTable.state.d")
    v = d["view"]
    assert d["moon"] and v["trump"] == "n" and v["sitting_out"] == [2] and len(v["gifts"]) == 1, v
    status = page.inner_text("#status")
    assert status.startswith("The moon: ") and "seven cards to discard" in status, status
    assert "sitting out" in page.inner_text('.seat[data-seat="2"] .badges')
    assert "High" in page.inner_text("#trump-chip")
    assert page.inner_text("#hand-label").startswith("Seven cards in your hand"), page.inner_text("#hand-label")
    fits(page, viewport)
    pages.shot(page, f"{what}-discard")
    act(page, s["actions"][-1])
    for k in range(6):
        s = wait_turn(page)
        assert s["phase"] == "play" and len(s["hand"]) == 6 - k, s
        assert "moon" in page.inner_text('.seat[data-seat="0"] .badges')  # the bid's holder, while playing
        fits(page, viewport)
        if k == 1:
            pages.shot(page, f"{what}-play")
        act(page, s["actions"][0])
    page.wait_for_function("() => window.euchreTable.state.d.result && window.euchreTable.state.d.result.hand === 0")
    d = page.evaluate("() => window.euchreTable.state.d")
    r = d["result"]
    assert r["moon"] and r["maker"] == 0 and r["bid"] == 7, r
    want = " \u2013 ".join(f"\u2212{-x}" if x < 0 else str(x) for x in d["scores"])
    assert page.inner_text("#score") == want, (page.inner_text("#score"), d["scores"])
    row = page.locator("#score-table tbody tr").first.inner_text()
    assert "moon" in row, row
    page.wait_for_selector("#hand-summary:not(.hidden), #hand-summary-line:not(.hidden)")
    line = " ".join(page.locator("#hand-summary, #hand-summary-line").all_inner_texts())
    assert "the moon" in line, line
    if r["outcome"] != "march":  # the defenders scored their tricks
        assert r["points"][1] == 6 - r["maker_tricks"], r
    pages.shot(page, f"{what}-hand-over")


def test_a_moon_on_a_phone(pages: Pages) -> None:
    moon_at(pages, PHONE_KW, PHONE, "phone")


def test_a_moon_on_a_desktop(pages: Pages) -> None:
    moon_at(pages, {"viewport": DESKTOP}, DESKTOP, "desktop")


def test_start_page_lists_bid_euchre_with_its_target(pages: Pages) -> None:
    page = pages.page(name="Bea")
    page.goto("/")
    page.wait_for_selector('#preset option[value="bid-euchre"]', state="attached")
    assert page.inner_text('#preset option[value="bid-euchre"]') == "Bid Euchre"
    assert page.inner_text('#preset option[value="napoleon"]') == "Napoleon"  # served too (test_browser_napoleon)
    page.select_option("#preset", "bid-euchre")
    page.wait_for_selector('#rules [data-field="target"]', state="attached")
    # the target, and a match of games (RULES-FAMILY.md 12.5: any game with a target)
    assert sorted(page.evaluate(FIELDS)) == ["laps", "match_games", "match_wins", "slam", "target"]
    assert "moon" in page.inner_text("#preset-desc")
    pages.shot(page, "start")


def test_viewer_replays_a_moon(pages: Pages) -> None:
    """An uploaded record whose first hand is a moon in high: "moon" where the up card would be,
    the trump as "high", the gift face up, the partner sitting out."""
    rules = Rules.preset("bid-euchre")
    game, rng = Game(rules, seed=4), random.Random(4)
    game.push(MOON)
    while game.state.phase.name == "AUCTION":
        game.push(game.state.parse_action("pass"))
    game.push(game.state.parse_action("call n"))
    while not game.is_over:
        game.push(rng.choice(game.legal_actions()))
    page = pages.page(**PHONE_KW)
    page.goto("/replay")
    page.wait_for_selector("#upload:not(.hidden)")
    page.fill("#record", notation.dumps(game, players=["Ann", "Bo", "Cy", "Di"]))
    page.click("#load")
    page.wait_for_selector("#viewer:not(.hidden)")
    page.wait_for_function("() => window.euchreViewer && window.euchreViewer.index === 0")
    assert "6 cards each, every card dealt" in page.inner_text("#words")
    t = page.evaluate("() => window.euchreViewer.timeline")
    hand = t["hands"][0]
    steps = t["steps"]
    at = next(i for i in range(hand["first_step"], hand["last_step"] + 1) if steps[i]["kind"] == "discard")
    page.evaluate("""(i) => { const r = document.getElementById('slider'); r.value = String(i);
                              r.dispatchEvent(new Event('input', {bubbles: true})); }""", at)
    page.wait_for_function("(i) => window.euchreViewer.index === i", arg=at)
    st = steps[at]
    assert page.inner_text("#high-bid") == "moon"
    assert "high" in page.inner_text("#trump-line")
    gift = st["gifts"][0]
    assert f"{t['players'][gift['giver']]} gave" in page.inner_text("#up-fate")
    partner = (hand["maker"] + 2) % 4
    assert "sits out" in page.inner_text(f'.vseat[data-seat="{partner}"]')
    pages.shot(page, "moon")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
