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


SISTER_MATCHES = [("hasenpfeffer", {"target": 4}), ("bid-euchre", {"target": 8}),
                  ("bid-euchre-double", {"target": 12}), ("napoleon", {"target": 6, "players": 3}),
                  ("napoleon", {"target": 10, "players": 5})]


@settings(max_examples=20, deadline=None)
@given(which=st.sampled_from(SISTER_MATCHES), seed=st.integers(0, 10**6), to_wins=st.booleans(),
       slam=st.booleans(), laps=st.booleans())
def test_sister_games_play_matches(which: tuple[str, dict[str, int]], seed: int, to_wins: bool, slam: bool,
                                   laps: bool) -> None:
    """RULES-FAMILY.md 12.5: "the match fields serve any game with a target", the sister games
    included (each side a seat in Napoleon; the back door and negative scores make slams):
    game wins, slams, laps and the deal passing on as in Euchre, and the record round trips."""
    preset, fields = which
    match = {"match_wins": 2} if to_wins else {"match_games": 2}
    rules = Rules.preset(preset, **fields, slam=slam, laps=laps, **match)
    m = _play(Match(rules, seed=seed), seed)
    target = rules.target
    assert target is not None and m.winner is not None
    wins = [0] * rules.sides
    for i, g in enumerate(m.games):
        w = g.winner
        assert g.is_over and w is not None
        wins[w] += 2 if slam and all(p <= 0 for side, p in enumerate(g.scores) if side != w) else 1
        if i + 1 < len(m.games):
            nxt = m.games[i + 1]
            assert nxt.hands[0].dealer == (g.hands[-1].dealer + 1) % rules.players
            start = [0] * rules.sides
            if laps:
                start[w] = max(0, min(target - 1, g.scores[w] - target))
            assert list(nxt.initial_scores) == start
    assert wins == m.wins
    if to_wins:
        assert m.wins[m.winner] >= 2 and sorted(m.wins)[-2] < 2
    else:
        assert len(m.games) >= 2 and m.wins[m.winner] > sorted(m.wins)[-2]
    again = notation.loads_any(notation.dumps(m)).replay()  # type: ignore[union-attr]
    assert again.wins == m.wins and again.winner == m.winner and again.results == m.results


def test_a_napoleon_match_needs_a_target() -> None:
    """Napoleon's preset ends after a number of deals; its match needs a target ending set."""
    with pytest.raises(RulesError, match="needs games played to a target"):
        Rules.preset("napoleon", match_wins=2)
    assert Rules.preset("napoleon", target=20, match_wins=2).is_match


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
    whole = [p for p in archived if p.stem.endswith("-match")]
    assert len(whole) == 1  # the whole match, as one record, beside each game's own
    for path in archived:
        if path in whole:
            continue
        game = notation.load(path).replay()
        assert game.is_over and game.winner is not None
        wins[game.winner] += 1
    assert max(wins) == 2 and len(archived) - 1 == sum(wins)
    match = notation.load_any(whole[0])
    assert isinstance(match, notation.MatchRecord)
    assert match.replay().wins == wins and len(match.games) == sum(wins)
    assert "The whole match's record is saved in" in resumed.stdout


def test_simulate_plays_matches() -> None:
    from euchre.cli import simulate

    stats = simulate(Rules(match_wins=2, target=3), 6, 1, "random")
    assert stats["matches"] == 6 and sum(s["match_wins"] for s in stats["sides"]) == 6
    games = sum(s["wins"] for s in stats["sides"]) + stats["ties"]
    assert 6 * 2 <= games <= 6 * 3  # every match of first-to-two takes two or three games


# --- a match as one record --------------------------------------------------------------------
def _half(match: Match, seed: int = 1) -> Match:
    """Play ``match`` into its second game and stop there (a match in progress)."""
    bot = make_bot("random", seed=seed)
    while len(match.games) < 2 or len(match.game.actions()) < 7:
        match.push(bot.choose(match.game.view(match.to_act)))
    return match


