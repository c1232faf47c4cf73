"""The replay timeline (``euchre.replay``), the terminal step viewer (``euchre replay FILE --step``)
and the server's replay API (``/api/games/{id}/replay``, ``POST /api/replay``)."""

from __future__ import annotations

import asyncio
import io
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from server_support import Client, Live, fresh_database, serve

from euchre import Game, Rules, egn, notation
from euchre.analyze import analyze_game, count_decisions
from euchre.bots import make_bot
from euchre.cards import Card
from euchre.cli import main
from euchre.describe import hand_result_words
from euchre.replay import UP_CARD_WORDS, build_timeline, game_over_words, timeline_of_record
from euchre.view import PlayerView

EGN_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "egn"
NAMES = ["Ann", "Bob", "Cy", "Di"]


def bots_game(seed: int = 11, rules: Rules | None = None) -> Game:
    """A whole game between heuristic players (seeded: the same game every run)."""
    game = Game(rules or Rules(), seed=seed)
    bots = [make_bot("heuristic", seed=seed * 10 + s) for s in range(game.rules.players)]
    while not game.is_over:
        game.push(bots[game.to_act].choose(game.view(game.to_act)))
    return game


def random_game(seed: int, rules: Rules | None = None) -> Game:
    game = Game(rules or Rules(), seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.push(rng.choice(game.legal_actions()))
    return game


@pytest.fixture(scope="module")
def game() -> Game:
    return bots_game()


# --- the timeline ---------------------------------------------------------------------------------
def test_one_step_per_action_and_per_hand(game: Game) -> None:
    t = build_timeline(game, players=NAMES)
    assert len(t.steps) == len(game.actions()) + len(game.hands)
    assert [s["index"] for s in t.steps] == list(range(len(t.steps)))
    assert len(t.hands) == len(game.hands)
    for hi, (info, hand) in enumerate(zip(t.hands, game.hands, strict=True)):
        first = t.steps[info["first_step"]]
        assert first["kind"] == "deal" and first["hand"] == hi and first["number"] is None
        assert first["words"].startswith(f"Hand {hi + 1}, dealt by {NAMES[hand.dealer]}: the up card is the ")
        steps = t.steps[info["first_step"] + 1:info["last_step"] + 1]
        assert [s["action"] for s in steps] == [str(a) for a in hand.history]
        assert [s["seat"] for s in steps] == hand.seats
        assert [s["number"] for s in steps] == list(range(len(hand.history)))
        assert all(s["hand"] == hi for s in steps)
    assert t.hand_start(2) == t.hands[2]["first_step"] and t.steps[t.hand_start(2)]["hand"] == 2


def test_every_card_face_up_and_accounted_for(game: Game) -> None:
    """At every step the hands face up, the cards played and the buried card are exactly the cards
    dealt (plus the up card once the dealer took it), each once."""
    t = build_timeline(game)
    for s in t.steps:
        hand = game.hands[s["hand"]]
        dealt = Counter(str(c) for cards in hand.deal.hands for c in cards)
        if s["up_fate"] in ("taken", "buried", "played"):
            dealt[s["up_card"]] += 1
        seen = Counter(c for cards in s["hands"] for c in cards)
        seen.update(p["card"] for tr in s["tricks"] for p in tr["plays"])
        seen.update(p["card"] for p in s["trick"])
        if s["discard"]:
            seen[s["discard"]] += 1
        assert seen == dealt, s["index"]
        if s["kind"] == "deal":
            assert [len(h) for h in s["hands"]] == [5] * game.rules.players
            assert s["up_fate"] == "face_up" and not s["bids"] and not s["tricks"] and s["trump"] is None


def test_stepping_reaches_the_final_score_of_the_record(game: Game) -> None:
    rec = notation.loads(notation.dumps(game, players=NAMES))
    t = timeline_of_record(rec)
    assert t.players == NAMES
    last = t.steps[-1]
    assert rec.scores is not None and last["scores"] == list(rec.scores) == t.scores
    assert t.winners == list(rec.winners or ())
    assert last["game_over"] == t.summary and t.summary.startswith("game over: ")
    # in the players' names, as the table says it ("Ann & Cy win"), not the engine's side numbers
    assert game.winner is not None
    winners = " & ".join(NAMES[s] for s in game.rules.seats_of(game.winner))
    assert t.summary.endswith(f", {winners} win") and "side" not in t.summary, t.summary
    assert [s["game_over"] for s in t.steps[:-1]] == [None] * (len(t.steps) - 1)
    # The score moves only at the end of a hand, by that hand's points.
    running = list(game.initial_scores)
    for info, hand in zip(t.hands, game.hands, strict=True):
        assert all(t.steps[i]["scores"] == running for i in range(info["first_step"], info["last_step"]))
        assert hand.points is not None
        running = [a + b for a, b in zip(running, hand.points, strict=True)]
        end = t.steps[info["last_step"]]
        assert end["scores"] == running and end["points"] == list(hand.points) == info["points"]
        assert end["result"] == info["result"] == hand_result_words(PlayerView.of(hand, None), NAMES)
        assert all(t.steps[i]["result"] is None for i in range(info["first_step"], info["last_step"]))


def test_tricks_bids_and_words(game: Game) -> None:
    t = build_timeline(game, players=NAMES)
    for info, hand in zip(t.hands, game.hands, strict=True):
        end = t.steps[info["last_step"]]
        if hand.thrown_in:
            assert end["up_fate"] == "turned_down" and "thrown in" in end["result"] and not end["tricks"]
            continue
        assert len(end["tricks"]) == 5 and sum(end["tricks_won"]) == 5 and not end["trick"]
        assert [tr["winner"] for tr in end["tricks"]] == [tr.winner for tr in hand.tricks]
        assert end["trump"] == "cdhs"[hand.trump] and end["maker"] == hand.maker  # type: ignore[index]
        bids = [s for s in t.steps[info["first_step"]:info["last_step"] + 1] if s["kind"] == "bid"]
        assert [b["words"] for b in end["bids"]] == [s["words"] for s in bids]
    for s in t.steps:
        if s["kind"] == "deal":
            continue
        name = NAMES[s["seat"]]
        assert s["words"].startswith(name + " "), s["words"]
        if s["kind"] == "play":
            card = Card.parse(s["action"].split()[1])
            assert any(w in s["words"] for w in (" leads ", " plays ")), s["words"]
            assert s["words"].endswith(("bower", "Joker", card.name())), s["words"]
        if s["kind"] == "discard":  # every card face up: the buried card is named
            assert s["words"] == f"{name} discards the {Card.parse(s['action'].split()[1]).name()}"
        assert s["choices"] >= 1 and s["up_fate_words"] == UP_CARD_WORDS[s["up_fate"]]


def test_up_card_fates() -> None:
    rules = Rules(target=None, deals=1)
    # seat 1 orders the dealer (seat 0) up; the dealer buries the up card itself, then plays on.
    g = Game(rules, seed=5, dealer=0)
    g.push("order")
    up = str(g.state.up_card)
    g.push(f"discard {up}")
    while not g.is_over:
        g.push(g.legal_actions()[0])
    t = build_timeline(g)
    assert [s["up_fate"] for s in t.steps[:4]] == ["face_up", "taken", "buried", "buried"]
    assert t.steps[2]["discard"] == up and up not in t.steps[2]["hands"][0]
    # everyone passes in round 1: the up card is turned down
    g = Game(rules, seed=5, dealer=0)
    for _ in range(4):
        g.push("pass")
    g.push("call " + next(s for s in "cdhs" if s != str(g.state.up_card)[1]))
    t = build_timeline(g)
    assert t.steps[4]["up_fate"] == "turned_down" and t.steps[5]["up_fate"] == "turned_down"


def test_review_rides_on_the_steps_of_decisions() -> None:
    g = random_game(3, Rules(target=None, deals=1))
    review = analyze_game(g, players=NAMES, samples=4, bid_samples=4)
    t = build_timeline(g, players=NAMES, review=review)
    assert t.analyzed and t.to_dict()["analyzed"]
    reviewed = [s for s in t.steps if s["review"] is not None]
    assert len(reviewed) == count_decisions(g) == len(review.decisions)
    assert all(s["choices"] > 1 for s in reviewed)
    assert all(s["review"] is None for s in t.steps if s["choices"] == 1 or s["kind"] == "deal")
    for s, d in zip(reviewed, review.decisions, strict=True):
        assert (s["hand"], s["number"], s["seat"], s["action"]) == (d.hand, d.number, d.seat, str(d.action))
        assert s["review"]["mark"] == d.mark and s["review"]["best"] == str(d.best)
        assert s["review"]["options"][0]["action"] == str(d.best) and all(o["words"] for o in s["review"]["options"])
    assert not build_timeline(g).analyzed


@pytest.mark.skipif(not EGN_DIR.exists(), reason="shared EGN data not present")
def test_an_egn_record() -> None:
    rec = egn.load(EGN_DIR / "VWEC Finals.egn")
    t = timeline_of_record(rec)
    game = rec.replay()
    assert t.players == rec.players and len(t.steps) == len(game.actions()) + len(game.hands)
    assert rec.scores is not None and t.steps[-1]["scores"] == list(rec.scores)


def test_other_table_sizes() -> None:
    for preset in ("cut-throat", "two-handed"):
        g = random_game(2, Rules.preset(preset, target=3))
        t = build_timeline(g)
        n = g.rules.players
        assert len(t.steps) == len(g.actions()) + len(g.hands)
        assert all(len(s["hands"]) == n and len(s["tricks_won"]) == n for s in t.steps)
        assert t.steps[-1]["scores"] == g.scores and len(t.sides) == g.rules.sides


def test_the_double_deck() -> None:
    """Bid Euchre's double deck replays (it was refused by name): twelve cards a seat at the deal,
    every card of the 24-card pack twice, each named by its card (a second copy is never told
    apart); at every step of a hand without a moon the hands face up and the cards played are
    exactly the cards dealt, copies counted; bids of 6 to 12; the game's final score."""
    from euchre.replay import REPLAYED_GAMES

    rules = Rules.preset("bid-euchre-double")
    assert rules.sister_game in REPLAYED_GAMES
    g = random_game(5, rules)
    t = build_timeline(g, players=NAMES)
    assert len(t.steps) == len(g.actions()) + len(g.hands) and t.scores == list(g.scores)
    for info, hand in zip(t.hands, g.hands, strict=True):
        deal = t.steps[info["first_step"]]
        assert [len(h) for h in deal["hands"]] == [12] * 4 and "12 cards each, every card dealt" in deal["words"]
        dealt = Counter(str(c) for cards in hand.deal.hands for c in cards)
        assert len(dealt) == 24 and set(dealt.values()) == {2}, dealt
        assert all(len(c) == 2 and c[0] in "9TJQKA" and c[1] in "cdhs" for c in dealt)
        if hand.moon:
            continue  # (the moon's gift and discard move a card: test_server_bid_euchre covers them)
        for st in t.steps[info["first_step"]:info["last_step"] + 1]:
            seen = Counter(c for cards in st["hands"] for c in cards)
            seen.update(p["card"] for tr in st["tricks"] for p in tr["plays"])
            seen.update(p["card"] for p in st["trick"])
            assert seen == dealt, st["index"]
        end = t.steps[info["last_step"]]
        assert len(end["tricks"]) == 12 and 6 <= end["bid"] <= 12
    assert any(not h.moon for h in g.hands)


# --- the terminal -----------------------------------------------------------------------------------------
def step_typing(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], path: Path,
                typed: str, *extra: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(["replay", str(path), "--step", *extra])
    return code, capsys.readouterr().out


def test_terminal_step_viewer_keys(game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.toml"
    notation.save(game, path, players=NAMES)
    t = build_timeline(game, players=NAMES)
    total = len(t.steps)
    code, out = step_typing(monkeypatch, capsys, path, "\nn\nb\nh 3\nzz\nh 99\ne\nn\nq\n")
    assert code == 0
    titles = [line for line in out.splitlines() if "· step " in line]
    steps = [int(line.split("· step ")[1].split()[0]) for line in titles]
    h3 = t.hand_start(2) + 1
    assert steps == [1, 2, 3, 2, h3, total], titles
    assert "Hand 1 of" in titles[0] and "the deal" in titles[0] and "Hand 3 of" in titles[4]
    assert t.steps[1]["words"] in out and t.steps[h3 - 1]["words"] in out
    assert "unknown key 'zz'; keys: Enter or n next, b back, h N go to hand N, e end, q quit" in out
    assert f"h needs a hand number from 1 to {len(t.hands)}" in out
    assert "this is the last step" in out and game_over_words(game, NAMES) in out
    # every hand face up at the deal: 20 cards in the seats' rows
    first = out.split("╰")[0]
    for seat, cards in enumerate(t.steps[0]["hands"]):
        row = next(line for line in first.splitlines() if f"│ {seat}     {NAMES[seat]}" in line)
        assert len(cards) == 5 and all(Card.parse(c).symbol() in row for c in cards), row


def test_terminal_step_viewer_ends_at_end_of_input_and_refuses_bad_records(
        game: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.toml"
    notation.save(game, path)
    code, out = step_typing(monkeypatch, capsys, path, "")
    assert code == 0 and out.count("· step ") == 1 and "seat 0" in out
    bad = tmp_path / "bad.toml"
    text = notation.dumps(game).replace('"p1 pass"', '"p1 play Zz"', 1)
    bad.write_text(text, encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["replay", str(bad), "--step"]) == 1
    assert "invalid record" in capsys.readouterr().err


def test_terminal_step_viewer_shows_marks_when_analysed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    g = random_game(3, Rules(target=None, deals=1))
    path = tmp_path / "one.toml"
    notation.save(g, path)
    code, out = step_typing(monkeypatch, capsys, path, "\n" * 40 + "q\n", "--analyze")
    assert code == 0
    assert "✓ best or within noise" in out or "(best: " in out


# --- the server ----------------------------------------------------------------------------------------------
async def play_out(c: Client, rng: random.Random) -> None:
    """Act at random whenever this connection's frame offers a choice, until the game is over."""
    acted = -1
    while c.state is None or c.state["status"] != "over":
        view = c.state["view"] if c.state else None
        if view and view["legal"] and c.v > acted:
            acted = c.v
            await c.send({"t": "act", "id": f"r{c.v}", "action": rng.choice(view["legal"]), "v": c.v})
        await c.recv(10)


def finished_table(srv: Live, seed: int = 1) -> str:
    t = srv.create(mode="bots", rules={"target": 1}, name="Ana")

    async def scenario() -> None:
        c = await Client.connect(srv.ws(t["id"]), t["token"])
        await c.until("state")
        await asyncio.wait_for(play_out(c, random.Random(seed)), 60)
        await c.close()

    asyncio.run(scenario())
    table_id: str = t["id"]
    return table_id


def check_error(r: Any, status: int, code: str, words: str = "") -> None:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert body["error"] == code and words in body["message"], body


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with serve(fresh_database("sqlite", tmp_path_factory.mktemp("replay-db"))) as live:
        yield live


def test_api_replay_of_a_finished_game_only(srv: Live) -> None:
    waiting = srv.create(mode="friends")
    check_error(srv.http.get(f"/api/games/{waiting['id']}/replay"), 409, "not_over", "once the game is over")
    check_error(srv.http.get("/api/games/nosuchtable1/replay"), 404, "not_found")
    table_id = finished_table(srv)
    r = srv.http.get(f"/api/games/{table_id}/replay")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    d = r.json()
    rec = notation.loads(srv.http.get(f"/api/tables/{table_id}/record").text)
    game = rec.replay()
    assert d["players"][0] == "Ana" and d["players"] == rec.players
    assert len(d["steps"]) == len(game.actions()) + len(game.hands)
    assert rec.scores is not None and d["steps"][-1]["scores"] == list(rec.scores) == d["scores"]
    assert d["steps"][-1]["game_over"] == game_over_words(game, rec.players) and d["analyzed"] is False
    assert all(len(s["hands"]) == 4 for s in d["steps"]) and sum(map(len, d["steps"][0]["hands"])) == 20
    # the same timeline for the record uploaded, in either format
    up = srv.http.post("/api/replay", json={"record": rec.dumps()})
    assert up.status_code == 200 and up.json() == d
    up = srv.http.post("/api/replay", json={"record": egn.dumps(rec), "format": "egn"})
    assert up.status_code == 200 and up.json()["steps"][-1]["scores"] == d["scores"]
    # the pages
    for path in (f"/replay/{table_id}", "/replay"):
        page = srv.http.get(path, headers={"Accept": "text/html"})
        assert page.status_code == 200 and "viewer.js" in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "/replay/" in srv.http.get("/static/games.js").text


def test_api_replay_upload_errors_are_precise(srv: Live, game: Game) -> None:
    text = notation.dumps(game)
    check_error(srv.http.post("/api/replay", json={"record": ""}), 400, "bad_record", "the record is empty")
    check_error(srv.http.post("/api/replay", json={"record": "garbage"}), 400, "bad_record", "not valid TOML")
    check_error(srv.http.post("/api/replay", json={"record": text, "format": "egn"}), 400, "bad_record",
                "not valid JSON")
    check_error(srv.http.post("/api/replay", json={"record": "{}"}), 400, "bad_record", "fileType")
    illegal = text.replace('"p1 pass"', '"p1 play Zz"', 1)
    check_error(srv.http.post("/api/replay", json={"record": illegal}), 400, "bad_record", "hand 1")
    check_error(srv.http.post("/api/replay", json={"record": text, "format": "pdf"}), 422, "malformed", "format")
    check_error(srv.http.post("/api/replay", json={"record": text, "extra": 1}), 422, "malformed")
    check_error(srv.http.post("/api/replay", json={"text": text}), 422, "malformed", "record")
    r = srv.http.post("/api/replay", content=b"x" * (70 * 1024), headers={"Content-Type": "application/json"})
    assert r.status_code == 413


def test_api_replay_with_analysis(srv: Live) -> None:
    table_id = finished_table(srv, seed=2)
    t0 = time.monotonic()
    r = srv.http.get(f"/api/games/{table_id}/replay?analyze=1", timeout=60)
    first = time.monotonic() - t0
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["analyzed"] is True
    reviewed = [s for s in d["steps"] if s["review"] is not None]
    game = notation.loads(srv.http.get(f"/api/tables/{table_id}/record").text).replay()
    assert len(reviewed) == count_decisions(game) > 0
    assert all(s["review"]["mark"] in ("", "?!", "?", "??") and s["review"]["loss"] >= 0 for s in reviewed)
    assert first < 30
    t0 = time.monotonic()
    again = srv.http.get(f"/api/games/{table_id}/replay?analyze=1")
    assert again.json() == d and time.monotonic() - t0 < first + 0.5  # kept: no second analysis


def test_api_analysis_costs_a_hint_and_is_kept(tmp_path: Path) -> None:
    one = notation.dumps(random_game(3, Rules(target=None, deals=1)))
    other = notation.dumps(random_game(4, Rules(target=None, deals=1)))
    with serve(fresh_database("sqlite", tmp_path), limits=True, hint_limit=1, hint_burst=1) as live:
        first = live.http.post("/api/replay?analyze=1", json={"record": one}, timeout=60)
        assert first.status_code == 200 and first.json()["analyzed"] is True
        # the same record again: kept, so no hint is spent
        assert live.http.post("/api/replay?analyze=1", json={"record": one}).json() == first.json()
        r = live.http.post("/api/replay?analyze=1", json={"record": other})
        check_error(r, 429, "rate", "try again in")
        assert int(r.headers["Retry-After"]) >= 1
        # a replay without analysis costs nothing
        plain = live.http.post("/api/replay", json={"record": other})
        assert plain.status_code == 200 and plain.json()["analyzed"] is False


def test_many_replays_at_once_are_worked_out_one_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Thirty uploads at once took the processor from the tables (a ping at another table went
    from 1 ms to 0.9 s): replays are worked out on one thread, a few may wait, the rest are told
    503 ``busy``; one address has one analysis at a time."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from euchre.server import replay_api

    busy = {"now": 0, "most": 0}
    lock = threading.Lock()

    def slow(text: str, fmt: str | None, analyze: bool, game: int | None = None) -> bytes:
        with lock:
            busy["now"] += 1
            busy["most"] = max(busy["most"], busy["now"])
        time.sleep(1.5 if analyze else 0.8)  # (long enough for every request to arrive meanwhile)
        with lock:
            busy["now"] -= 1
        return b'{"analyzed": %s}' % (b"true" if analyze else b"false")

    monkeypatch.setattr(replay_api, "_timeline_json", slow)
    with serve(fresh_database("sqlite", tmp_path), limits=True, hint_limit=60, hint_burst=10) as live:
        def upload(k: int, analyze: bool = False) -> int:
            return live.http.post(f"/api/replay{'?analyze=1' if analyze else ''}", json={"record": f"# {k}"},
                                  timeout=30).status_code

        with ThreadPoolExecutor(12) as pool:
            codes = list(pool.map(upload, range(12)))
        assert busy["most"] == 1
        assert codes.count(200) >= 1 and set(codes) <= {200, 503} and 503 in codes, codes
        assert upload(0) == 200  # kept: answered at once, whatever is running
        with ThreadPoolExecutor(2) as pool:
            both = sorted(pool.map(lambda k: upload(100 + k, True), range(2)))
        assert both == [200, 429], both


def test_api_replays_an_emn_match_as_the_server_exports_it(srv: Live) -> None:
    """The match download (EMN) could not be uploaded back: 'read it with euchre.egn.load_match'."""
    from euchre.match import Match

    match = Match(Rules(match_games=2), seed=3)
    rng = random.Random(3)
    while not match.is_over:
        match.game.push(rng.choice(match.game.legal_actions()))
        match.settle()
    text = egn.dumps_match(notation.MatchRecord.from_match(match, players=["A", "B", "C", "D"]))
    for fmt in (None, "egn"):
        r = srv.http.post("/api/replay?game=2", json={"record": text, "format": fmt})
        assert r.status_code == 200, r.text
        m = r.json()["match"]
        assert (m["shown"], m["count"]) == (2, len(match.games))
        assert [g["scores"] for g in m["games"]] == [list(g.scores) for g in match.games]
    check_error(srv.http.post("/api/replay?game=9", json={"record": text}), 400, "bad_record", "there is no game 9")
