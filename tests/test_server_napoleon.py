"""Napoleon (preset ``napoleon``, RULES-FAMILY.md 16) at the server's tables, over the WebSocket
API: whole games against computer players at three and at seven seats with every frame checked
(one side a seat, the auction's bids as legal actions in the engine's words, the high bid in
words, the bidder's first lead fixing trump as a suit, every player's score, zero-sum) and
scanned for leaks (the unused rest of the pack is never named); illegal and out-of-turn bids
refused in the engine's words with nothing changed; the records, the refused EGN export and the
replay API.

The server runs in this process (``server_support.serve``) on SQLite, as in ``test_server_api``.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from server_support import Client, Live, fresh_database, reply, run, serve
from test_server_leaks import CARD_RE, check_frames, truth_of

from euchre import Game, notation
from euchre.errors import IllegalActionError
from euchre.rules import Rules

PRESET = "napoleon"
BIDS = {"pass", "bid 2", "bid 3", "misere", "bid 4", "nap", "wellington", "blucher"}
BID_WORDS = {1: "2 tricks", 2: "3 tricks", 3: "misère", 4: "4 tricks", 5: "Nap", 6: "Wellington", 7: "Blücher"}


def check_state(d: dict[str, Any], seat: int | None, players: int) -> None:
    """What every state frame of a Napoleon table must say (see docs/server.md)."""
    assert d["preset"] == PRESET and d["hand_size"] == 5
    assert d["sides"] == [[s] for s in range(players)] and len(d["seats"]) == players
    assert len(d["scores"]) == players and sum(d["scores"]) == 0, d["scores"]  # zero-sum
    v = d["view"]
    if v is None:
        return
    # the tables offer hints where the search plays (euchre.hints.hintable): every decision, the
    # bids and the first trick of six and seven seats too (by truncated search)
    assert d["hints"] is True, (d["hints"], players, len(v["tricks"]))
    assert v["rules"]["napoleon"] and v["rules"]["players"] == players and v["up_card"] is None
    assert len(v["tricks_won"]) == players and sum(v["tricks_won"]) == len(v["tricks"]) <= 5
    # the high bid in words, the same for everyone
    assert d["high_bid"] == (BID_WORDS[v["bid"]] if v["bidder"] is not None else ""), (d["high_bid"], v["bid"])
    played = [a["action"] for a in v["actions"] if a["seat"] == seat and a["action"].startswith("play ")]
    if seat is not None:
        assert len(v["hand"]) == 5 - len(played), v
    else:
        assert v["hand"] == [] and v["legal"] == []
    legal = v["legal"]
    if v["phase"] == "auction":
        assert v["trump"] is None and set(legal) <= BIDS, legal
    if v["phase"] == "lead":  # the bidder's first lead: any card, and its suit becomes trump
        assert v["to_act"] == v["bidder"] == v["maker"] and v["trump"] is None and v["tricks"] == []
        if legal:
            assert sorted(legal) == sorted(f"play {c}" for c in v["hand"])
            assert all(w.startswith("lead the ") for w in d["legal_words"].values()), d["legal_words"]
    if v["tricks"] or v["trick"]:
        first = (v["tricks"][0]["plays"] if v["tricks"] else v["trick"])[0]["card"]
        # trump is the suit of the first card led (misère: "n", no trump)
        assert v["trump"] == ("n" if v["bid"] == 3 else first[-1]), (v["trump"], first, v["bid"])
    if legal:
        assert set(d["legal_words"]) == set(legal), d["legal_words"]
    else:
        assert d["legal_words"] == {}


def unused_never_named(raw_frames: list[str], game: Game) -> None:
    """No frame names a card of the unused rest of the pack of its hand (played or not, it never
    left the stock)."""
    unused = [{str(c) for c in h.deal.stock} for h in game.hands]
    dealt = [{str(c) for hand in h.deal.hands for c in hand} for h in game.hands]
    everything = set().union(*dealt)
    for raw in raw_frames:
        cards = set(CARD_RE.findall(raw))
        # a card never dealt in the whole game
        assert not cards - everything, (cards - everything, raw[:300])
    assert all(u and not (u & d) for u, d in zip(unused, dealt, strict=True))


def bot_game(srv: Live, players: int, seed: int, deals: int | None = None) -> None:
    """A whole game against computer players; ``deals`` shortens it (else the default ending)."""
    rules: dict[str, Any] = {"players": players} if deals is None else {"players": players, "deals": deals}
    created = srv.create(mode="bots", preset=PRESET, name="Nell", rules=rules)
    table_id = created["id"]
    seen: dict[str, int] = {}

    async def scenario() -> tuple[Client, Client]:
        rng = random.Random(seed)
        me = await Client.connect(srv.ws(table_id), created["token"], name="Nell")
        watcher = await Client.connect(srv.ws(table_id), None)

        async def watch() -> None:  # the spectator sees the whole game too (read as it goes: seven
            while True:             # seats make more frames than a connection may fall behind by)
                f = await watcher.recv(30)
                if f["t"] == "state":
                    check_state(f["d"], None, players)
                    if f["d"]["status"] == "over":
                        return

        watching = asyncio.create_task(watch())
        n = acted = 0
        while True:
            f = await me.recv(30)
            if f["t"] == "err":
                raise AssertionError(f)
            if f["t"] != "state":
                continue
            d = f["d"]
            check_state(d, 0, players)
            if d["status"] == "over":
                break
            v = d["view"]
            if v is None or not v["legal"] or f["v"] != me.v or f["v"] <= acted:
                continue
            acted = f["v"]
            seen[v["phase"]] = seen.get(v["phase"], 0) + 1
            legal = v["legal"]
            bids = [a for a in legal if a != "pass"]
            action = rng.choice(bids) if v["phase"] == "auction" and bids and rng.random() < 0.5 else rng.choice(legal)
            n += 1
            await me.send({"t": "act", "id": f"a{n}", "action": action, "v": f["v"]})
        await watching
        await me.close()
        await watcher.close()
        return me, watcher

    me, watcher = run(scenario(), timeout=240)
    assert seen.get("auction", 0) > 0 and seen.get("play", 0) > 0, seen
    final = me.state
    assert final is not None and final["status"] == "over"
    history = final["history"]
    played = [h for h in history if not h["thrown_in"]]
    # the ending: 2 x players played hands by default (and on while the leaders tie)
    assert len(played) >= (2 * players if deals is None else deals), len(played)
    for h in played:
        assert h["bid_words"] == BID_WORDS[h["bid"]] and h["maker"] == h["maker_side"], h
        v = {2: 3, 4: 4}.get(h["bid"], {1: 2, 3: 3, 5: 10, 6: 20, 7: 40}.get(h["bid"]))
        assert v is not None
        made = h["outcome"] != "euchred"
        want = [(-v if made else v)] * players
        want[h["maker"]] = v * (players - 1) * (1 if made else -1)
        assert h["points"] == want, h
    top = max(final["scores"])
    assert final["winners"] == [final["scores"].index(top)] and final["scores"].count(top) == 1
    assert final["result"]["words"]

    row = srv.stored_row(table_id)
    truth = truth_of(row)
    assert check_frames(me.frames, 0, truth) == []
    assert check_frames(watcher.frames, None, truth) == []
    game = truth.game
    assert game is not None and game.is_over and list(game.scores) == final["scores"]
    unused_never_named(me.frames + watcher.frames, game)

    # the record, the refused EGN and the replay
    r = srv.http.get(f"/api/tables/{table_id}/record")
    assert r.status_code == 200
    replayed = notation.loads(r.text).replay()
    assert replayed.rules.napoleon and replayed.scores == game.scores
    r = srv.http.get(f"/api/tables/{table_id}/record", params={"format": "egn"})
    assert r.status_code == 409 and r.json()["error"] == "not_exportable", r.text
    assert "Napoleon" in r.json()["message"]
    r = srv.http.get(f"/api/games/{table_id}/replay")
    assert r.status_code == 200, r.text
    check_timeline(r.json(), game)
    # the statistics: one row a player
    stats = srv.http.get("/api/stats").json()
    assert len([p for p in stats["players"] if p["kind"] == "bot"]) >= 1


def check_timeline(t: dict[str, Any], game: Game) -> None:
    """The replay of a Napoleon game: every seat's five cards face up (the unused rest is no part
    of it), the bids in words, trump fixed by the first lead."""
    players = game.rules.players
    assert t["rules"]["napoleon"] and len(t["players"]) == players and t["sides"] == [[s] for s in range(players)]
    assert len(t["steps"]) == len(game.actions()) + len(game.hands) and len(t["hands"]) == len(game.hands)
    for hand, played in zip(t["hands"], game.hands, strict=True):
        deal = t["steps"][hand["first_step"]]
        unused = game.rules.deck - 5 * players
        assert deal["kind"] == "deal" and f"5 cards each, {unused} unused face down" in deal["words"]
        assert [sorted(h) for h in deal["hands"]] == [sorted(str(c) for c in h) for h in played.deal.hands]
        stock = {str(c) for c in played.deal.stock}
        for st in t["steps"][hand["first_step"]:hand["last_step"] + 1]:
            assert not stock & {c for h in st["hands"] for c in h}
            assert len(st["scores"]) == players
        if hand["bid"] is not None:
            assert hand["bid_words"] == BID_WORDS[hand["bid"]]
            last = t["steps"][hand["last_step"]]
            assert len(last["tricks"]) == 5 and hand["trump"] is not None
            lead = next(s for s in t["steps"][hand["first_step"]:] if s["kind"] == "play")
            assert lead["seat"] == hand["maker"]
            assert hand["trump"] == ("n" if hand["bid"] == 3 else lead["action"][-1])
    assert t["scores"] == list(game.scores)


def test_options_offer_napoleon_with_its_switches(tmp_path: Path) -> None:
    with serve(fresh_database("sqlite", tmp_path)) as srv:
        presets = {p["name"]: p for p in srv.http.get("/api/options").json()["presets"]}
        nap = presets[PRESET]
        assert nap["served"] is True and nap["rules"]["napoleon"] is True and nap["title"] == "Napoleon"
        assert sorted(set(nap["rules"]) - set(nap["fixed"])) == ["deals", "duration", "laps", "match_games",
                                                                  "match_wins", "nap_half_loss", "players", "slam",
                                                                  "target"]
        for n in (3, 7):
            assert srv.post_table(mode="bots", preset=PRESET, rules={"players": n}).status_code == 201
        r = srv.post_table(mode="bots", preset=PRESET, rules={"players": 8})
        assert r.status_code == 400 and r.json()["error"] == "bad_rules", r.text
        assert "three to seven" in r.json()["message"]
        r = srv.post_table(mode="bots", preset=PRESET, rules={"deck": 52})
        assert r.status_code == 400 and "Rules.deck" in r.json()["message"], r.text


@pytest.mark.parametrize(("players", "seed", "deals"), [(3, 3, None), (7, 7, 4)])
def test_a_whole_game_against_computers(players: int, seed: int, deals: int | None, tmp_path: Path) -> None:
    # (seven seats play four hands: the default fourteen take minutes on a loaded two-core machine)
    with serve(fresh_database("sqlite", tmp_path)) as srv:
        bot_game(srv, players, seed, deals)


def test_bids_out_of_turn_and_illegal_are_refused(tmp_path: Path) -> None:
    """A friends table of five: bids refused in the engine's words (out of turn, below the high
    bid, Wellington before a Nap, a card played in the auction), nothing changed; then the
    bidder's first lead fixes trump for everyone."""
    with serve(fresh_database("sqlite", tmp_path)) as srv:
        created = srv.create(mode="friends", preset=PRESET, rules={"players": 5})
        table_id = created["id"]
        tokens = [created["token"]] + [link["token"] for link in created["links"]]
        assert len(tokens) == 5

        async def scenario() -> None:
            clients = []
            for s, token in enumerate(tokens):
                c = await Client.connect(srv.ws(table_id), token, name=f"P{s}")
                await c.until("state", timeout=10)
                clients.append(c)
            assert srv.start(table_id, tokens[0]).status_code == 200
            for c in clients:
                while c.v < 1:
                    await c.recv(10)
            row = srv.stored_row(table_id)
            engine = truth_of(row).game
            assert engine is not None
            ids = iter(range(1000))

            async def act(seat: int, action: str) -> None:
                c = clients[seat]
                f = await reply(c, {"t": "act", "id": f"a{next(ids)}", "action": action, "v": c.v})
                assert f["t"] == "ack", (action, f)
                engine.push(engine.state.parse_action(action))
                for x in clients:
                    while x.v < f["v"]:
                        await x.recv(10)
                for s, x in enumerate(clients):
                    check_state(x.state, s, 5)  # type: ignore[arg-type]

            async def refused(seat: int, action: str, code: str, message: str | None) -> None:
                before = srv.version(table_id)
                frames = [len(x.frames) for x in clients]
                c = clients[seat]
                f = await reply(c, {"t": "act", "id": f"r{next(ids)}", "action": action, "v": before})
                assert (f["t"], f["code"]) == ("err", code), (action, f)
                if message is not None:
                    assert f["message"] == message, (action, f)
                assert srv.version(table_id) == before
                for x, old in zip(clients, frames, strict=True):
                    await x.send({"t": "ping"})
                    await x.until("pong", timeout=5)
                    assert not [m for m in x.frames[old:] if '"t":"state"' in m.replace(" ", "")]

            def engine_says(action: str) -> str:
                s = engine.state.copy()
                with pytest.raises(IllegalActionError) as e:
                    s.push(s.parse_action(action))
                return str(e.value)

            first = clients[0].state["view"]  # type: ignore[index]
            order = [(first["dealer"] + k) % 5 for k in range(1, 6)]  # the dealer's left first, the dealer last
            a, b, c_, d_, dealer = order
            assert first["to_act"] == a and first["phase"] == "auction"
            assert clients[a].state["view"]["legal"] == ["pass", "bid 2", "bid 3", "misere", "bid 4", "nap"]  # type: ignore[index]
            assert clients[a].state["legal_words"]["misere"] == "bid misère (no trick)"  # type: ignore[index]
            await refused(b, "bid 2", "not_your_turn", f"it is not your turn: P{a} is to act")
            msg = engine_says("wellington")
            assert "Wellington may only be bid over Nap" in msg
            await refused(a, "wellington", "illegal", msg)
            await refused(a, "play " + clients[a].state["view"]["hand"][0], "illegal",  # type: ignore[index]
                          engine_says("play " + clients[a].state["view"]["hand"][0]))  # type: ignore[index]
            await act(a, "bid 3")
            for x in clients:
                assert x.state["high_bid"] == "3 tricks"  # type: ignore[index]
            msg = engine_says("bid 2")
            assert "above the highest so far" in msg
            await refused(b, "bid 2", "illegal", msg)
            await act(b, "misere")
            await act(c_, "pass")
            await act(d_, "pass")
            await act(dealer, "pass")
            for x in clients:  # misère: no trump, at once, and straight to play
                v = x.state["view"]  # type: ignore[index]
                assert (v["phase"], v["to_act"], v["bidder"], v["trump"]) == ("play", b, b, "n"), v
                assert x.state["high_bid"] == "misère"  # type: ignore[index]
            card = clients[b].state["view"]["hand"][0]  # type: ignore[index]
            await refused(c_, "play " + clients[c_].state["view"]["hand"][0], "not_your_turn", None)  # type: ignore[index]
            await act(b, f"play {card}")
            for x in clients:
                assert x.state["view"]["trump"] == "n" and x.state["view"]["trick"][0]["card"] == card  # type: ignore[index]
            truth = truth_of(srv.stored_row(table_id))
            for s, x in enumerate(clients):
                assert check_frames(x.frames, s, truth) == []
                await x.close()

        run(scenario(), timeout=120)


