"""Matches (RULES-FAMILY.md 12.5): game wins, slams, laps, the deal passing on between games,
and the endings of ``match_wins`` and ``match_games``."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre import Rules, notation
from euchre.bots import make_bot
from euchre.errors import IllegalActionError, RulesError
from euchre.match import Match


def _play(match: Match, seed: int = 0) -> Match:
    bot = make_bot("random", seed=seed)
    while not match.is_over:
        match.push(bot.choose(match.game.view(match.to_act)))
    return match


@pytest.mark.parametrize(("fields", "message"), [
    ({"match_games": 3, "match_wins": 2}, "not both"),
    ({"match_games": 3, "target": None, "deals": 4}, "needs games played to a target"),
    ({"laps": True}, "needs a match"),
    ({"slam": True}, "needs a match"),
    ({"match_wins": 0}, "from 1 to 99"),
])
def test_refused_matches(fields: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules(**fields)


def test_a_match_needs_match_rules() -> None:
    with pytest.raises(RulesError, match="needs rules with match_games or match_wins"):
        Match(Rules())


def test_first_to_two_game_wins() -> None:
    m = _play(Match(Rules(match_wins=2, target=3), seed=1))
    assert m.winner is not None and m.wins[m.winner] == 2 and max(w for s, w in enumerate(m.wins) if s != m.winner) < 2
    assert len(m.games) == sum(m.wins) == len(m.results)
    assert all(g.is_over for g in m.games)
    with pytest.raises(IllegalActionError, match="the match is over"):
        m.push("pass")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), games=st.integers(1, 4), slam=st.booleans(), laps=st.booleans())
def test_every_match_follows_section_12_5(seed: int, games: int, slam: bool, laps: bool) -> None:
    rules = Rules(match_games=games, target=3, slam=slam, laps=laps)
    m = _play(Match(rules, seed=seed), seed)
    assert len(m.games) >= games  # all N are played; a tie for most adds games
    wins = [0, 0]
    for i, g in enumerate(m.games):
        assert g.is_over and g.winner is not None
        w = g.winner
        wins[w] += 2 if slam and g.scores[1 - w] <= 0 else 1
        if i + 1 < len(m.games):
            nxt = m.games[i + 1]
            # the deal passes left from the last hand's dealer into the next game
            assert nxt.hands[0].dealer == (g.hands[-1].dealer + 1) % 4
            start = [0, 0]
            if laps:
                start[w] = max(0, min(rules.target - 1, g.scores[w] - rules.target))  # type: ignore[operator]
            assert list(nxt.initial_scores) == start
    assert wins == m.wins
    assert m.winner is not None and m.wins[m.winner] > m.wins[1 - m.winner]
    # no game was played after the match was decided
    if len(m.games) > games:
        before = [0, 0]
        for g in m.games[:-1]:
            w = g.winner
            assert w is not None
            before[w] += 2 if slam and g.scores[1 - w] <= 0 else 1
        assert before[0] == before[1]


def test_a_slam_counts_two() -> None:
    # target 1: a game ends at its first scoring hand, so the losers always have 0: every win a slam
    m = _play(Match(Rules(match_wins=2, target=1, slam=True), seed=4))
    assert len(m.games) == 1 and m.wins[m.winner] == 2  # type: ignore[index]


def test_replay_gives_the_same_match() -> None:
    m = _play(Match(Rules(match_games=2, target=2, laps=True), seed=9), 9)
    again = Match.replay(m.rules, m.seed, m.actions())
    assert again.is_over and again.wins == m.wins and again.winner == m.winner
    assert [g.scores for g in again.games] == [g.scores for g in m.games]
    assert "takes the match" in again.summary()


def test_cut_throat_match() -> None:
    m = _play(Match(Rules.preset("cut-throat", match_wins=2, target=2), seed=2), 2)
    assert len(m.wins) == 3 and m.wins[m.winner] == 2  # type: ignore[index]
    assert "first to 2" in m.standing()


def test_a_match_in_the_terminal_saves_and_resumes(tmp_path: Path) -> None:
    """``euchre play --match-wins 2``: each game archived as it ends, the match score between
    games, quitting mid-match saves the game with its match, and resuming finishes the match."""
    from test_cli import euchre

    args = ["play", "--seed", "4", "--match-wins", "2", "--target", "6", "--no-hints", "--speed", "instant"]
    first = euchre(tmp_path, *args, typed="1\n" * 70 + "quit\n")
    assert first.returncode == 0, first.stderr
    assert "A match: game wins 0 - 0 (first to 2)." in first.stdout
    assert "Match: game wins You & " in first.stdout and "Game 2 of the match" in first.stdout
    assert "Game saved as" in first.stdout
    saved = notation.load(next((tmp_path / "saves").iterdir()))
    match_meta = saved.meta["match"]
    assert len(match_meta["games"]) == 1 and match_meta["seed"] == 4
    resumed = euchre(tmp_path, "play", "--resume", "--no-hints", "--speed", "instant", typed="1\n" * 600)
    assert resumed.returncode == 0, resumed.stderr
    assert "A match: game wins 1 - 0 (first to 2)." in resumed.stdout
    assert "the match: game wins" in resumed.stdout
    assert not list((tmp_path / "saves").iterdir())  # the finished match leaves no saved game
    archived = sorted((tmp_path / "games").iterdir())
    wins = [0, 0]
    for path in archived:
        game = notation.load(path).replay()
        assert game.is_over and game.winner is not None
        wins[game.winner] += 1
    assert max(wins) == 2 and len(archived) == sum(wins)


def test_simulate_plays_matches() -> None:
    from euchre.cli import simulate

    stats = simulate(Rules(match_wins=2, target=3), 6, 1, "random")
    assert stats["matches"] == 6 and sum(s["match_wins"] for s in stats["sides"]) == 6
    games = sum(s["wins"] for s in stats["sides"]) + stats["ties"]
    assert 6 * 2 <= games <= 6 * 3  # every match of first-to-two takes two or three games
