"""Duplicate matches between bots (``euchre.arena`` and ``euchre arena``): determinism whatever the
number of processes, the exact symmetries duplicate play gives, counts that add up, and the CLI."""

from __future__ import annotations

import itertools
import json
import logging
import math
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from euchre import Action, Rules
from euchre.arena import (
    SPRT_MIN_PAIRS,
    ArenaResult,
    ArenaStatus,
    BackendError,
    BotError,
    Sprt,
    _Tally,
    elo_share,
    run_arena,
    seatings,
    t95,
)
from euchre.bots import Bot, base, register_bot
from euchre.cli import _arena_status_text, main
from euchre.view import PlayerView


def _without_seconds(r: ArenaResult) -> dict[str, object]:
    d = r.to_dict()
    del d["seconds"]
    return d


def test_the_same_seed_gives_the_same_result_whatever_the_jobs() -> None:
    one = run_arena("heuristic", "random", deals=40, seed=5, jobs=1)
    two = run_arena("heuristic", "random", deals=40, seed=5, jobs=2, chunk=1)
    assert _without_seconds(one) == _without_seconds(two)
    assert one.pairs == two.pairs
    assert _without_seconds(run_arena("heuristic", "random", deals=40, seed=6, jobs=1)) != _without_seconds(one)


@pytest.mark.parametrize("preset", ["american", "cut-throat", "two-handed", "british"])
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_a_bot_against_itself_is_exactly_even(preset: str, bot: str) -> None:
    # Bots are seeded by game seed and seat, not by which bot they are: every game of a pair is
    # then played move for move alike with the sides' roles swapped, so the margin is exactly 0.
    r = run_arena(bot, bot, Rules.preset(preset), deals=20, seed=2, jobs=1)
    assert r.margin == 0.0
    assert r.margin_ci == (0.0, 0.0)
    assert r.a.points_per_hand == r.b.points_per_hand
    assert r.win_share == r.even_share == 1 / r.rules.sides
    lo, hi = r.win_share_ci
    assert lo < r.even_share < hi
    assert r.a.games_won == len(r.pairs)
    assert r.b.games_won == len(r.pairs) * (r.rules.sides - 1)


def test_heuristic_beats_random_and_swapping_the_names_negates_everything() -> None:
    r = run_arena("heuristic", "random", deals=60, seed=1, jobs=1)
    ci = r.margin_ci
    assert ci is not None and 0 < ci[0] < r.margin < ci[1]
    assert r.win_share_ci[0] > 0.5
    back = run_arena("random", "heuristic", deals=60, seed=1, jobs=1)
    assert back.margin == -r.margin
    assert back.win_share == 1 - r.win_share
    assert back.a == r.b and back.b == r.a
    assert back.hands_per_seating == r.hands_per_seating[::-1]


@pytest.mark.parametrize("preset", ["american", "cut-throat", "two-handed", "timed"])
def test_counts_add_up(preset: str) -> None:
    rules = Rules.preset(preset, duration=5) if preset == "timed" else Rules.preset(preset)
    deals = 30
    r = run_arena("heuristic", "random", rules, deals=deals, seed=3, jobs=1)
    k = len(seatings(rules.players))
    assert r.games == len(r.pairs) * k
    assert r.hands == sum(r.hands_per_seating) == sum(p.hands for p in r.pairs)
    assert min(r.hands_per_seating) >= deals
    # The run stops at the first pair that brings every seating to ``deals``.
    last = r.pairs[-1]
    before = [h - sum(g.hands for g in last.games if g.seating == s) for s, h in enumerate(r.hands_per_seating)]
    assert min(before) < deals
    assert [p.index for p in r.pairs] == list(range(len(r.pairs)))
    assert r.a.games_won + r.b.games_won + r.shared_games == r.games
    assert r.shared_games == 0  # tie_break is on
    b_sides = rules.sides - 1
    assert r.a.side_hands == r.hands and r.b.side_hands == r.hands * b_sides
    assert r.a.makers.maker_hands + r.b.makers.maker_hands + r.thrown_in == r.hands
    assert math.isclose(r.margin, r.a.points_per_hand - r.b.points_per_hand)
    d = r.to_dict()
    for side in (d["a"], d["b"]):
        assert side["made"] + side["euchred"] == side["maker_hands"]
        assert side["marches"] <= side["made"] and side["loners_made"] <= side["loners"]
        assert side["loner_marches"] <= side["loners_made"]
        for key, value in side.items():
            if key.endswith("_rate"):
                assert 0.0 <= value <= 1.0, key
    if rules.players != 4:
        assert r.a.makers.loners == r.b.makers.loners == 0
    if preset == "timed":
        # A 5-minute game on the simulated clock is two hands, more only to break a tie.
        assert all(g.hands >= 2 for p in r.pairs for g in p.games)
        assert any(g.hands == 2 for p in r.pairs for g in p.games)


