"""Game review (``euchre.analyze`` and ``euchre analyze``): which decisions are reviewed, how a loss
and its mark are computed, the totals per player, the JSON form, and the command on our records and
on real EGN files.

Budgets are tiny (a handful of sampled deals per decision), so the numbers are rough; the tests check
the bookkeeping, which holds at any budget.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from euchre import Game, Rules, State, analyze, notation
from euchre.analyze import BLUNDER, MISTAKE, NOISE, Decision, Review, analyze_game, analyze_games, count_decisions
from euchre.bots import make_bot
from euchre.cli import main
from euchre.describe import action_words
from euchre.state import Phase
from euchre.view import PlayerView

EGN_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "egn"
SHORT_EGN = EGN_DIR / "Six Points in Two Hands.egn"  # two hands of a real game
NAMES = ["Ann", "Bob", "Cy", "Di"]
BUDGET = {"samples": 6, "bid_samples": 4}


def short_game(seed: int = 5) -> Game:
    """Two played hands, heuristic players against random ones (who give points away)."""
    game = Game(Rules(target=None, deals=2), seed=seed)
    bots = {s: make_bot("heuristic" if s % 2 else "random", seed=s) for s in range(4)}
    while not game.is_over:
        game.push(bots[game.to_act].choose(game.view(game.to_act)))
    return game


def decision_points(game: Game) -> Iterator[tuple[int, int, State]]:
    """Every (hand, action index, state before the action) of the game, choices or not."""
    for hi, hand in enumerate(game.hands):
        state = State.from_deal(hand.rules, hand.deal)
        for ai, action in enumerate(hand.history):
            yield hi, ai, state.copy()
            state.push(action)


@pytest.fixture(scope="module")
def game() -> Game:
    return short_game()


@pytest.fixture(scope="module")
def review(game: Game) -> Review:
    return analyze_game(game, players=NAMES, **BUDGET)


# --- analyze_game ---------------------------------------------------------------------------------
def test_every_real_decision_is_reviewed_once(game: Game, review: Review) -> None:
    expected = [(hi, ai) for hi, ai, s in decision_points(game) if len(s.legal_actions()) > 1]
    assert [(d.hand, d.number) for d in review.decisions] == expected
    assert count_decisions(game) == len(expected) > 20
    forced = sum(1 for _, _, s in decision_points(game) if len(s.legal_actions()) == 1)
    assert forced > 0  # the last trick at least: forced plays are not reviewed


def test_each_decision_is_the_recorded_one(game: Game, review: Review) -> None:
    states = {(hi, ai): s for hi, ai, s in decision_points(game)}
    for d in review.decisions:
        hand = game.hands[d.hand]
        state = states[(d.hand, d.number)]
        assert d.action == hand.history[d.number] and d.seat == hand.seats[d.number] == state.to_act
        assert d.phase is state.phase
        view = PlayerView.of(state, d.seat)
        assert d.words == action_words(d.action, view) and d.best_words == action_words(d.best, view)
        # Every legal action is valued once, best (most expected points) first.
        assert sorted(e.action for e in d.evaluations) == sorted(state.legal_actions())
        pts = [e.points for e in d.evaluations]
        assert pts == sorted(pts, reverse=True)
        assert d.best == d.evaluations[0].action


def test_losses_are_the_gap_to_the_best(review: Review) -> None:
    for d in review.decisions:
        best = d.evaluations[0].points
        chosen = next(e.points for e in d.evaluations if e.action == d.action)
        gap = best - chosen
        assert gap >= 0 and d.loss >= 0
        assert d.loss == (gap if gap > NOISE else 0.0)
        if d.action == d.best:
            assert d.loss == 0.0 and d.mark == ""
    assert any(d.loss > 0 for d in review.decisions)  # random players do give points away
    assert any(d.loss == 0 for d in review.decisions)


def test_marks_follow_the_thresholds(review: Review) -> None:
    assert 0 < NOISE < MISTAKE < BLUNDER

    def mark(loss: float) -> str:
        return "??" if loss >= BLUNDER else "?" if loss >= MISTAKE else "?!" if loss > NOISE else ""

    for d in review.decisions:
        assert d.mark == mark(d.loss)
    some = review.decisions[0]
    for loss, expected in [(0.0, ""), (NOISE, ""), (NOISE + 0.01, "?!"), (MISTAKE - 0.01, "?!"), (MISTAKE, "?"),
                           (BLUNDER - 0.01, "?"), (BLUNDER, "??"), (3.0, "??")]:
        assert Decision(**{**some.__dict__, "loss": loss}).mark == expected, loss


def test_totals_add_up_per_seat(review: Review) -> None:
    totals = review.seat_totals()
    assert [t["seat"] for t in totals] == [0, 1, 2, 3] and [t["player"] for t in totals] == NAMES
    assert sum(t["decisions"] for t in totals) == len(review.decisions)
    for t in totals:
        mine = [d for d in review.decisions if d.seat == t["seat"]]
        lost = sum(d.loss for d in mine)
        assert t["decisions"] == len(mine)
        assert t["points_lost"] == pytest.approx(lost, abs=1e-3)
        assert t["per_decision"] == pytest.approx(lost / len(mine) if mine else 0.0, abs=1e-4)
        assert t["inaccuracies"] == sum(d.mark == "?!" for d in mine)
        assert t["mistakes"] == sum(d.mark == "?" for d in mine)
        assert t["blunders"] == sum(d.mark == "??" for d in mine)


def test_to_dict_is_json(review: Review) -> None:
    data = review.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["players"] == NAMES and len(data["seats"]) == 4
    assert len(data["decisions"]) == len(review.decisions)
    for d, row in zip(review.decisions, data["decisions"], strict=True):
        assert set(row) == {"hand", "number", "seat", "phase", "action", "words", "best", "best_words", "loss",
                            "mark", "options"}
        assert row["action"] == str(d.action) and row["best"] == str(d.best) and row["mark"] == d.mark
        assert row["phase"] == d.phase.name.lower()
        assert [o["action"] for o in row["options"]] == [str(e.action) for e in d.evaluations]
        assert row["options"][0]["action"] == row["best"]


def test_same_record_same_review(game: Game, review: Review) -> None:
    calls: list[None] = []
    again = analyze_game(game, players=NAMES, progress=lambda: calls.append(None), **BUDGET)
    assert again.to_dict() == review.to_dict()
    assert len(calls) == len(review.decisions)
    unnamed = Review(players=[f"seat {s}" for s in range(4)])
    assert analyze_game(Game(Rules(), seed=1)).players == unnamed.players  # nothing played: nothing to review
    assert analyze_game(Game(Rules(), seed=1)).decisions == []


def test_a_review_on_two_processes_is_the_same_review(game: Game, review: Review) -> None:
    """The decisions shared among worker processes (``jobs``, as ``euchre analyze`` does by
    default) come back in order with the same numbers: each depends on its view and seed alone."""
    calls: list[None] = []
    shared = analyze_game(game, players=NAMES, progress=lambda: calls.append(None), jobs=2, **BUDGET)
    assert shared.to_dict() == review.to_dict()
    assert len(calls) == len(review.decisions)
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        analyze_game(game, jobs=0)


def test_a_match_review_starts_its_processes_once(game: Game, review: Review,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A match's games share one set of worker processes (one pool, not one a game), and each game's
    review is the one it gets alone: the seeds are per game and per decision, not per match."""
    other = short_game(seed=6)
    alone = analyze_game(other, **BUDGET)
    pools: list[int] = []
    real = analyze.process_pool

    def counted(jobs: int) -> Any:
        pools.append(jobs)
        return real(jobs)

    monkeypatch.setattr(analyze, "process_pool", counted)
    calls: list[None] = []
    reviews = analyze_games([(game, NAMES), (other, None), (Game(Rules(), seed=1), None)],
                            progress=lambda: calls.append(None), jobs=2, **BUDGET)
    assert pools == [2]
    assert [r.to_dict() for r in reviews] == [review.to_dict(), alone.to_dict(),
                                              Review(players=[f"seat {s}" for s in range(4)]).to_dict()]
    assert len(calls) == len(review.decisions) + len(alone.decisions)
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        analyze_games([(game, None)], jobs=0)