def test_the_first_lead_fixes_trump_for_everyone(tmp_path: Path) -> None:
    """A suit bid: during the lead no trump; once the bidder leads, every seat's frame has the
    suit led as trump (a suit letter, named in words in ``trump_names``)."""
    rules = Rules.preset(PRESET, players=3)
    with serve(fresh_database("sqlite", tmp_path)) as srv:
        created = srv.create(mode="friends", preset=PRESET, rules={"players": 3})
        table_id = created["id"]
        tokens = [created["token"]] + [link["token"] for link in created["links"]]

        async def scenario() -> None:
            clients = []
            for s, token in enumerate(tokens):
                c = await Client.connect(srv.ws(table_id), token, name=f"P{s}")
                await c.until("state", timeout=10)
                clients.append(c)
            assert srv.start(table_id, tokens[0]).status_code == 200
            for c in clients:
                while c.v < 1:
                    await c.recv(10)
            v = clients[0].state["view"]  # type: ignore[index]
            bidder = v["to_act"]
            for k, action in enumerate(["nap", "pass", "pass"]):
                seat = (bidder + k) % rules.players
                c = clients[seat]
                f = await reply(c, {"t": "act", "id": f"b{k}", "action": action, "v": c.v})
                assert f["t"] == "ack", f
                for x in clients:
                    while x.v < f["v"]:
                        await x.recv(10)
            d = clients[bidder].state
            assert d is not None and d["view"]["phase"] == "lead" and d["high_bid"] == "Nap"
            card = d["view"]["hand"][0]
            assert d["legal_words"][f"play {card}"].startswith("lead the ")
            c = clients[bidder]
            f = await reply(c, {"t": "act", "id": "lead", "action": f"play {card}", "v": c.v})
            assert f["t"] == "ack", f
            for x in clients:
                while x.v < f["v"]:
                    await x.recv(10)
                assert x.state["view"]["trump"] == card[-1]  # type: ignore[index]
                assert x.state["trump_names"][card[-1]] in ("clubs", "diamonds", "hearts", "spades")  # type: ignore[index]
            for x in clients:
                await x.close()

        run(scenario())
