"""Browser tests of Napoleon (preset ``napoleon``) at the table page: seven seats round the
table on a phone, the auction's bids as buttons (only the legal ones, in the engine's words), the
high bid in words, the bidder's first lead and its note that the suit led becomes trump, every
player's score; three, five and six seats on a desktop and a phone; at every size no seat, trump
chip, hand number or felt button over another (the corners are seats past four); the Hint button
at every table size, the bids and first trick of six and seven seats included (the truncated
search's), and, with hints stood in for by the test (the socket routed), the strip of answers at
seven seats on a phone over nothing it should not cover; a misère
hand's chip saying "No trump", never a suit; the start page offering the preset with its
switches (players 3 to 7, the number of hands following it); the viewer replaying seven hands
face up. A real ``euchre serve`` and Chromium, with the fixtures and helpers of ``test_browser.py``.
"""

# The fixtures imported from test_browser are parameters of the tests here: F811 is expected.
# ruff: noqa: F811
from __future__ import annotations

import json
import random
from typing import Any

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
from test_browser_hasenpfeffer import fits

from euchre import Game, Rules, notation

OVERLAPS = """(sels) => {
  const boxes = [];
  for (const sel of sels) {
    document.querySelectorAll(sel).forEach((e, k) => {
      const r = e.getBoundingClientRect();
      if (r.width >= 1 && r.height >= 1) boxes.push([`${sel}#${e.dataset.seat || k}`, r]);
    });
  }
  const bad = [];
  const at = (r) => `[${[r.left, r.top, r.right, r.bottom].map(Math.round).join(", ")}]`;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, r] = boxes[i], [b, q] = boxes[j];
      if (r.left < q.right - 0.5 && q.left < r.right - 0.5 && r.top < q.bottom - 0.5 && q.top < r.bottom - 0.5)
        bad.push(`${a} ${at(r)} overlaps ${b} ${at(q)}`);
    }
  }
  return {bad, shown: boxes.length};
}"""
"""The pairs of boxes (of the elements each selector finds, those shown) that overlap."""

FELT_PARTS = ["#felt .seat", "#trump-chip", "#hand-no", "#felt .felt-tools .tool", "#trick .slot .card"]
"""What sits on the felt, the trick's cards too: no two may overlap."""


def no_overlap(page: Any, sels: list[str], at_least: int) -> None:
    """No two of the elements shown overlap, and at least ``at_least`` of them are shown."""
    r = page.evaluate(OVERLAPS, sels)
    assert r["bad"] == [], r["bad"]
    assert r["shown"] >= at_least, r


def hints_offered(page: Any, phone: bool = False) -> None:
    """The hints advise this position (every game and position now: the double deck's and
    Napoleon's at six and seven seats by truncated search): the frame says so, and the seat to act
    has a Hint button, a phone's in the felt's corner, a desktop's in the hints box."""
    assert page.evaluate("() => window.euchreTable.state.d.hints") is True
    assert page.locator("#hint-quick" if phone else "#hint-button").is_visible()
    assert "No hints here yet" not in page.inner_text("#hint-note")


def my_turn(page: Any, timeout: float = 30_000) -> dict[str, Any]:
    """Wait until this page's seat is to act (its buttons or cards enabled)."""
    page.wait_for_function(
        """() => { const t = window.euchreTable; const v = t && t.state && t.state.d.view;
             return v && v.legal.length && !t.pending && t.state.d.status === 'playing' &&
                    document.querySelectorAll('[data-action]:not([disabled])').length > 0; }""", timeout=timeout)
    s = peek(page)
    assert s is not None
    return s


def seats_inside(page: Any, n: int, width: int) -> None:
    """Every seat is on the felt and inside the screen."""
    seats = page.locator("#felt .seat")
    assert seats.count() == n
    for i in range(n):
        box = seats.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (i, box)