def test_fixed_deal_games_and_one_pair() -> None:
    r = run_arena("random", "heuristic", Rules.preset("american", deals=3), deals=1, seed=0, jobs=1)
    assert len(r.pairs) == 1 and r.games == 2
    assert all(g.hands - g.thrown_in >= 3 for g in r.pairs[0].games)
    assert r.margin_ci is None and r.margin_se is None and r.to_dict()["margin_ci95"] is None
    lo, hi = r.win_share_ci
    assert 0.0 <= lo <= r.win_share <= hi <= 1.0


def test_progress_reports_hands_up_to_the_target() -> None:
    calls: list[tuple[int, int]] = []
    run_arena("heuristic", "random", deals=25, seed=0, jobs=1, progress=lambda d, t: calls.append((d, t)))
    assert calls and all(t == 25 for _, t in calls)
    done = [d for d, _ in calls]
    assert done == sorted(done) and done[-1] == 25


def test_t_quantile() -> None:
    assert t95(1) == pytest.approx(12.7062, abs=1e-4)
    assert t95(10) == pytest.approx(2.2281, abs=1e-4)
    assert t95(30) == pytest.approx(2.0423, abs=1e-4)
    assert t95(10_000) == pytest.approx(1.9602, abs=1e-4)
    values = [t95(df) for df in range(1, 200)]
    assert values == sorted(values, reverse=True)


class _Cheat(Bot):
    name = "cheat"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Action:
        return Action.parse("play Jh")  # never legal in the bidding that starts every hand


def test_bad_bots_and_bad_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="unknown bot 'nobody'; known bots: .*heuristic"):
        run_arena("nobody", "random", deals=10, jobs=1)
    with pytest.raises(ValueError, match="deals"):
        run_arena("random", "random", deals=0, jobs=1)
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))  # the registration is undone after the test
    register_bot("cheat", _Cheat, "answers illegal actions")
    with pytest.raises(BotError, match="bot 'cheat' at seat .* not legal"):
        run_arena("cheat", "random", deals=10, jobs=1)


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "heuristic", "random", "--deals", "40", "--json"]) == 0
    out = capsys.readouterr()
    d = json.loads(out.out)
    assert out.err == ""
    for key in ("a", "b", "rules", "seed", "deals", "seatings", "pairs", "games", "hands", "hands_per_seating",
                "thrown_in", "thrown_in_rate", "margin", "margin_se", "margin_ci95", "win_share",
                "win_share_ci95", "even_share", "shared_games", "pairs_swept_by_a", "pairs_swept_by_b",
                "pairs_mixed", "seconds"):
        assert key in d, key
    for key in ("name", "points", "points_per_hand", "games_won", "side_hands", "maker_hands", "bid_rate",
                "make_rate", "euchred_rate", "march_rate", "loner_rate", "loner_success_rate"):
        assert key in d["a"] and key in d["b"], key
    assert d["a"]["name"] == "heuristic" and d["deals"] == 40 and min(d["hands_per_seating"]) >= 40
    lo, hi = d["margin_ci95"]
    assert 0 < lo < d["margin"] < hi


