"""Browser tests of Hasenpfeffer (preset ``hasenpfeffer``) at the table page: the auction's bids
as buttons (only the legal ones, as the frame lists them), the high bid and its holder in the
middle of the table, naming trump, six cards that fit a phone, the hand's summary and the score;
and the start page offering the preset with its one switch in words. A real ``euchre serve`` and
Chromium, with the fixtures and helpers of ``test_browser.py``.
"""

# The fixtures imported from test_browser are parameters of the tests here: F811 is expected.
# ruff: noqa: F811
from __future__ import annotations

import random
from typing import Any

from test_browser import (  # noqa: F401  (browser, server, shots_dir are fixtures)
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


def wait_for(page: Any, phases: tuple[str, ...], timeout: float = 30_000) -> dict[str, Any]:
    """Wait until this page's seat is to act in one of ``phases``."""
    page.wait_for_function(
        """(phases) => { const t = window.euchreTable; const v = t && t.state && t.state.d.view;
             return v && phases.indexOf(v.phase) >= 0 && v.legal.length && !t.pending &&
                    document.querySelectorAll('[data-action]:not([disabled])').length > 0; }""",
        arg=list(phases), timeout=timeout)
    s = peek(page)
    assert s is not None
    return s


def fits(page: Any) -> None:
    """Nothing wider than the phone; every card of the hand inside the screen."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px screen"
    cards = page.locator("#hand .card")
    for i in range(cards.count()):
        box = cards.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box
        assert box["y"] + box["height"] <= PHONE["height"] + 0.5, box


def test_a_hand_through_the_auction_on_a_phone(pages: Pages) -> None:
    t = bots_table(pages.server, preset="hasenpfeffer", level="easy", name="Hana", seed=5)
    page = pages.page(name="Hana", **PHONE_KW)
    page.goto(t["url"])
    wait_connected(page)
    s = wait_for(page, ("auction",))
    # the bids are buttons, exactly the legal ones, in words a player knows
    assert sorted(s["actions"]) == sorted(s["legal"]) and "pass" in s["legal"], s
    labels = {a: page.locator(f'#bids [data-action="{a}"]').inner_text().strip() for a in s["legal"]}
    for a, text in labels.items():
        assert text == ("Pass" if a == "pass" else "Bid " + a.split()[1]), labels
    title = page.get_attribute('#bids [data-action="bid 6"]', "title")
    assert title == "Bid 6 tricks", title
    assert len(s["hand"]) == 6 and len(s["dom_hand"]) == 6
    assert page.locator("#up-card").count() == 0 and page.locator("#high-bid").is_visible()
    status = page.inner_text("#status")
    assert status.startswith("Your turn: bid ") and "or pass" in status, status
    fits(page)
    pages.shot(page, "auction")
    # bid six: nobody can go higher, so this seat names trump
    s = act(page, "bid 6")
    s = wait_for(page, ("name_trump",))
    assert sorted(s["actions"]) == ["call c", "call d", "call h", "call s"], s
    assert page.inner_text("#high-bid-value") == "6"
    assert "You" in page.inner_text("#high-bid-who")
    assert page.inner_text("#status").startswith("You won the bid with 6"), page.inner_text("#status")
    fits(page)
    pages.shot(page, "name-trump")
    act(page, "call " + page.evaluate("() => window.euchreTable.state.d.view.hand.find((c) => c !== 'Jk')")[1])
    # play the six tricks: the first card each time
    for k in range(6):
        s = wait_for(page, ("play",))
        assert len(s["hand"]) == 6 - k
        assert "bid 6" in page.inner_text('.seat[data-seat="0"] .badges')  # the bid's holder, while playing
        fits(page)
        act(page, s["actions"][0])
    page.wait_for_function("() => window.euchreTable.state.d.result && window.euchreTable.state.d.result.hand === 0")
    d = page.evaluate("() => window.euchreTable.state.d")
    r = d["result"]
    assert r["bid"] == 6 and r["maker"] == 0, r
    # the score, a negative one with a true minus sign, and the score sheet's row
    want = " \u2013 ".join(f"\u2212{-x}" if x < 0 else str(x) for x in d["scores"])
    assert page.inner_text("#score") == want, (page.inner_text("#score"), d["scores"])
    row = page.locator("#score-table tbody tr").first.inner_text()
    assert "bid 6" in row, row
    if r["outcome"] == "euchred":
        assert "\u2212" in row and "\u2212" in page.inner_text("#score"), row
    line = page.locator("#hand-summary, #hand-summary-line").all_inner_texts()
    assert any("bid" in x or "set" in x or "every trick" in x for x in line), line
    pages.shot(page, "hand-over")


def test_start_page_lists_hasenpfeffer_with_its_switch(pages: Pages) -> None:
    page = pages.page(name="Hana")
    page.goto("/")
    page.wait_for_selector('#preset option[value="hasenpfeffer"]', state="attached")
    page.select_option("#preset", "hasenpfeffer")
    page.wait_for_selector('#rules [data-field="defenders_score_tricks"]', state="attached")
    text = page.inner_text("#rules")
    assert "Defenders score their tricks" in text, text
    fields = page.evaluate(FIELDS)
    assert sorted(fields) == ["defenders_score_tricks", "laps", "match_games", "match_wins", "slam", "target"], fields
    assert "Joker" in page.inner_text("#preset-desc")
    # American shows its own switches and not Hasenpfeffer's
    page.select_option("#preset", "american")
    page.wait_for_selector('#rules [data-field="stick_the_dealer"]', state="attached")
    fields = page.evaluate(FIELDS)
    assert "defenders_score_tricks" not in fields and "auction" not in fields, fields
    pages.shot(page, "american")
    page.select_option("#preset", "hasenpfeffer")
    page.wait_for_selector('#rules [data-field="defenders_score_tricks"]', state="attached")
    pages.shot(page, "start")


def test_viewer_replays_a_hasenpfeffer_game(pages: Pages) -> None:
    """An uploaded record of Hasenpfeffer: no up card (the high bid in its place), the auction in
    the bids, six cards a seat and six tricks a hand."""
    rules = Rules.preset("hasenpfeffer", target=12)
    game, rng = Game(rules, seed=4), random.Random(4)
    while not game.is_over:
        game.push(rng.choice(game.legal_actions()))
    page = pages.page(**PHONE_KW)
    page.goto("/replay")
    page.wait_for_selector("#upload:not(.hidden)")
    page.fill("#record", notation.dumps(game, players=["Ann", "Bo", "Cy", "Di"]))
    page.click("#load")
    page.wait_for_selector("#viewer:not(.hidden)")
    page.wait_for_function("() => window.euchreViewer && window.euchreViewer.index === 0")
    assert page.locator("#up-card .card").count() == 0 and page.inner_text("#up-fate") == "no bid yet"
    assert page.locator(".vseat .vcards .card").count() == 24
    assert "6 cards each" in page.inner_text("#words")
    t = page.evaluate("() => window.euchreViewer.timeline")
    hand = t["hands"][0]
    bid_step = next(i for i in range(hand["first_step"], hand["last_step"] + 1) if t["steps"][i]["bid"])
    page.evaluate("""(i) => { const r = document.getElementById('slider'); r.value = String(i);
                              r.dispatchEvent(new Event('input', {bubbles: true})); }""", bid_step)
    page.wait_for_function("(i) => window.euchreViewer.index === i", arg=bid_step)
    st = t["steps"][bid_step]
    assert page.inner_text("#high-bid") == str(st["bid"])
    assert page.inner_text("#up-fate").startswith("by " + t["players"][st["bidder"]])
    assert page.inner_text("#vbids").splitlines()[-1] == st["bids"][-1]["words"]
    pages.shot(page, "auction")
    last = t["steps"][hand["last_step"]]
    assert hand["trump"] is None or len(last["tricks"]) == 6
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
