"""Bid Euchre (preset ``bid-euchre``, RULES-FAMILY.md 15) at the server's tables, over the
WebSocket API: a whole game against computer players with every frame checked (the auction's
bids and the moon as legal actions with their words, the stuck dealer without a pass, the high
bid and ``moon``, trump named in the game's words, both sides' trick points, the winner) and
scanned for leaks; a moon hand played seat by seat, twice (high, where the partner chooses the
gift, and a suit, where the engine gives the partner's highest trump), with the gift and the
discard seen only by the two seats; illegal and out-of-turn actions refused in the engine's words
with nothing changed; the records, the refused EGN export and the replay API (Napoleon: test_server_napoleon).

The server runs in this process (``server_support.serve``) on SQLite, as in ``test_server_api``.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

from server_support import Client, Live, fresh_database, friends, reply, run, seated, serve, sync
from test_server_leaks import check_frames, truth_of

from euchre import Game, notation
from euchre.actions import MOON
from euchre.rules import Rules

PRESET = "bid-euchre"
BIDS = {"pass", "moon"} | {f"bid {n}" for n in range(3, 7)}
NAMES = {f"call {s}" for s in "cdhs"} | {"call n", "call low"}
TRUMP_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades", "n": "high", "low": "low"}


def check_state(d: dict[str, Any], seat: int | None) -> None:
    """What every state frame of a Bid Euchre table must say (see docs/server.md)."""
    assert d["hand_size"] == 6 and d["preset"] == PRESET and d["trump_names"] == TRUMP_NAMES
    v = d["view"]
    if v is None:
        return
    assert v["up_card"] is None and not v["up_card_taken"] and v["discard"] is None
    assert v["rules"]["bid_euchre"] is True
    assert "moon" not in v  # the view is the protocol's (view_to_dict); the frame says the moon
    moon = d["moon"]
    assert moon == (v["bid"] == 7) == any(a["action"] == "moon" for a in v["actions"]), (d["moon"], v)
    if seat is not None:
        got = sum(1 for g in v["gifts"] if g["receiver"] == seat)
        gave = sum(1 for g in v["gifts"] if g["giver"] == seat)
        mine = [a["action"] for a in v["actions"] if a["seat"] == seat and a["action"]]
        discarded = sum(1 for a in mine if a.startswith("discard "))
        played = sum(1 for a in mine if a.startswith("play "))
        assert len(v["hand"]) == 6 + got - gave - discarded - played, v
    else:
        assert v["hand"] == [] and v["legal"] == []
    assert sum(v["tricks_won"]) == len(v["tricks"]) <= 6
    legal = v["legal"]
    if v["phase"] == "auction" and legal:
        assert set(legal) <= BIDS, legal
        bids = [int(a.split()[1]) for a in legal if a.startswith("bid ")]
        assert all(n > v["bid"] for n in bids), (legal, v["bid"])
        stuck = v["to_act"] == v["dealer"] and v["bidder"] is None
        assert ("pass" in legal) != stuck, (legal, v)  # the stuck dealer has no pass
        assert ("moon" in legal) == (not moon), legal
        if stuck:
            assert any("dealer is stuck" in n for n in d["notes"]), d["notes"]
    if v["phase"] == "name_trump":
        assert v["to_act"] == v["bidder"] and v["bid"] >= 3 and v["trump"] is None
        if legal:
            assert set(legal) == NAMES, legal
    if moon and v["trump"] is not None:  # the shooter plays alone: the partner sits out
        assert v["alone"] and v["sitting_out"] == [(v["maker"] + 2) % 4], v
    if legal:  # every legal action comes with its words
        assert set(d["legal_words"]) == set(legal), d["legal_words"]
        if "moon" in legal:
            assert d["legal_words"]["moon"] == "shoot the moon (every trick, alone)"
        if "call n" in legal:
            assert d["legal_words"]["call n"] == "name high (no trump, aces high)"
            assert d["legal_words"]["call low"] == "name low (no trump, nines high)"
    else:
        assert d["legal_words"] == {}


# --- the start page's options ------------------------------------------------------
def test_options_offer_bid_euchre(tmp_path: Path) -> None:
    with serve(fresh_database("sqlite", tmp_path)) as srv:
        presets = {p["name"]: p for p in srv.http.get("/api/options").json()["presets"]}
        be = presets[PRESET]
        assert be["rules"]["bid_euchre"] is True and be["served"] is True and be["title"] == "Bid Euchre"
        assert sorted(set(be["rules"]) - set(be["fixed"])) == ["laps", "match_games", "match_wins", "slam", "target"]
        assert presets["hasenpfeffer"]["served"] and presets["american"]["served"]
        assert srv.post_table(mode="bots", preset=PRESET, rules={"target": 50}).status_code == 201
        r = srv.post_table(mode="bots", preset=PRESET, rules={"stick_the_dealer": True})
        assert r.status_code == 400 and r.json()["error"] == "bad_rules", r.text
        assert "Bid Euchre" in r.json()["message"]


# --- a whole game against computer players ---------------------------------------------------------------
def test_a_whole_game_against_computers(tmp_path: Path) -> None:
    with serve(fresh_database("sqlite", tmp_path)) as srv:
        created = srv.create(mode="bots", preset=PRESET, name="Bea", rules={"target": 20})
        table_id = created["id"]
        seen = {"auction": 0, "name_trump": 0, "bids": 0, "moon": 0}

        async def scenario() -> tuple[Client, Client]:
            rng = random.Random(15)
            me = await Client.connect(srv.ws(table_id), created["token"], name="Bea")
            watcher = await Client.connect(srv.ws(table_id), None)
            n = acted = 0
            while True:
                f = await me.recv(30)
                if f["t"] == "err":
                    raise AssertionError(f)
                if f["t"] != "state":
                    continue
                d = f["d"]
                check_state(d, 0)
                if d["status"] == "over":
                    break
                v = d["view"]
                if d["moon"]:
                    seen["moon"] += 1
                if v is None or not v["legal"] or f["v"] != me.v or f["v"] <= acted:
                    continue  # (a frame of presence repeats the version: act once on it)
                acted = f["v"]
                seen[v["phase"]] = seen.get(v["phase"], 0) + 1
                # bid now and then, shoot the moon once in a while
                legal = v["legal"]
                bids = [a for a in legal if a.startswith("bid ") and int(a.split()[1]) <= 4]
                if "moon" in legal and rng.random() < 0.2:
                    action = "moon"
                elif bids and rng.random() < 0.5:
                    action = rng.choice(bids)
                else:
                    action = rng.choice([a for a in legal if a != "moon"] or legal)
                if v["phase"] == "auction" and action != "pass":
                    seen["bids"] += 1
                n += 1
                await me.send({"t": "act", "id": f"a{n}", "action": action, "v": f["v"]})
            while True:  # the spectator saw the whole game too
                f = await watcher.recv(30)
                if f["t"] == "state":
                    check_state(f["d"], None)
                    if f["d"]["status"] == "over":
                        break
            await me.close()
            await watcher.close()
            return me, watcher

        me, watcher = run(scenario(), timeout=180)
        assert seen["auction"] > 0 and seen["name_trump"] > 0 and seen["bids"] > 0, seen
        final = me.state
        assert final is not None and final["status"] == "over" and len(final["winners"]) == 1
        history = final["history"]
        assert history and all(h["bid"] is not None for h in history), history  # no hand is thrown in
        # both sides score their tricks, but a made moon: the defenders get nothing
        for h in history:
            maker = h["maker_side"]
            if h["moon"]:
                assert h["points"][maker] in (12, -12), h
            elif h["outcome"] == "euchred":
                assert h["points"][maker] == -h["bid"] and h["points"][1 - maker] == 6 - h["tricks"], h
            else:
                assert h["points"] == ([h["tricks"], 6 - h["tricks"]] if maker == 0 else [6 - h["tricks"], h["tricks"]])
        # the winner made its bid or set the makers on the last hand, and holds the target
        last = history[-1]
        won = final["winners"][0]
        made = last["outcome"] != "euchred"
        assert won == (last["maker_side"] if made else 1 - last["maker_side"]) or min(final["scores"]) <= -20, last
        assert final["result"]["words"]

        row = srv.stored_row(table_id)
        truth = truth_of(row)
        assert check_frames(me.frames, 0, truth) == []
        assert check_frames(watcher.frames, None, truth) == []
        game = truth.game
        assert game is not None and game.is_over and list(game.scores) == final["scores"]

        # the record, the refused EGN and the replay
        r = srv.http.get(f"/api/tables/{table_id}/record")
        assert r.status_code == 200
        replayed = notation.loads(r.text).replay()
        assert replayed.rules.bid_euchre and replayed.scores == game.scores
        r = srv.http.get(f"/api/tables/{table_id}/record", params={"format": "egn"})
        assert r.status_code == 409 and r.json()["error"] == "not_exportable", r.text
        assert "Bid Euchre" in r.json()["message"] and "moon" in r.json()["message"]
        # ... which the table and the list of games say, so the pages offer no EGN download
        assert final["egn"] is False
        assert [g["egn"] for g in srv.http.get("/api/games").json()["games"] if g["id"] == table_id] == [False]
        r = srv.http.get(f"/api/games/{table_id}/replay")
        assert r.status_code == 200, r.text
        check_timeline(r.json(), game)


def check_timeline(t: dict[str, Any], game: Game) -> None:
    """The replay of a Bid Euchre game: no up card, every card dealt, the auction in its bids,
    the moon and trump in the game's words, six tricks."""
    assert t["rules"]["bid_euchre"] and len(t["hands"]) == len(game.hands)
    assert len(t["steps"]) == len(game.actions()) + len(game.hands)
    for hand, played in zip(t["hands"], game.hands, strict=True):
        deal = t["steps"][hand["first_step"]]
        assert deal["kind"] == "deal" and "6 cards each, every card dealt" in deal["words"]
        assert [len(h) for h in deal["hands"]] == [6, 6, 6, 6]
        last = t["steps"][hand["last_step"]]
        assert len(last["tricks"]) == 6 and hand["bid"] == last["bid"] >= 3
        assert hand["moon"] == played.moon == last["moon"]
        assert last["trump_words"] == TRUMP_NAMES[hand["trump"]]
        if hand["moon"]:
            assert len(last["gifts"]) == 1 and last["gifts"][0]["discard"] is not None
            assert last["gifts"][0]["receiver"] == hand["maker"]
            assert "moon" in hand["result"]
    for st in t["steps"]:
        assert st["up_card"] is None and st["up_fate"] is None and st["hand_size"] == 6
    assert t["scores"] == list(game.scores)