def test_a_hand_at_seven_seats_on_a_phone(pages: Pages) -> None:
    t = bots_table(pages.server, "Nora", 11, preset="napoleon", level="easy", players=7)
    page = pages.page(name="Nora", **PHONE_KW)
    page.goto(t["url"])
    wait_connected(page)
    seats_inside(page, 7, PHONE["width"])
    led = bid = False
    for _ in range(200):
        s = my_turn(page)
        d = page.evaluate("() => window.euchreTable.state.d")
        v = d["view"]
        assert len(d["scores"]) == 7 and page.inner_text("#score").count("\u2013") == 6
        no_overlap(page, FELT_PARTS, 8)  # seven seats and the hand's number, the trump chip once made
        hints_offered(page, phone=True)
        if v["phase"] == "auction":
            # the bids are buttons, exactly the legal ones, in the engine's words
            assert sorted(s["actions"]) == sorted(s["legal"]) and "pass" in s["legal"], s
            status = page.inner_text("#status")
            assert status.startswith("Your turn: ") and ", or pass." in status, status
            for a in s["legal"]:
                if a in ("misere", "nap", "wellington", "blucher"):
                    label = page.locator(f'#bids [data-action="{a}"]').inner_text().strip()
                    assert label.lower() == d["legal_words"][a].lower(), (label, d["legal_words"][a])
            fits(page)
            if not bid:
                pages.shot(page, "auction")
            top = [a for a in ("blucher", "wellington", "nap") if a in s["legal"]]
            choice = top[0] if top else "pass"
            bid = bid or choice != "pass"
            act(page, choice)
            continue
        if v["phase"] == "lead":
            # the bidder leads any card, and the page says its suit becomes trump
            assert page.locator("#lead-caption").inner_text().startswith("You lead: the suit led is trump")
            status = page.inner_text("#status")
            assert status.startswith("You won the bid (") and "its suit becomes trump" in status, status
            assert d["high_bid"] and d["high_bid"] in page.inner_text("#high-bid-value, #status")
            assert d["high_bid"] in page.inner_text('.seat[data-seat="0"] .badges')
            assert sorted(s["actions"]) == sorted(f"play {c}" for c in v["hand"])
            fits(page)
            pages.shot(page, "lead")
            card = v["hand"][0]
            act(page, f"play {card}")
            page.wait_for_function("(s) => { const v = window.euchreTable.state.d.view; return v.trump === s; }",
                                   arg=card[-1])
            chip = page.inner_text("#trump-chip")
            assert "Trump" in chip, chip
            led = True
            pages.shot(page, "trump-led")
            break
        act(page, s["actions"][0])
    assert led, "the seat never won a bid"
    # play the rest of the hand (the trick's cards, up to seven, overlap no seat and no other
    # card), then the score of every player
    most = 0
    for _ in range(10):
        d = page.evaluate("() => window.euchreTable.state.d")
        if d["result"] is not None and d["result"]["hand"] == 0:
            break
        s = my_turn(page)
        page.wait_for_function("() => !document.getAnimations().some((a) => a.playState === 'running')")
        no_overlap(page, FELT_PARTS, 8)
        most = max(most, page.locator("#trick .slot .card").count())
        act(page, s["actions"][0])
    assert most >= 4, most  # tricks of several cards were checked
    page.wait_for_function("() => { const d = window.euchreTable.state.d; return d.result && d.result.hand === 0; }")
    d = page.evaluate("() => window.euchreTable.state.d")
    want = " \u2013 ".join(f"\u2212{-x}" if x < 0 else str(x) for x in d["scores"])
    assert page.inner_text("#score") == want and "\u2212" in want, (page.inner_text("#score"), d["scores"])
    assert sum(d["scores"]) == 0
    row = page.locator("#score-table tbody tr").first.inner_text()
    assert d["result"]["bid_words"] in row, row
    seats_inside(page, 7, PHONE["width"])
    pages.shot(page, "hand-over")


def test_three_and_five_seats_on_a_desktop(pages: Pages) -> None:
    for players in (3, 5, 6):
        t = bots_table(pages.server, "Ned", players, preset="napoleon", level="easy", players=players)
        page = pages.page(name="Ned", viewport=DESKTOP)
        page.goto(t["url"])
        wait_connected(page)
        s = my_turn(page)
        seats_inside(page, players, DESKTOP["width"])
        no_overlap(page, FELT_PARTS, players + 1)
        assert page.locator("#hints-box").is_visible()
        hints_offered(page)  # the bids too, at six seats by truncated search
        assert s["actions"]
        pages.shot(page, f"desktop-{players}")
        phone = pages.page(name="Ned", **PHONE_KW)
        phone.goto(t["url"])
        wait_connected(phone)
        my_turn(phone)
        seats_inside(phone, players, PHONE["width"])
        no_overlap(phone, FELT_PARTS, players + 1)
        hints_offered(phone, phone=True)
        fits(phone)
        pages.shot(phone, f"phone-{players}")