def test_cli_table_with_rule_switches(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "heuristic", "random", "--rules", "cut-throat", "--stick-the-dealer", "--deals", "20",
            "--jobs", "1", "--seed", "4"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "margin A-B" in out and "points per hand" in out and "verdict" in out
    # --deals is the size of the match; the rules' own ``deals`` ending is --game-deals.
    assert main(["arena", "random", "random", "--game-deals", "2", "--deals", "10", "--jobs", "1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["rules"]["deals"] == 2 and d["rules"]["target"] is None and d["margin"] == 0


def test_cli_takes_levels_and_bots_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    """``euchre arena medium easy`` and ``search:{...}`` specs: what a curious player types first."""
    assert main(["arena", "medium", "easy", "--deals", "30", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["a"]["name"] == "medium" and d["b"]["name"] == "easy" and d["margin"] > 0
    tiny = 'search:{"samples": 3, "bid_samples": 2}'
    assert main(["arena", tiny, "heuristic", "--game-deals", "1", "--deals", "2", "--jobs", "1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["a"]["name"] == tiny and d["hands"] >= 2
    # A level with its options changed is another bot; the same level against itself is even.
    assert main(["arena", 'expert:{"samples": 3, "bid_samples": 2}', 'expert:{"samples": 3, "bid_samples": 2}',
                 "--game-deals", "1", "--deals", "2", "--jobs", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["margin"] == 0


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["arena", "nobody", "random"], "argument A: unknown bot 'nobody'; known bots: "),
        (["arena", "random", "nobody"], "argument B: unknown bot 'nobody'"),
        (["arena", "random", "random", "--deals", "0"], "--deals: must be at least 1"),
        (["arena", "random", "random", "--jobs", "0"], "--jobs: must be at least 1"),
        (["arena", "random", "random", "--jobs", "-1"], "--jobs: must be at least 1, not -1"),
        (["arena", "random"], "the following arguments are required: B"),
        (["arena", "random", "random", "--rules", "nope"], "unknown rules preset 'nope'"),
        (["arena", "random", "random", "--rules", "two-handed", "--going-alone"], "going alone (--going-alone)"),
        (["arena", "search:{samples: 5}", "random"], "argument A: bot 'search:{samples: 5}': the options after ':' "
                                                    "are not JSON"),
        (["arena", "random", 'expert:{"sample": 5}'], "argument B: bot 'expert:{\"sample\": 5}': "),
        (["arena", "random", "search:[5]"], "must be a JSON object"),
    ],
)
def test_cli_bad_input_exits_2(argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert fragment in err
    if "known bots" in fragment:  # other tests may register bots of their own: only ours are sure
        assert "heuristic" in err and "search" in err


# --- matches (Rules.match_games / match_wins) ----------------------------------------------------
@pytest.mark.parametrize(("preset", "match"), [("american", {"match_wins": 2}),
                                               ("cut-throat", {"match_games": 3}),
                                               ("two-handed", {"match_wins": 2, "laps": True, "slam": True})])
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_a_bot_against_itself_is_exactly_even_in_matches(preset: str, match: dict[str, object], bot: str) -> None:
    # The matches of a pair are dealt alike and played by the same seat-seeded bots: they are the
    # same match with the roles swapped, so every pair's match score is exactly the even share.
    r = run_arena(bot, bot, Rules.preset(preset, **match), deals=20, seed=2, jobs=1)
    m = r.match
    assert m is not None
    sides = r.rules.sides
    assert m.share == m.even_share == r.even_share == 1 / sides
    assert all(p.match_score == 1 / sides for p in r.pairs)
    assert m.a_won == m.pairs == len(r.pairs) and m.b_won == m.pairs * (sides - 1)
    assert m.pairs_swept_by_a == m.pairs_swept_by_b == 0 and m.pairs_mixed == m.pairs
    lo, hi = m.share_ci
    assert lo < m.even_share < hi
    assert r.margin == 0.0 and r.win_share == r.even_share
    assert m.b_game_wins == m.a_game_wins * (sides - 1)
    assert m.games == r.games and m.matches == len(r.pairs) * len(seatings(r.rules.players))


def test_heuristic_wins_most_matches_against_random() -> None:
    r = run_arena("heuristic", "random", Rules(match_wins=2), deals=150, seed=1, jobs=1)
    m = r.match
    assert m is not None
    assert m.share_ci[0] > 0.5 and m.share > 0.8
    assert m.matches == 2 * len(r.pairs) == m.a_won + m.b_won
    assert 2 <= m.games_per_match <= 3  # first to two wins: two or three games
    assert m.games == r.games == sum(len(p.games) for p in r.pairs)
    assert r.margin_ci is not None and r.margin_ci[0] > 0
    # Every game of every match is in the per-hand and per-game figures.
    assert r.a.games_won + r.b.games_won == r.games
    assert r.a.games_won == m.a_game_wins and r.b.games_won == m.b_game_wins  # no slam
    for p in r.pairs:
        assert [mr.seating for mr in p.matches] == [0, 1]
        for mr in p.matches:
            games = [g for g in p.games if g.seating == mr.seating]
            assert len(games) == mr.games
            assert mr.a_wins == sum(g.a_credit for g in games) and mr.b_wins == mr.games - mr.a_wins
            assert mr.a_credit == (1.0 if mr.a_wins == 2 else 0.0)
    # Swapping the names negates it, pair for pair.
    back = run_arena("random", "heuristic", Rules(match_wins=2), deals=150, seed=1, jobs=1)
    assert back.match is not None and back.match.share == 1 - m.share and back.match.a_won == m.b_won


def test_matches_are_deterministic_whatever_the_jobs() -> None:
    rules = Rules(match_games=3)
    one = run_arena("heuristic", "random", rules, deals=60, seed=5, jobs=1)
    two = run_arena("heuristic", "random", rules, deals=60, seed=5, jobs=2, chunk=1)
    assert _without_seconds(one) == _without_seconds(two)
    assert one.pairs == two.pairs and one.match == two.match
    assert _without_seconds(run_arena("heuristic", "random", rules, deals=60, seed=6, jobs=1)) != _without_seconds(one)
    assert one.match is not None and 3 <= one.match.games_per_match


def test_a_laps_start_is_not_counted_as_points_again() -> None:
    from euchre.arena import _game_result, _play_out
    from euchre.game import Game

    rules = Rules(match_wins=2, laps=True)
    game = Game(rules, seed=11, scores=[7, 3])
    _play_out(game, ["heuristic", "random", "heuristic", "random"])
    g = _game_result(game, (0, 2), 0)
    assert g.a_points == game.scores[0] - 7 and g.b_points == game.scores[1] - 3


def test_without_match_rules_there_is_no_match() -> None:
    r = run_arena("heuristic", "random", deals=20, seed=0, jobs=1)
    assert r.match is None and all(p.matches == () for p in r.pairs)
    assert "match" not in r.to_dict()


def test_a_failing_bot_in_a_match_names_the_match(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    register_bot("cheat", _Cheat, "answers illegal actions")
    with pytest.raises(BotError, match=r"bot 'cheat' at seat .*, match seed \d+, game 1, game seed .* not legal"):
        run_arena("cheat", "random", Rules(match_wins=2), deals=10, jobs=1)


def test_cli_matches(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "heuristic", "random", "--match-wins", "2", "--deals", "150", "--jobs", "1", "--seed", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "match pairs = " in out and "A's share of matches won: " in out and "games per match" in out
    assert "A's share of games won" in out and "margin A-B" in out and "matches won" in out
    assert main([*argv, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    m = d["match"]
    assert d["rules"]["match_wins"] == 2
    assert m["matches"] == 2 * d["pairs"] == m["a_won"] + m["b_won"]
    assert m["games"] == d["games"] and m["games_per_match"] == d["games"] / m["matches"]
    lo, hi = m["share_ci95"]
    assert 0.5 < lo <= m["share"] <= hi <= 1.0 and m["even_share"] == 0.5
    assert m["pairs_swept_by_a"] + m["pairs_swept_by_b"] + m["pairs_mixed"] == d["pairs"]
    # The same seed gives the same numbers.
    assert main([*argv, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    del again["seconds"], d["seconds"]
    assert again == d


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--match-wins", "2", "--game-deals", "3"], "--game-deals: a match (--match-games/--match-wins) is played "
                                                     "in games to a target score"),
        (["--match-wins", "2", "--match-games", "3"], "not both"),
        (["--rules", "timed", "--match-games", "3"], "a match needs games played to a target score"),
        (["--slam"], "slam (--slam): needs a match"),
        (["--match-wins", "0"], "match wins (--match-wins): must be a whole number of games from 1 to 99"),
    ],
)
def test_cli_bad_match_combinations_exit_2(extra: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["arena", "random", "random", "--deals", "5", "--jobs", "1", *extra])
    assert e.value.code == 2
    assert fragment in capsys.readouterr().err


# --- on Ray (issue 18 section 4) -----------------------------------------------------------------
@pytest.fixture(scope="class")
def local_ray() -> Iterator[Any]:
    """A local Ray of two CPUs for the tests of :class:`TestOnRay`, shut down after them (so that no
    other test forks a process connected to Ray)."""
    try:
        import ray
    except ImportError:
        pytest.skip("ray is not installed (the ray extra: pip install -e '.[ray]')")
    if ray.is_initialized():
        pytest.skip("this process is already connected to a Ray cluster")
    try:
        ray.init(num_cpus=2, include_dashboard=False, object_store_memory=100 * 1024**2, log_to_driver=False,
                 logging_level=logging.WARNING)
    except Exception as e:  # pragma: no cover - depends on the machine
        pytest.skip(f"a local Ray cannot start here: {type(e).__name__}: {e}")
    try:
        yield ray
    finally:
        ray.shutdown()


class TestOnRay:
    """``run_arena(ray_address=...)`` and ``euchre arena --ray`` on a local Ray started here."""

    def test_the_same_result_as_one_process(self, local_ray: Any, capsys: pytest.CaptureFixture[str]) -> None:
        one = run_arena("heuristic", "random", deals=40, seed=5, jobs=1)
        # Two workers, tasks of one pair: they finish in any order, the pairs are taken in index order.
        on_ray = run_arena("heuristic", "random", deals=40, seed=5, jobs=2, chunk=1, ray_address="auto")
        assert on_ray.pairs == one.pairs
        assert _without_seconds(on_ray) == _without_seconds(one)
        # The command line: the same JSON with --ray as with --jobs 1.
        argv = ["arena", "heuristic", "random", "--deals", "40", "--seed", "5", "--json"]
        assert main([*argv, "--jobs", "1"]) == 0
        local = json.loads(capsys.readouterr().out)
        assert main([*argv, "--ray", "auto", "--jobs", "2"]) == 0
        remote = json.loads(capsys.readouterr().out)
        del local["seconds"], remote["seconds"]
        assert remote == local
        # Matches and a sequential test stop at the same pair too.
        test = Sprt(0.0, 0.1)
        rules = Rules(match_wins=2)
        a = run_arena("medium", "easy", rules, deals=3000, seed=2, jobs=1, sprt=test)
        b = run_arena("medium", "easy", rules, deals=3000, seed=2, chunk=3, sprt=test, ray_address="auto")
        assert a.pairs == b.pairs and a.sprt == b.sprt and a.match == b.match
        # A connection the run did not open is left open.
        assert local_ray.is_initialized()

    def test_workers_build_bots_by_name(self, local_ray: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        # A bot registered here at run time is not known to Ray's workers, which build bots by name.
        monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
        register_bot("cheat", _Cheat, "answers illegal actions")
        with pytest.raises(BackendError, match=r"failed on a Ray worker: ValueError: unknown bot 'cheat'.*registered"):
            run_arena("cheat", "random", deals=10, ray_address="auto")
        # A failing registered bot fails as on the process pool.
        with pytest.raises(BotError, match="bot 'exec:.*' at seat"):
            run_arena("exec:false", "random", deals=10, ray_address="auto")


def test_ray_not_installed_names_the_extra(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` now raises ImportError
    with pytest.raises(BackendError, match=r"needs the ray package.*pip install 'euchre\[ray\]'"):
        run_arena("random", "random", deals=5, ray_address="auto")
    with pytest.raises(SystemExit) as e:
        main(["arena", "random", "random", "--deals", "5", "--ray", "auto"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "euchre: error: --ray: " in err and "pip install 'euchre[ray]'" in err


# --- sequential testing ------------------------------------------------------------------------------
def _decisions(r: ArenaResult) -> list[str | None]:
    """The test's decision after each pair of ``r``, recomputed from the pairs."""
    assert r.sprt is not None
    tally = _Tally(len(seatings(r.rules.players)))
    out = []
    for p in r.pairs:
        tally.add(p)
        out.append(r.sprt.test.decide(tally.llr(r.sprt.test), tally.pairs))
    return out


def test_sprt_accepts_h1_early_for_heuristic_against_random() -> None:
    test = Sprt(0.0, 0.1)
    r = run_arena("heuristic", "random", deals=1000, seed=0, jobs=1, sprt=test)
    assert r.sprt is not None and r.sprt.decision == "H1"
    assert r.sprt.llr is not None and r.sprt.llr >= test.upper == pytest.approx(math.log(19))
    assert test.lower == pytest.approx(-math.log(19))
    assert max(r.hands_per_seating) < 1000  # stopped long before --deals
    assert r.sprt.pairs == len(r.pairs) >= test.min_pairs
    # It stopped at the first pair where it could decide.
    decided = _decisions(r)
    assert decided[-1] == "H1" and not any(decided[:-1])
    d = r.to_dict()["sprt"]
    assert d == {"unit": "margin", "h0": 0.0, "h1": 0.1, "alpha": 0.05, "beta": 0.05, "min_pairs": SPRT_MIN_PAIRS,
                 "llr": r.sprt.llr, "lower": test.lower, "upper": test.upper, "decision": "H1", "pairs": len(r.pairs)}
    # The Elo test on games won, as fishtest's on game pairs.
    elo = run_arena("heuristic", "random", deals=1000, seed=0, jobs=1, sprt=Sprt(0, 50, unit="elo"))
    assert elo.sprt is not None and elo.sprt.decision == "H1" and max(elo.hands_per_seating) < 1000
    assert elo.to_dict()["sprt"]["h1_share"] == pytest.approx(elo_share(50)) and elo_share(0) == 0.5


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_sprt_accepts_h0_for_a_bot_against_itself(bot: str) -> None:
    # A mirror is exactly even: a difference of half a point per hand is ruled out.
    r = run_arena(bot, bot, deals=1000, seed=1, jobs=1, sprt=Sprt(0.0, 0.5))
    assert r.sprt is not None and r.sprt.decision == "H0"
    assert r.sprt.llr is not None and r.sprt.llr <= r.sprt.test.lower and math.isfinite(r.sprt.llr)
    assert r.margin == 0 and len(r.pairs) == SPRT_MIN_PAIRS
    json.dumps(r.to_dict(), allow_nan=False)  # a finite LLR: plain JSON
    elo = run_arena(bot, bot, deals=1000, seed=1, jobs=1, sprt=Sprt(0, 50, unit="elo"))
    assert elo.sprt is not None and elo.sprt.decision == "H0"


def test_sprt_stops_at_the_same_pair_for_the_same_seed() -> None:
    test = Sprt(0.0, 0.1)
    one = run_arena("medium", "easy", deals=3000, seed=4, jobs=1, sprt=test)
    two = run_arena("medium", "easy", deals=3000, seed=4, jobs=2, chunk=3, sprt=test)
    assert one.sprt is not None and one.sprt.decision is not None
    assert one.sprt == two.sprt and one.pairs == two.pairs
    assert _without_seconds(one) == _without_seconds(two)
    decided = _decisions(one)
    assert decided[-1] == one.sprt.decision and not any(decided[:-1])


def test_sprt_inconclusive_when_deals_runs_out() -> None:
    r = run_arena("medium", "easy", deals=60, seed=0, jobs=1, sprt=Sprt(0.0, 0.02))
    assert r.sprt is not None and r.sprt.decision is None and min(r.hands_per_seating) >= 60
    assert r.sprt.test.lower < (r.sprt.llr or 0.0) < r.sprt.test.upper


def test_sprt_bad_arguments() -> None:
    with pytest.raises(ValueError, match="H0 below H1"):
        Sprt(0.1, 0.0)
    with pytest.raises(ValueError, match="alpha"):
        Sprt(0.0, 0.1, alpha=0.0)
    with pytest.raises(ValueError, match="unit"):
        Sprt(0.0, 0.1, unit="points")
    with pytest.raises(ValueError, match="min_pairs"):
        Sprt(0.0, 0.1, min_pairs=1)
    with pytest.raises(ValueError, match="two sides"):
        run_arena("random", "random", Rules.preset("cut-throat"), deals=5, jobs=1, sprt=Sprt(0, 20, unit="elo"))


def test_cli_sprt(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "240")  # one line a sentence
    argv = ["arena", "heuristic", "random", "--sprt", "0,0.1", "--jobs", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "SPRT on the margin, H0 +0.000 vs H1 +0.100 points per hand (alpha 0.05, beta 0.05)" in out
    assert "H1 accepted after 20 pairs" in out and "is established" in out and "bounds [-2.94, +2.94]" in out
    assert main(["arena", "random", "random", "--sprt", "0,0.5", "--alpha", "0.1", "--beta", "0.2", "--jobs", "1",
                 "--json"]) == 0
    t = json.loads(capsys.readouterr().out)["sprt"]
    assert t["decision"] == "H0" and t["alpha"] == 0.1 and t["beta"] == 0.2
    assert t["lower"] == pytest.approx(math.log(0.2 / 0.9)) and t["upper"] == pytest.approx(math.log(0.8 / 0.1))
    assert main(["arena", "random", "random", "--sprt", "0,0.5", "--jobs", "1"]) == 0
    assert "H0 accepted after 20 pairs: a difference of +0.500 points per hand is ruled out" in capsys.readouterr().out
    assert main(["arena", "heuristic", "random", "--sprt-elo", "0,50", "--jobs", "1"]) == 0
    assert "SPRT on games won, H0 +0.0 Elo (50.0%) vs H1 +50.0 Elo (57.1%)" in capsys.readouterr().out
    assert main(["arena", "medium", "easy", "--sprt=-0.5,0.02", "--deals", "30", "--jobs", "1"]) == 0
    assert "inconclusive after" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--sprt", "0.1,0"], "--sprt: H0 must be below H1"),
        (["--sprt", "0.1"], "--sprt: give two numbers H0,H1"),
        (["--sprt=-1e308,1e308"], "--sprt: H0 and H1 must be points per hand from -24 to 24"),  # (LLR was NaN)
        (["--sprt", "0,inf"], "--sprt: H0 and H1 must be points per hand from -24 to 24"),
        (["--sprt-elo", "nan,10"], "--sprt-elo: H0 and H1 must be Elo"),
        (["--sprt", "0,0.1", "--sprt-elo", "0,10"], "not both"),
        (["--alpha", "0.1"], "--alpha: is the error rate of a sequential test"),
        (["--sprt", "0,0.1", "--beta", "0.7"], "--beta: must be above 0 and below 0.5"),
        (["--sprt-elo", "0,20", "--rules", "cut-throat"], "--sprt-elo: Elo is between two sides"),
        (["--sprt-elo", "0,5000"], "--sprt-elo: an Elo test's H0 and H1 are from -1000 to 1000, got 0.0 and 5000.0"),
    ],
)
def test_cli_bad_sprt_exits_2(extra: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["arena", "random", "random", "--deals", "5", "--jobs", "1", *extra])
    assert e.value.code == 2
    assert fragment in capsys.readouterr().err


# --- progress --------------------------------------------------------------------------------------
def test_status_shows_the_running_numbers() -> None:
    seen: list[ArenaStatus] = []
    test = Sprt(0.0, 0.1)
    r = run_arena("medium", "easy", Rules(match_wins=2), deals=3000, seed=2, jobs=1, sprt=test, status=seen.append)
    assert [s.pairs for s in seen] == list(range(1, len(r.pairs) + 1))
    assert [s.games for s in seen] == list(itertools.accumulate(len(p.games) for p in r.pairs))
    assert all(s.matches == 2 * s.pairs and s.total == 3000 for s in seen)
    assert seen[0].margin_ci is None and seen[0].llr is None
    last = seen[-1]
    assert last.hands == r.hands and last.done == min(r.hands_per_seating)
    assert last.margin == pytest.approx(r.margin) and last.win_share == pytest.approx(r.win_share)
    assert r.margin_ci is not None and last.margin_ci == pytest.approx(r.margin_ci)
    assert r.sprt is not None and last.llr == r.sprt.llr and last.sprt == test
    assert last.seconds_left == 0.0
    assert all(s.seconds_left is not None and s.seconds_left >= 0 for s in seen)
    assert all(a.seconds <= b.seconds for a, b in itertools.pairwise(seen))
    text = _arena_status_text(seen[len(seen) // 2])
    mid = seen[len(seen) // 2]
    assert mid.margin_ci is not None and mid.llr is not None
    assert f"{mid.matches} matches, {mid.games} games" in text
    assert f"margin {mid.margin:+.3f} [{mid.margin_ci[0]:+.3f}, {mid.margin_ci[1]:+.3f}]" in text
    assert f"LLR {mid.llr:+.2f} (-2.94, +2.94)" in text and text.endswith(" left")
    # Without a test, the time left is from the hands still to play at the rate so far.
    plain: list[ArenaStatus] = []
    run_arena("heuristic", "random", deals=60, seed=0, jobs=1, status=plain.append)
    first = plain[0]
    assert first.seconds_left == pytest.approx(first.seconds * (60 - first.done) / first.done)
    assert "LLR" not in _arena_status_text(first) and "matches" not in _arena_status_text(first)


def test_cli_progress_bar_shows_games_margin_and_time_left(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich draws the bar as on a terminal
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["arena", "medium", "easy", "--sprt", "0,0.1", "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert "hands" in err and " games · margin +" in err and "LLR " in err and " left" in err


def test_ctrl_c_stops_a_parallel_arena_without_the_workers_tracebacks() -> None:
    """Ctrl-C reaches every process of the terminal's group: the workers used to print their
    KeyboardInterrupt tracebacks (7 runs in 8) over the arena's own "interrupted"."""
    import os
    import signal
    import subprocess
    import time
    from pathlib import Path

    for wait in (0.5, 1.5):
        p = subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "euchre", "arena", "heuristic", "random",
                              "--deals", "100000", "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, start_new_session=True)
        children = Path(f"/proc/{p.pid}/task/{p.pid}/children")
        deadline = time.monotonic() + 60
        while len(children.read_text().split()) < 2:  # the workers are up: the run is under way
            assert time.monotonic() < deadline and p.poll() is None
            time.sleep(0.05)
        time.sleep(wait)
        os.killpg(p.pid, signal.SIGINT)
        try:
            out, _ = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:  # (say where it hangs: every process's threads, by faulthandler)
            os.killpg(p.pid, signal.SIGABRT)
            out, _ = p.communicate(timeout=60)
            pytest.fail(f"the arena did not stop within 120 s of Ctrl-C; its stacks:\n{out[-20000:]}")
        assert p.returncode == 130, out[-2000:]
        assert "Traceback" not in out and "ForkPoolWorker" not in out, out[-2000:]


def test_a_parallel_arena_takes_ctrl_c_only_between_results() -> None:
    """While the pool runs, Ctrl-C in the parent only sets a flag, raised as KeyboardInterrupt
    between two waits for a result (never inside the pool's code, whose locks it could leave
    taken); the workers ignore it; the parent's own handler is back once the run ends."""
    import os
    import signal
    import time

    from euchre.arena import _local_pairs

    def children() -> set[int]:
        # (every thread's: the pool may fork a worker from its own thread)
        out: set[int] = set()
        for task in os.listdir(f"/proc/{os.getpid()}/task"):
            try:
                out |= {int(x) for x in open(f"/proc/{os.getpid()}/task/{task}/children").read().split()}
            except OSError:
                pass
        return out

    before = children()
    handler = signal.getsignal(signal.SIGINT)
    pairs = _local_pairs("random", "random", Rules(), 3, 2, 1)
    first = next(pairs)
    workers = children() - before  # (only the pool's: never signal another test's processes)
    assert len(workers) == 2
    for k in workers:
        os.kill(k, signal.SIGINT)
    time.sleep(0.3)
    assert all(os.path.exists(f"/proc/{k}") for k in workers)  # ignored by the workers
    assert next(pairs).index == first.index + 1
    os.kill(os.getpid(), signal.SIGINT)  # the parent's Ctrl-C: raised at the next result, not here
    with pytest.raises(KeyboardInterrupt):
        for _ in range(1000):
            next(pairs)
    assert signal.getsignal(signal.SIGINT) is handler
    deadline = time.monotonic() + 30
    while any(os.path.exists(f"/proc/{k}") and open(f"/proc/{k}/stat").read().split()[2] != "Z" for k in workers):
        assert time.monotonic() < deadline  # the pool ended its workers
        time.sleep(0.05)