# --- a moon, seat by seat -----------------------------------------------------------------------------------
def view_of(c: Client) -> dict[str, Any]:
    d = c.state
    assert d is not None and d["view"] is not None
    return d["view"]  # type: ignore[no-any-return]


async def refused(srv: Live, table_id: str, clients: list[Client],
                  tries: list[tuple[int, str, str, str | None]]) -> None:
    """Each ``(seat, action, code, message)`` is refused so (``message`` ``None``: any), and nothing
    changed: the version stands and no state frame went out."""
    before = srv.version(table_id)
    frames = [len(x.frames) for x in clients]
    for n, (seat, action, code, message) in enumerate(tries):
        f = await reply(clients[seat], {"t": "act", "id": f"r{before}-{n}", "action": action, "v": before})
        assert (f["t"], f["code"]) == ("err", code), (action, f)
        if message is not None:
            assert f["message"] == message, (action, f)
    assert srv.version(table_id) == before
    for x, old in zip(clients, frames, strict=True):
        await x.send({"t": "ping"})
        await x.until("pong", timeout=5)
        assert [m for m in x.frames[old:] if '"t":"state"' in m.replace(" ", "")] == []
        assert x.v == before


def test_a_moon_hand_seat_by_seat(tmp_path: Path) -> None:
    with serve(fresh_database("sqlite", tmp_path)) as srv:
        table_id, tokens = friends(srv, PRESET, target=200)
        ids = itertools.count()

        async def act(clients: list[Client], seat: int, action: str) -> None:
            c = clients[seat]
            f = await reply(c, {"t": "act", "id": f"a{next(ids)}", "action": action, "v": c.v})
            assert f["t"] == "ack", (action, f)
            await sync(clients, f["v"])
            for s, x in enumerate(clients):
                check_state(x.state, s)  # type: ignore[arg-type]

        async def moon_hand(clients: list[Client], pick_trump: Any) -> dict[str, Any]:
            v = view_of(clients[0])
            assert v["phase"] == "auction" and v["bid"] == 0 and v["bidder"] is None
            dealer = v["dealer"]
            shooter = (dealer + 1) % 4
            partner, left, right = (shooter + 2) % 4, (shooter + 1) % 4, (shooter + 3) % 4
            # out of turn, and bids Bid Euchre does not have
            legal = "pass, bid 3, bid 4, bid 5, bid 6, moon"
            await refused(srv, table_id, clients, [
                (left, "moon", "not_your_turn", None),
                (shooter, "bid 2", "illegal", f"a bid is 3 to 6 tricks in Bid Euchre; you may: {legal}"),
                (shooter, "bid 7", "illegal", f"a bid is 3 to 6 tricks in Bid Euchre; you may: {legal}"),
                (shooter, "call h", "illegal", f"call h is not possible: it is the bidding; you may: {legal}"),
            ])
            await act(clients, shooter, "moon")
            for x in clients:
                w = view_of(x)
                assert (w["bid"], w["bidder"], x.state["moon"]) == (7, shooter, True), w  # type: ignore[index]
            assert view_of(clients[left])["legal"] == ["pass"]  # nothing beats the moon
            await refused(srv, table_id, clients, [
                (left, "bid 6", "illegal", "nothing beats the moon; you may: pass"),
                # (the engine's words for a second moon are not checked: state.py says "these rules
                # have no moon" there, reported to the engine's owner)
                (left, "moon", "illegal", None)])
            for seat in (left, partner, right):
                await act(clients, seat, "pass")
            w = view_of(clients[shooter])
            assert w["phase"] == "name_trump" and set(w["legal"]) == NAMES
            trump = pick_trump(clients, shooter, partner)
            await act(clients, shooter, f"call {trump}")
            for x in clients:
                w = view_of(x)
                assert w["trump"] == trump and w["alone"] and w["sitting_out"] == [partner], w
            return {"shooter": shooter, "partner": partner, "others": [left, right]}

        async def give_and_discard(clients: list[Client], seats: dict[str, Any], chosen: bool) -> tuple[str, str]:
            shooter, partner, others = seats["shooter"], seats["partner"], seats["others"]
            if chosen:  # high or low, or no trump held: the partner chooses (the others see call for best)
                w = view_of(clients[partner])
                assert w["phase"] == "give" and w["to_act"] == partner
                assert set(w["legal"]) == {f"give {c}" for c in w["hand"]}, w
                assert (view_of(clients[shooter])["phase"], view_of(clients[shooter])["to_act"]) == ("give", partner)
                for s in others:
                    o = view_of(clients[s])
                    assert (o["phase"], o["to_act"], o["legal"], o["gifts"]) == ("call_for_best", None, [], []), o
                foreign = next(c for c in view_of(clients[shooter])["hand"])
                await refused(srv, table_id, clients, [
                    (shooter, f"discard {foreign}", "not_your_turn", None),
                    (others[0], "pass", "not_your_turn", None),
                    (partner, f"discard {w['hand'][0]}", "illegal", "no discard now: it is call for best: the "
                     "partner's choice of a card to give; you may: " + ", ".join(w["legal"])),
                    (partner, "pass", "illegal", None)])
                card = w["hand"][0]
                await act(clients, partner, f"give {card}")
            else:  # the engine gave the partner's highest trump: no decision
                card = view_of(clients[partner])["gifts"][0]["card"]
            # the shooter holds seven and discards one; only the two know the gift
            w = view_of(clients[shooter])
            assert w["phase"] == "best_discard" and w["to_act"] == shooter and len(w["hand"]) == 7 and card in w["hand"]
            assert w["gifts"] == [{"giver": partner, "receiver": shooter, "card": card, "discard": None}]
            p = view_of(clients[partner])
            assert p["gifts"] == [{"giver": partner, "receiver": shooter, "card": card, "discard": None}]
            assert card not in p["hand"] and len(p["hand"]) == 5
            for s in others:
                o = view_of(clients[s])
                assert (o["phase"], o["to_act"], o["gifts"]) == ("call_for_best", None, []), o
            await refused(srv, table_id, clients, [
                (partner, f"discard {card}", "not_your_turn", None),
                (shooter, f"play {card}", "illegal", None)])
            discard = w["hand"][-1]
            await act(clients, shooter, f"discard {discard}")
            for s, x in enumerate(clients):
                o = view_of(x)
                # the shooter leads
                assert o["phase"] == "play" and o["to_act"] == shooter and o["leader"] == shooter, o
                want = {"giver": partner, "receiver": shooter, "card": None, "discard": None}
                if s == shooter:
                    want = {**want, "card": card, "discard": discard}
                elif s == partner:
                    want = {**want, "card": card}
                assert o["gifts"] == [want], (s, o["gifts"])
                assert discard not in str(o["actions"]) or s == shooter or discard == card and s == partner
            return card, discard

        async def play_out(clients: list[Client]) -> dict[str, Any]:
            hand = view_of(clients[0])["hand_number"]
            while True:
                d = clients[0].state
                assert d is not None
                if d["result"] is not None and d["result"]["hand"] == hand:
                    return d
                v = view_of(clients[0])
                seat = v["to_act"]
                await act(clients, seat, view_of(clients[seat])["legal"][0])

        async def scenario() -> None:
            clients = await seated(srv, table_id, tokens)
            # hand 1: the moon in high; the partner chooses the card
            seats = await moon_hand(clients, lambda cs, s, p: "n")
            await give_and_discard(clients, seats, chosen=True)
            d = await play_out(clients)
            r = d["result"]
            assert r["moon"] and r["bid"] == 7 and r["maker"] == seats["shooter"] and r["trump"] == "n", r
            assert "shot the moon" in r["words"] and "(high;" in r["words"], r["words"]
            side = seats["shooter"] % 2
            if r["outcome"] == "march":
                assert r["points"][side] == 12 and r["points"][1 - side] == 0
            else:
                assert r["points"][side] == -12 and r["points"][1 - side] == 6 - r["maker_tricks"]
            assert d["history"][-1]["moon"] is True
            # hand 2: the moon in a suit the partner holds: the engine gives its highest trump
            def suit_held(cs: list[Client], shooter: int, partner: int) -> str:
                hand = view_of(cs[partner])["hand"]
                return next(c[1] for c in hand if c[0] != "J")  # a suit the partner holds
            seats = await moon_hand(clients, suit_held)
            await give_and_discard(clients, seats, chosen=False)
            await play_out(clients)
            truth = truth_of(srv.stored_row(table_id))
            for s, x in enumerate(clients):
                assert check_frames(x.frames, s, truth) == []

        run(scenario(), timeout=180)