def hints_answered(page: Any) -> None:
    """Stand in for the server's hints (a seven-seat hint's search takes a second or more, and its
    points depend on the deal): the page's socket is routed through this test, which marks every
    state frame ``hints: true`` and answers a ``hint`` itself, at once, each legal action in its
    words with made-up points, as the server's hint frame would. The rest passes through
    unchanged."""
    legal: dict[str, str] = {}

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("t") != "hint":
                server.send(message)
                return
            items = [{"action": a, "words": w, "points": round(1.0 - 0.7 * i, 2), "stderr": 0.05, "even": False}
                     for i, (a, w) in enumerate(legal.items())]
            ws.send(json.dumps({"t": "hint", "d": items}))

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("t") == "state":
                frame["d"]["hints"] = True
                legal.clear()
                legal.update(frame["d"].get("legal_words") or {})
                message = json.dumps(frame)
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    page.route_web_socket("**/ws/**", route)


def test_the_hint_strip_at_seven_seats_on_a_phone(pages: Pages) -> None:
    """The hints at a Napoleon table of seven: the Hint button sits in the felt's bottom row over no
    seat, and the strip of answers above the hand, in the engine's words for Napoleon's bids, with
    the hand, the bids and the status all still in the window and nothing over them."""
    t = bots_table(pages.server, "Nora", 11, preset="napoleon", level="easy", players=7)
    page = pages.page(name="Nora", **PHONE_KW)
    hints_answered(page)
    page.goto(t["url"])
    wait_connected(page)
    s = my_turn(page)
    assert page.evaluate("() => window.euchreTable.state.d.hints") is True
    assert page.locator("#hint-quick").is_visible()
    no_overlap(page, FELT_PARTS, 9)  # seven seats, the hand's number and the Hint button
    page.click("#hint-quick")
    page.wait_for_selector("#hint-strip li .pts", timeout=60_000)
    d = page.evaluate("() => window.euchreTable.state.d")
    assert page.locator("#hint-strip li").count() == len(s["legal"]) == len(d["legal_words"])
    strip = page.inner_text("#hint-strip")
    for a in ("misere", "nap"):
        if a in d["legal_words"]:
            assert d["legal_words"][a].lower() in strip.lower(), (a, strip)
    r = page.evaluate(IN_VIEW, [["#hint-strip", True], ["#hand .card", True], ["#bids button", True],
                                ["#status", False], ["#felt .seat", True]])
    assert r["bad"] == [] and r["scrollY"] == 0 and r["mainScroll"] == 0, r
    no_overlap(page, ["#hint-strip", "#hand .card", "#bids button", "#status", "#felt"], 5)
    fits(page)
    pages.shot(page, "hint-strip")
    best = page.get_attribute("#hint-strip li.best", "data-hint-action")
    assert best in s["actions"]
    page.click("#hint-strip-close")
    assert page.locator("#hint-strip").is_hidden()


def test_misere_shows_no_trump(pages: Pages) -> None:
    """This seat bids misère and wins the auction (seed 1, five seats, easy computer players):
    the trump chip says "No trump" (misère has none, and no suit appears on it), the seat's
    badge says it too, and the chip overlaps no seat, on a phone as the hand is played."""
    t = bots_table(pages.server, "Mia", 1, preset="napoleon", level="easy", players=5)
    page = pages.page(name="Mia", **PHONE_KW)
    page.goto(t["url"])
    wait_connected(page)
    for _ in range(20):
        s = my_turn(page)
        v = page.evaluate("() => window.euchreTable.state.d.view")
        if v["phase"] != "auction":
            break
        act(page, "misere" if "misere" in s["legal"] else "pass")
    d = page.evaluate("() => window.euchreTable.state.d")
    v = d["view"]
    assert d["high_bid"] == "misère" and v["bidder"] == 0 and v["trump"] == "n", (d["high_bid"], v)
    chip = page.inner_text("#trump-chip")
    assert chip.strip().startswith("No trump"), chip
    assert not any(sym in chip for sym in "\u2663\u2666\u2665\u2660") and "NT" not in chip, chip
    badges = page.inner_text('.seat[data-seat="0"] .badges')
    assert "no trump" in badges and "misère" in badges and "NT" not in badges, badges
    chip_box, felt = page.locator("#trump-chip").bounding_box(), page.locator("#felt").bounding_box()
    assert chip_box is not None and felt is not None and chip_box["x"] + chip_box["width"] <= felt["x"] + felt["width"]
    # the words fit their chip: nothing runs out of it
    assert page.evaluate("() => { const c = document.getElementById('trump-chip'); "
                         "return c.scrollWidth <= c.clientWidth; }")
    no_overlap(page, FELT_PARTS, 7)
    pages.shot(page, "misere")
    for _ in range(3):  # a few tricks on: still no trump, still nothing over a seat
        s = my_turn(page)
        act(page, s["actions"][0])
        no_overlap(page, FELT_PARTS, 7)
        assert page.inner_text("#trump-chip").strip().startswith("No trump")
    pages.shot(page, "misere-play")