# --- euchre analyze -------------------------------------------------------------------------------
def test_command_on_our_record(game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "short.toml"
    notation.save(game, path, players=NAMES)
    assert main(["analyze", str(path), "--samples", "4", "--all"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"short.toml: 2 hands, {game.summary()}")
    assert "Expected points given away, per player" in out and all(n in out for n in NAMES)
    assert "see docs/analyze.md" in out
    listed = [line for line in out.splitlines() if line.startswith("hand ")]
    assert len(listed) == count_decisions(game)  # --all lists every decision

    assert main(["analyze", str(path), "--samples", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["file"] == str(path) and len(data["games"]) == 1
    only = data["games"][0]
    assert only["players"] == NAMES and len(only["decisions"]) == count_decisions(game)
    assert sum(s["decisions"] for s in only["seats"]) == count_decisions(game)


@pytest.mark.skipif(not SHORT_EGN.exists(), reason="shared EGN data not present")
def test_command_on_a_real_egn_game(capsys: pytest.CaptureFixture[str]) -> None:
    record = notation.load(SHORT_EGN)
    game = record.replay()
    assert main(["analyze", str(SHORT_EGN), "--samples", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{SHORT_EGN.name}: {len(game.hands)} hands, {game.summary()}")
    assert all(name in out for name in record.players)
    # Without --all only the costly decisions are listed, each with its mark and the better choice.
    for line in (ln for ln in out.splitlines() if ln.startswith("hand ")):
        assert re.search(r"(\?\?|\?!|\?) +-\d+\.\d\d +\(best: .+\)$", line), line

    assert main(["analyze", str(SHORT_EGN), "--samples", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    decisions = data["games"][0]["decisions"]
    assert data["games"][0]["players"] == record.players
    assert len(decisions) == count_decisions(game)
    assert all(d["loss"] >= 0 and d["options"][0]["action"] == d["best"] for d in decisions)


def test_command_refuses_missing_and_malformed_records(game: Game, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(tmp_path / "missing.toml")]) == 1
    err = capsys.readouterr().err
    assert "invalid record" in err and "missing.toml" in err and "cannot read" in err

    path = tmp_path / "bad.toml"
    text = notation.dumps(game)
    first = re.search(r'"p\d [^"]+",', text)
    assert first is not None
    path.write_text(text.replace(first.group(0), '"p0 discard 9c",', 1))  # a discard during the bidding
    assert main(["analyze", str(path)]) == 1
    err = capsys.readouterr().err
    assert "invalid record" in err and "bad.toml" in err

    path.write_text("this is not a record\n")
    assert main(["analyze", str(path)]) == 1
    assert "invalid record" in capsys.readouterr().err


def test_command_bad_arguments_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["analyze"], ["analyze", str(tmp_path / "x.toml"), "--samples", "0"],
                 ["analyze", str(tmp_path / "x.toml"), "--jobs", "0"]):
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--samples: must be at least 1" in err and "--jobs: must be at least 1" in err


def test_a_review_of_the_sister_games_covers_every_decision() -> None:
    """Napoleon at four and at seven seats and the double deck are reviewed whole: the double
    deck's bids and tricks before the last five, and the bids and first trick of seven seats, by
    the hints' truncated search (each choice played on by the heuristic player, then solved);
    nothing is left unreviewed."""
    for rules in (Rules.preset("napoleon", players=4, deals=1), Rules.preset("napoleon", players=7, deals=1),
                  Rules.preset("bid-euchre-double", target=6)):
        game = Game(rules, seed=3)
        bots = [make_bot("hard", seed=s) for s in range(rules.players)]
        while not game.is_over:
            game.push(bots[game.to_act].choose(game.view(game.to_act)))
        review = analyze_game(game, samples=8, bid_samples=4)
        assert review.unreviewed == 0 and review.to_dict()["unreviewed"] == 0
        assert len(review.decisions) == count_decisions(game)
        phases = {d.phase for d in review.decisions}
        assert Phase.PLAY in phases and (Phase.AUCTION in phases or rules.napoleon), phases


@pytest.mark.skipif(not (EGN_DIR / "Me and Bears.egn").exists(), reason="shared EGN data not present")
def test_the_documented_example_is_what_the_program_prints(capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/analyze.md's example review, word for word (a review is the same on every run): it fell
    behind the search once, unnoticed, and the page explained a blunder the program no longer saw."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "analyze.md").read_text()
    block = doc.split('```text\n$ euchre analyze "Me and Bears.egn"\n', 1)[1].split("```", 1)[0]
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["analyze", str(EGN_DIR / "Me and Bears.egn"), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert [line.rstrip() for line in out.splitlines()] == block.splitlines()