def test_the_stuck_dealer_must_bid(tmp_path: Path) -> None:
    with serve(fresh_database("sqlite", tmp_path)) as srv:
        table_id, tokens = friends(srv, PRESET)

        async def scenario() -> None:
            clients = await seated(srv, table_id, tokens)
            v = view_of(clients[0])
            dealer = v["dealer"]
            for k in range(1, 4):
                c = clients[(dealer + k) % 4]
                f = await reply(c, {"t": "act", "id": f"p{k}", "action": "pass", "v": c.v})
                assert f["t"] == "ack", f
                await sync(clients, f["v"])
            d = clients[dealer].state
            assert d is not None
            assert d["view"]["legal"] == ["bid 3", "bid 4", "bid 5", "bid 6", "moon"]
            assert d["notes"] == ["The dealer is stuck: everyone else passed, so you must bid (no pass)."]
            await refused(srv, table_id, clients, [
                (dealer, "pass", "illegal",
                 "the dealer is stuck: when all pass, the dealer must bid; you may: bid 3, bid 4, bid 5, bid 6, moon"),
                ((dealer + 1) % 4, "bid 3", "not_your_turn", None)])
            c = clients[dealer]
            f = await reply(c, {"t": "act", "id": "b", "action": "bid 3", "v": c.v})
            assert f["t"] == "ack", f
            await sync(clients, f["v"])
            for x in clients:
                w = view_of(x)
                got = (w["phase"], w["bid"], w["bidder"], x.state["moon"], w["to_act"])  # type: ignore[index]
                assert got == ("name_trump", 3, dealer, False, dealer), w

        run(scenario())