def test_start_page_offers_napoleon_with_its_switches(pages: Pages) -> None:
    page = pages.page(name="Nora")
    page.goto("/")
    page.wait_for_selector('#preset option[value="napoleon"]', state="attached")
    page.select_option("#preset", "napoleon")
    page.wait_for_selector('#rules [data-field="players"]', state="attached")
    fields = page.evaluate(FIELDS)
    assert sorted(fields) == ["deals", "duration", "laps", "match_games", "match_wins", "nap_half_loss", "players",
                              "slam", "target"], fields
    options = page.evaluate("() => [...document.querySelectorAll('#rule-players option')].map((o) => o.value)")
    assert options == ["3", "4", "5", "6", "7"], options
    assert page.input_value("#rule-deals") == "8"
    page.select_option("#rule-players", "7")
    assert page.input_value("#rule-deals") == "14"  # two rounds of deals follow the table's size
    pages.shot(page, "start")
    # American has no players switch
    page.select_option("#preset", "american")
    page.wait_for_selector('#rules [data-field="stick_the_dealer"]', state="attached")
    assert "players" not in page.evaluate(FIELDS) and "nap_half_loss" not in page.evaluate(FIELDS)
    # a game of five opens from the page
    page.select_option("#preset", "napoleon")
    page.wait_for_selector('#rules [data-field="players"]', state="attached")
    page.select_option("#rule-players", "5")
    page.fill("#name", "Nora")
    page.click("#play-now")
    page.wait_for_url("**/table/**")
    wait_connected(page)
    page.wait_for_function("() => { const v = window.euchreTable.state.d.view; return v && v.rules.players === 5; }")
    d = page.evaluate("() => window.euchreTable.state.d")
    assert d["view"]["rules"]["deals"] == 10 and len(d["seats"]) == 5


def test_viewer_replays_a_napoleon_game_of_seven(pages: Pages) -> None:
    rules = Rules.preset("napoleon", players=7)
    game, rng = Game(rules, seed=7), random.Random(7)
    while not game.is_over:
        game.push(rng.choice(game.legal_actions()))
    page = pages.page(**PHONE_KW)
    page.goto("/replay")
    page.wait_for_selector("#upload:not(.hidden)")
    page.fill("#record", notation.dumps(game, players=["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]))
    page.click("#load")
    page.wait_for_selector("#viewer:not(.hidden)")
    page.wait_for_function("() => window.euchreViewer && window.euchreViewer.index === 0")
    assert page.locator(".vseat").count() == 7 and page.locator(".vseat .vcards .card").count() == 35
    assert "5 cards each, 17 unused face down" in page.inner_text("#words")
    t = page.evaluate("() => window.euchreViewer.timeline")
    hand = next(h for h in t["hands"] if h["bid"])
    step = next(i for i in range(hand["first_step"], hand["last_step"] + 1) if t["steps"][i]["kind"] == "play")
    page.evaluate("""(i) => { const r = document.getElementById('slider'); r.value = String(i);
                              r.dispatchEvent(new Event('input', {bubbles: true})); }""", step)
    page.wait_for_function("(i) => window.euchreViewer.index === i", arg=step)
    assert page.inner_text("#high-bid") == hand["bid_words"]
    assert "trump" in page.inner_text("#words")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    pages.shot(page, "lead")