@given(st.integers(0, 10_000), st.booleans(), st.booleans())
@settings(max_examples=15, deadline=None)
def test_a_match_record_round_trips(seed: int, laps: bool, slam: bool) -> None:
    """A finished match written as one record reads back to the same games, game wins and
    winner; the laps carried into a game are in its record."""
    m = _play(Match(Rules(match_wins=2, target=5, laps=laps, slam=slam), seed=seed), seed)
    text = notation.dumps(m, players=["A", "B", "C", "D"])
    rec = notation.loads_any(text)
    assert isinstance(rec, notation.MatchRecord) and rec.players == ["A", "B", "C", "D"]
    again = rec.replay()
    assert again.wins == m.wins and again.winner == m.winner and again.results == m.results
    assert [g.actions() for g in again.games] == [g.actions() for g in m.games]
    assert [g.initial_scores for g in again.games] == [g.initial_scores for g in m.games]


def test_a_match_in_progress_record_goes_on() -> None:
    """The record of a match in its second game replays to that game, which can be played on;
    its later games are dealt from the match's seed as the live match deals them."""
    m = _half(Match(Rules(match_games=3, target=5), seed=4))
    again = notation.MatchRecord.loads(notation.dumps(m)).replay()
    assert len(again.games) == 2 and again.game.actions() == m.game.actions() and not again.is_over
    _play(m, 9)
    _play(again, 9)
    assert again.wins == m.wins and [g.actions() for g in again.games] == [g.actions() for g in m.games]


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["match"].__setitem__("wins", [2, 0]), "record says game wins"),
    (lambda d: d["games"][1]["game"].__setitem__("first_dealer", (d["games"][1]["game"]["first_dealer"] + 1) % 4),
     "game 2: hand 1: dealt by seat"),
    (lambda d: d["games"].append(d["games"][0]), "the match was over after game 2"),
    (lambda d: d.__setitem__("games", []), "one \\[\\[games\\]\\] table per game"),
    (lambda d: d["games"][0]["hands"][0].__setitem__("points", [9, 0]), "game 1: hand 1: the record says"),
    (lambda d: d["rules"].pop("match_wins"), "needs match rules"),
])
def test_a_wrong_match_record_is_refused(change: object, message: str) -> None:
    """Each kind of damage is named: the match score, a game that does not follow the one
    before, a game after the match was won, no games, a wrong hand, rules without a match."""
    import tomllib

    m = _play(Match(Rules(match_wins=2, target=3), seed=2), 3)
    assert m.wins == [0, 2]  # this seed: side 1 wins 2 - 0
    data = tomllib.loads(notation.dumps(m))
    change(data)  # type: ignore[operator]
    with pytest.raises(notation.RecordError, match=message):
        notation.MatchRecord.from_dict(data).replay()


def test_a_game_record_reader_points_to_the_match_reader(tmp_path: Path) -> None:
    m = _play(Match(Rules(match_wins=1, target=3), seed=2))
    path = tmp_path / "m.toml"
    notation.save(m, path)
    with pytest.raises(notation.RecordError, match="match record .*loads_any"):
        notation.load(path)
    assert isinstance(notation.load_any(path), notation.MatchRecord)


def test_euchre_replay_shows_a_match_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from euchre.cli import main

    m = _play(Match(Rules(match_wins=2, target=3), seed=21), 3)
    path = tmp_path / "m.toml"
    notation.save(m, path)
    assert main(["replay", str(path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"A match of {len(m.games)} games" in out and f"side {m.winner} takes the match" in out
    assert out.count("game over:") == len(m.games)


def test_from_games_checks_that_each_game_follows_the_last() -> None:
    """A game the match would not have dealt there (another first dealer, other starting
    scores) is named; a game left unfinished before another is too."""
    from euchre import Game

    m = _play(Match(Rules(match_wins=2, target=3), seed=2), 3)
    first, second = m.games
    wrong = Game(m.rules, seed=1, dealer=(second.first_dealer + 1) % 4)
    with pytest.raises(IllegalActionError, match="game 2: dealt first by seat"):
        Match.from_games(m.rules, [first, wrong], seed=m.seed)
    laps = Game(m.rules, seed=1, dealer=second.first_dealer, scores=[1, 0])
    with pytest.raises(IllegalActionError, match=r"from \[1, 0\], but the match has seat \d deal it from \[0, 0\]"):
        Match.from_games(m.rules, [first, laps], seed=m.seed)
    fresh = Game(m.rules, seed=1, dealer=first.first_dealer)
    with pytest.raises(IllegalActionError, match="game 1 is not over, yet game 2 follows it"):
        Match.from_games(m.rules, [fresh, second], seed=m.seed)
    assert Match.from_games(m.rules, [first, second], seed=m.seed).wins == m.wins