# --- the replay of a moon ----------------------------------------------------------------------------------
def test_the_replay_api_shows_the_moon(tmp_path: Path) -> None:
    """An uploaded record with a moon in high: the full replay shows the gift and the discard
    face up, worded as the two seats know them; the moon and "high" in the hand's facts."""
    rules = Rules.preset(PRESET)
    rng = random.Random(2)
    game = Game(rules, seed=2)
    game.push(MOON)
    while game.state.phase.name == "AUCTION":
        game.push(game.state.parse_action("pass"))
    game.push(game.state.parse_action("call n"))
    while not game.is_over:
        game.push(rng.choice(game.legal_actions()))
    with serve(fresh_database("sqlite", tmp_path)) as srv:
        r = srv.http.post("/api/replay", json={"record": notation.dumps(game, players=["Ann", "Bo", "Cy", "Di"])})
        assert r.status_code == 200, r.text
        t = r.json()
    check_timeline(t, game)
    hand = t["hands"][0]
    assert hand["moon"] and hand["trump"] == "n" and hand["alone"]
    steps = t["steps"][hand["first_step"]:hand["last_step"] + 1]
    shooter, partner = hand["maker"], (hand["maker"] + 2) % 4
    names = t["players"]
    assert steps[1]["words"] == f"{names[shooter]} shoots the moon" and steps[1]["moon"]
    named = next(s for s in steps if s["action"] == "call n")
    assert named["words"] == f"{names[shooter]} names high" and named["phase"] == "give"
    gift = next(s for s in steps if s["action"] and s["action"].startswith("give "))
    card = gift["action"].split()[1]
    assert gift["seat"] == partner and gift["words"].startswith(f"{names[partner]} gives {names[shooter]} the ")
    assert gift["gifts"] == [{"giver": partner, "receiver": shooter, "card": card, "chosen": True, "discard": None}]
    assert card in gift["hands"][shooter] and len(gift["hands"][shooter]) == 7 and len(gift["hands"][partner]) == 5
    discard = next(s for s in steps if s["kind"] == "discard")
    assert discard["seat"] == shooter and discard["words"].startswith(f"{names[shooter]} discards the ")
    assert discard["gifts"][0]["discard"] == discard["action"].split()[1] and discard["sitting_out"] == [partner]
    assert [b["words"] for b in discard["bids"]][-2:] == [named["words"], gift["words"]]
