"""The terminal game driven by a scripted player and a recording console."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable, Iterable

import pytest
from rich.console import Console

from euchre import Game, Rules
from euchre.actions import ORDER, ORDER_ALONE, PASS, Action, Kind
from euchre.bots import Bot, make_bot
from euchre.bots.search import Evaluation
from euchre.cards import JOKER, Card, Suit
from euchre.describe import action_words, card_words
from euchre.state import Phase, State
from euchre.tui import card_text, default_names, hint_text, play_terminal, render_view
from euchre.view import PlayerView


def console() -> Console:
    return Console(file=io.StringIO(), width=120, record=True, color_system=None)


def bots_for(game: Game, human: int | None, kind: str = "heuristic") -> dict[int, Bot]:
    return {s: make_bot(kind, seed=s) for s in range(game.rules.players) if s != human}


def scripted(lines: Iterable[str], then: Callable[[], str] = lambda: "1") -> Callable[[str], str]:
    """An input function that types ``lines`` and then answers with ``then()``."""
    queue = list(lines)
    prompts: list[str] = []

    def input_fn(prompt: str) -> str:
        prompts.append(prompt)
        return queue.pop(0) if queue else then()

    return input_fn


def test_whole_game_with_bad_inputs() -> None:
    game = Game(Rules(), seed=11, dealer=3)  # seat 0 speaks first
    con = console()
    saved: list[Game] = []
    status = play_terminal(game, 0, bots_for(game, 0), con, scripted(["xyz", "", "9", "Jh", "help", "show"]),
                           save_fn=saved.append)
    out = con.export_text()
    assert status == "finished" and game.is_over and not saved
    assert "Not understood: \u201cxyz\u201d. You may now:" in out
    assert "No choice 9: choose 1-3." in out
    assert "Not possible: no card is played now: it is the first round of bidding" in out  # a card typed
    assert "Commands:" in out and "quit" in out
    assert "Choices: 1) pass  2) order up  3) order up and go alone" in out
    assert "Up card: " in out and "Score: You & North" in out and "Bidding: " in out
    assert "Your hand: " in out and "Trick 1" in out and "Tricks: You & North" in out
    assert "Hand over: " in out and "Game over" in out and "win the game!" in out
    assert "You and North win the game!" in out or "West and East win the game!" in out
    final = f"Score: You & North {game.scores[0]}  ·  West & East {game.scores[1]}"
    assert final in out.split("Game over")[-1]


def test_illegal_card_is_refused_with_the_reason() -> None:
    game = Game(Rules(), seed=3)
    con = console()
    tried: list[str] = []

    def then() -> str:
        view = game.view(0)
        if view.phase is Phase.PLAY and not tried:
            legal = {a.card for a in view.legal_actions}
            wrong = [c for c in view.hand if c not in legal]
            if wrong:
                tried.append(str(wrong[0]))
                return str(wrong[0])
        return "1"

    play_terminal(game, 0, bots_for(game, 0), con, scripted([], then))
    out = con.export_text()
    assert tried, "the scripted player never had to follow suit"
    assert "Not possible: you must follow" in out


def test_typed_choices_card_and_words() -> None:
    game = Game(Rules(), seed=11, dealer=3)
    con = console()

    def then() -> str:
        view = game.view(0)
        if view.phase is Phase.PLAY:
            return str(view.legal_actions[0].card)  # a bare card: "Jh"
        return "pass" if PASS in view.legal_actions else "1"

    assert play_terminal(game, 0, bots_for(game, 0), con, scripted([], then)) == "finished"
    first = game.hands[0]
    assert first.history[0] == PASS and first.seats[0] == 0
    assert any(s == 0 and a.card is not None for h in game.hands for s, a in zip(h.seats, h.history, strict=True))


@pytest.mark.parametrize("stop", ["quit", KeyboardInterrupt, EOFError])
def test_quit_saves_and_stops(stop: str | type[BaseException]) -> None:
    game = Game(Rules(), seed=5, dealer=3)
    con = console()
    saved: list[Game] = []
    answers = iter(["1", "1"])

    def input_fn(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            if isinstance(stop, str):
                return stop
            raise stop() from None

    status = play_terminal(game, 0, bots_for(game, 0), con, input_fn, save_fn=saved.append)
    assert status == "quit"
    assert saved == [game] and not game.is_over
    assert "Game saved" in con.export_text()


def test_failed_save_is_reported() -> None:
    game = Game(Rules(), seed=5, dealer=3)
    con = console()

    def broken(_: Game) -> None:
        raise OSError("disk full")

    assert play_terminal(game, 0, bots_for(game, 0), con, scripted(["quit"]), save_fn=broken) == "quit"
    assert "Could not save the game: disk full" in con.export_text()


def test_bot_moves_are_printed_and_discards_stay_hidden() -> None:
    game = Game(Rules(), seed=2)
    con = console()
    play_terminal(game, 0, bots_for(game, 0), con, scripted([]))
    out = con.export_text()
    assert "West passes" in out or "West orders" in out or "West picks up" in out
    assert "West plays " in out or "West leads " in out
    # Another seat's discard is never shown (rules section 9); the human's own is.
    for line in out.splitlines():
        if line.startswith(("West ", "North ", "East ")) and "discard" in line:
            assert line.endswith("discards a card face down")


@pytest.mark.parametrize("preset", ["two-handed", "cut-throat", "british", "long", "hasenpfeffer", "bid-euchre",
                                    "bid-euchre-double", "napoleon"])
def test_every_table_size_plays_to_the_end(preset: str) -> None:
    game = Game(Rules.preset(preset), seed=8)
    con = console()
    assert play_terminal(game, 0, bots_for(game, 0, "random"), con, scripted([])) == "finished"
    out = con.export_text()
    assert "Game over" in out
    names = default_names(game.rules.players, 0)
    assert all(n in out for n in names)


def test_watch_bots_only() -> None:
    game = Game(Rules.preset("american", target=5), seed=1)
    con = console()
    assert play_terminal(game, None, bots_for(game, None), con) == "finished"
    out = con.export_text()
    assert "Your hand" not in out and "Game over" in out


def test_missing_bot_or_bad_seat_is_refused() -> None:
    game = Game(Rules(), seed=1)
    with pytest.raises(ValueError, match="no bot for seat"):
        play_terminal(game, 0, {1: make_bot("random")}, console())
    with pytest.raises(ValueError, match="human_seat"):
        play_terminal(game, 7, {}, console())


def test_names_and_rendering() -> None:
    assert default_names(4, 2) == ["North", "East", "You", "West"]
    assert default_names(3) == ["South", "West", "East"]
    game = Game(Rules(), seed=4, dealer=0)
    view = game.view(1)
    con = console()
    con.print(render_view(view, ["Ann", "Bob", "Cy", "Di"]))
    out = con.export_text()
    assert "Ann deals" in out and "Bob" in out and "Choices: 1) pass" in out
    assert str(view.up_card.symbol()) in out


def test_cards_are_coloured_by_suit() -> None:
    assert "red" in str(card_text(Card.parse("Jh")).style)
    assert "red" in str(card_text(Card.parse("9d")).style)
    assert "blue" in str(card_text(Card.parse("As")).style)
    assert "blue" in str(card_text(Card.parse("Tc")).style)
    assert "magenta" in str(card_text(JOKER).style)
    # The left bower is underlined as a trump once hearts are trump.
    assert "underline" in str(card_text(Card.parse("Jd"), 2).style)
    assert card_text(Card.parse("Tc")).plain == "10♣"


def test_error_messages_show_cards_as_the_table_does() -> None:
    from euchre.tui import _with_card_symbols

    text = _with_card_symbols("you must follow hearts: you hold Ah, Th").plain
    assert text == "you must follow hearts: you hold A♥, 10♥"
    assert _with_card_symbols("the Joker Jk; not a card: Xz").plain == "the Joker JK; not a card: Xz"


# --- hints ------------------------------------------------------------------------------------------
def fake_hints(calls: list[tuple[int, ...]]) -> Callable[[PlayerView], list[Evaluation]]:
    """A hint function that values the legal actions in reverse engine order, best +0.80 then 1 point
    less each, and records the legal actions it was asked about."""

    def hint_fn(view: PlayerView) -> list[Evaluation]:
        assert view.is_my_turn
        calls.append(tuple(view.legal_actions))
        ranked = list(reversed(view.legal_actions))
        return [Evaluation(a, 0.8 - i, 0.5, 7) for i, a in enumerate(ranked)]

    return hint_fn


def hint_lines(out: str) -> list[list[str]]:
    """The choice lines of each hint printed, in order."""
    blocks = out.split("Hint (the strongest bot's estimate of the points your side can expect this hand):")[1:]
    return [[ln.strip() for ln in b.splitlines()[1:] if ln.startswith("  ") and "expected points" in ln]
            for b in blocks]


def test_hint_lists_every_choice_in_words_best_first() -> None:
    game = Game(Rules(), seed=11, dealer=3)  # seat 0 speaks first, not the dealer
    con = console()
    calls: list[tuple[int, ...]] = []
    hinted_play: list[bool] = []

    def then() -> str:
        view = game.view(0)
        if view.phase is Phase.PLAY and len(view.legal_actions) > 1 and not hinted_play:
            hinted_play.append(True)
            return "hint"
        return "1"

    status = play_terminal(game, 0, bots_for(game, 0), con, scripted(["hint", "advice"], then),
                           hint_fn=fake_hints(calls))
    out = con.export_text()
    assert status == "finished" and game.is_over  # the game goes on after hints
    assert calls[0] == calls[1] == (PASS, ORDER, ORDER_ALONE) and len(calls) == 3 and hinted_play
    first = hint_lines(out)[0]
    assert first == ["order up and go alone: +0.80 expected points", "order up: -0.20 expected points",
                     "pass: -1.20 expected points"]
    assert hint_lines(out)[1] == first  # "advice" is the same command
    play_hint = hint_lines(out)[2]
    assert len(play_hint) == len(calls[2]) and all(ln.startswith(("lead the ", "play the ")) for ln in play_hint)
    assert [float(ln.split(": ")[1].split()[0]) for ln in play_hint] == pytest.approx(
        [0.8 - i for i in range(len(play_hint))])
    # After the hints the human's answers were taken as usual: the first bid is the first choice, pass.
    assert game.hands[0].history[0] == PASS and game.hands[0].seats[0] == 0


def test_hint_when_hints_are_off() -> None:
    game = Game(Rules(), seed=11, dealer=3)
    con = console()
    assert play_terminal(game, 0, bots_for(game, 0), con, scripted(["hint"]), hint_fn=None) == "finished"
    out = con.export_text()
    assert "Hints are off in this game" in out and "Hint (" not in out


def test_hint_with_one_legal_action_says_so() -> None:
    game = Game(Rules(), seed=11, dealer=3)
    con = console()
    calls: list[tuple[int, ...]] = []
    forced: list[str] = []

    def then() -> str:
        view = game.view(0)
        if len(view.legal_actions) == 1 and not forced:
            forced.append(action_words(view.legal_actions[0], view))
            return "hint"
        return "1"

    status = play_terminal(game, 0, bots_for(game, 0), con, scripted([], then), hint_fn=fake_hints(calls))
    out = con.export_text()
    assert status == "finished" and forced
    assert f"Only one choice: {forced[0]}." in out
    assert calls == [] and "Hint (" not in out  # nothing to search


def test_hint_from_the_search_bot() -> None:
    from euchre.bots import SearchBot

    game = Game(Rules(), seed=11, dealer=3)
    con = console()
    adviser = SearchBot(seed=0, samples=3, bid_samples=2, min_samples=1)
    play_terminal(game, 0, bots_for(game, 0), con, scripted(["hint", "quit"]), hint_fn=adviser.evaluate)
    lines = hint_lines(con.export_text())[0]
    assert sorted(ln.split(":")[0] for ln in lines) == ["order up", "order up and go alone", "pass"]


def test_hint_text_signs_the_points() -> None:
    game = Game(Rules(), seed=11, dealer=3)
    view = game.view(0)
    text = hint_text(view, [Evaluation(ORDER, 1.234, 0.7, 3), Evaluation(PASS, 0.0, 0.5, 3),
                            Evaluation(ORDER_ALONE, -2.5, 0.2, 3)]).plain
    assert text.splitlines()[1:] == ["  order up: +1.23 expected points", "  pass: +0.00 expected points",
                                     "  order up and go alone: -2.50 expected points"]


# --- actions in words ---------------------------------------------------------------------------
WORDS_DEAL = ["Tc Jc Qs Ks 9d", "Jh Jd Ah Kh Qh", "Ac Kc Qc 9c Ts", "Th As Js 9s Ad"]  # dealer 0, up 9h


def words_view(actions: list[str], rules: Rules | None = None, hands: list[str] | None = None,
               up: str = "9h") -> PlayerView:
    s = State(rules or Rules(), dealer=0, hands=hands or WORDS_DEAL, up_card=up)
    for a in actions:
        s.push(a)
    return PlayerView.of(s, s.to_act)


def words(view: PlayerView, text: str) -> str:
    action = Action.parse(text)
    assert action in view.legal_actions, (text, view.legal_actions)
    return action_words(action, view)


def test_action_words_for_the_bidding() -> None:
    first = words_view([])  # seat 1, not the dealer
    assert words(first, "pass") == "pass"
    assert words(first, "order") == "order up"
    assert words(first, "order alone") == "order up and go alone"
    dealer = words_view(["pass"] * 3)
    assert dealer.seat == dealer.dealer == 0
    assert words(dealer, "order") == "pick up"
    assert words(dealer, "order alone") == "pick up and go alone"
    round2 = words_view(["pass"] * 4)
    assert words(round2, "call s") == "call spades"
    assert words(round2, "call c alone") == "call clubs alone"
    assert words(words_view(["order"]), "discard 9d") == "discard the nine of diamonds"
    two = words_view(["order"], Rules.preset("two-handed"), ["9c Tc Jc Qc Kc", "Jh Jd Ah Kh Qh"])
    assert two.phase is Phase.TAKE
    assert words(two, "take") == "pick up" and words(two, "pass") == "leave the up card"
    defend = words_view(["order alone", "discard 9d"], Rules.preset("american", defend_alone=True))
    assert defend.phase is Phase.DEFEND
    assert words(defend, "defend alone") == "defend alone"
    assert words(defend, "pass") == "do not defend alone"


def test_action_words_for_cards_lead_or_play_and_the_bowers() -> None:
    lead = words_view(["order", "discard 9d"])  # hearts are trump; seat 1 leads
    assert words(lead, "play Jh") == "lead the right bower"
    assert words(lead, "play Jd") == "lead the left bower"
    assert words(lead, "play Ah") == "lead the ace of hearts"
    follow = words_view(["order", "discard 9d", "play Jh"])
    assert words(follow, "play Ac") == "play the ace of clubs"
    assert card_words(Card.parse("Jc"), Suit.HEARTS) == "the jack of clubs"  # not a bower under hearts
    assert card_words(Card.parse("Jd"), None) == "the jack of diamonds"  # no trump yet, no bower
    assert card_words(Card.parse("Jd"), Suit.DIAMONDS) == "the right bower"
    assert card_words(JOKER, None) == card_words(JOKER, Suit.SPADES) == "the Joker"
    joker = words_view(["order", "discard 9s"], Rules.preset("british"),
                       ["Th Qh Kh Ah 9s", "Jk Ac Kc Qs Ks", "Jh 9c Tc Jc Qc", "Jd Td Qd Kd Ad"])
    assert words(joker, "play Jk") == "lead the Joker"
    assert words(joker, "play Ks") == "lead the king of spades"


def test_hint_text_shows_the_interval_and_calls_close_choices_even() -> None:
    from euchre.hints import Hint

    game = Game(Rules(), seed=11, dealer=3)
    view = game.view(0)
    text = hint_text(view, [Hint(PASS, 0.30, 0.05, 0.0, 0.0, 600), Hint(ORDER, 0.25, 0.05, 0.05, 0.04, 600),
                            Hint(ORDER_ALONE, -1.5, 0.02, 1.8, 0.06, 600)]).plain
    assert text.splitlines()[1:] == ["  pass: +0.30 \u00b1 0.10 expected points",
                                     "  order up: +0.25 \u00b1 0.10 expected points (about even with the best)",
                                     "  order up and go alone: -1.50 \u00b1 0.04 expected points"]


# --- the table speaks Euchre, not notation ---------------------------------------------------------
N4 = default_names(4, 0)  # You (seat 0, the dealer of WORDS_DEAL), West, North, East


def panel_lines(view: PlayerView, names: list[str], width: int = 120) -> list[str]:
    """The rendered table, one string per line, without the panel's borders."""
    con = Console(file=io.StringIO(), width=width, record=True, color_system=None)
    con.print(render_view(view, names))
    return [(ln[2:-2] if ln.startswith("│") else ln).rstrip() for ln in con.export_text().splitlines()]


def test_bidding_line_is_in_words() -> None:
    view = words_view(["pass"] * 5 + ["call s"])
    bidding = next(ln for ln in panel_lines(view, N4) if ln.startswith("Bidding:"))
    assert bidding == ("Bidding: West passes · North passes · East passes · You pass · West passes · "
                       "North calls ♠ spades")
    view = words_view(["pass"] * 4 + ["call c alone"])
    assert "Bidding: West passes · North passes · East passes · You pass · West calls ♣ clubs and goes alone" in (
        panel_lines(view, N4))


def test_the_dealer_picks_it_up_and_others_order_it_up() -> None:
    view = words_view(["pass", "order"])  # North orders You, the dealer, to pick up the 9h
    assert "Bidding: West passes · North orders you to pick up 9♥" in panel_lines(view, N4)
    view = words_view(["pass"] * 3 + ["order"])  # the dealer takes it
    assert "Bidding: West passes · North passes · East passes · You pick up 9♥" in panel_lines(view, N4)
    view = words_view(["pass"] * 3 + ["order"])
    names = ["Ann", "Bob", "Cy", "Di"]
    assert "Bidding: Bob passes · Cy passes · Di passes · Ann picks up 9♥" in panel_lines(view, names)
    view = words_view(["order alone"])
    assert "Bidding: West orders you to pick up 9♥ and goes alone" in panel_lines(view, N4)


NOTATION = re.compile(r"^(You|West|North|East|South):|\b(call [cdhs]|order alone|take|play [2-9TJQKA][cdhs])\b"
                      r"|\([2-9TJQKA][cdhs]\)|\bcall h\b")


@pytest.mark.parametrize("preset", ["american", "two-handed"])
def test_the_move_log_is_in_words(preset: str) -> None:
    game = Game(Rules.preset(preset, target=3), seed=4)
    con = console()
    play_terminal(game, 0, bots_for(game, 0), con, scripted([]))
    log = [ln for ln in con.export_text().splitlines() if ln[:1] not in "│╭╰─"]
    moves = [ln for ln in log if ln.split(" ")[0] in ("You", "West", "North", "East")]
    assert moves and not [ln for ln in moves if NOTATION.search(ln)]
    assert any(re.match(r"(You|North|West|East) (leads?|plays?) ", ln) for ln in moves)
    assert any(re.fullmatch(r"(You pass|(West|North|East) passes)", ln) for ln in moves)


def test_hand_end_says_who_was_euchred_and_who_scored() -> None:
    from euchre.tui import _hand_result

    s = State(Rules(), dealer=0, hands=["Jh Jd Ah Kh Qh", "9c Tc Jc Qc Kc", "Ac 9d Td Qd Kd", "Ad 9s Ts Js Qs"],
              up_card="9h")
    s.push("order")  # seat 1 orders with nothing: the dealer's five best hearts take every trick
    while not s.is_over:
        s.push(s.legal_actions()[0])
    names = ["Hard bot 1", "Hard bot 2", "Hard bot 3", "Hard bot 4"]
    text = _hand_result(PlayerView.of(s, None), names).plain
    assert text == ("Hand over: Hard bot 2 and Hard bot 4 were euchred (♥ hearts, made by Hard bot 2; no trick): "
                    "Hard bot 1 and Hard bot 3 score 2.")
    assert _hand_result(PlayerView.of(s, 0), N4).plain == (
        "Hand over: West and East were euchred (♥ hearts, made by West; no trick): You and North score 2.")


# --- what the human may type -----------------------------------------------------------------------
def human_block(out: str, head: str) -> list[str]:
    """The lines printed after ``head`` up to the foot of the choice list, spaces squeezed."""
    lines = out.split(head, 1)[1].splitlines()
    block = []
    for ln in lines[1:]:
        if ln.startswith("Type the number"):
            break
        block.append(" ".join(ln.split()))
    return block


def test_gibberish_lists_only_the_choices_legal_now() -> None:
    game = Game(Rules(), seed=11, dealer=3)  # seat 0 speaks first, not the dealer
    con = console()
    play_terminal(game, 0, bots_for(game, 0), con, scripted(["xyz", "quit"]))
    out = con.export_text()
    block = human_block(out, "Not understood: \u201cxyz\u201d. You may now:")
    assert block == ["1 pass type pass", "2 order up type order", "3 order up and go alone type order alone"]
    assert "take" not in " ".join(block) and "defend" not in " ".join(block)
    assert "not an action" not in out  # the engine's list of every action is not shown


def test_a_move_of_another_phase_says_when_it_is_possible() -> None:
    game = Game(Rules(), seed=11, dealer=3)
    con = console()
    play_terminal(game, 0, bots_for(game, 0), con, scripted(["take", "defend alone", "quit"]))
    out = con.export_text()
    assert "Not possible: \u201ctake\u201d is not a choice during the first round of bidding" in out
    assert "Not possible: \u201cdefend alone\u201d is not a choice during the first round of bidding" in out
    assert human_block(out, "is not a choice during the first round of bidding")[1:] == [
        "1 pass type pass", "2 order up type order", "3 order up and go alone type order alone"]


def test_the_dealer_is_told_to_type_pick_up() -> None:
    game = Game(Rules(), seed=11, dealer=0)
    con = console()
    play_terminal(game, 0, bots_for(game, 0), con, scripted(["", "quit"]))  # an empty line, then quit
    out = con.export_text()
    assert "Choices: 1) pass  2) pick up  3) pick up and go alone" in out
    block = human_block(out, "You may now:")
    assert block == ["1 pass type pass", "2 pick up type pick up", "3 pick up and go alone type pick up alone"]


@pytest.mark.parametrize("preset", ["american", "two-handed", "british", "cut-throat"])
def test_every_typed_form_parses_back_to_its_choice(preset: str) -> None:
    from euchre.tui import _typed

    rules = Rules.preset(preset, **({"defend_alone": True} if preset == "american" else {}))
    kinds = set()
    for seed in range(40):
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not game.state.is_over:
            view = game.view(game.to_act)
            for a in view.legal_actions:
                assert game.state.parse_action(_typed(a, view)) == a, (a, _typed(a, view))
                kinds.add(a.kind)
            game.push(rng.choice(view.legal_actions))
    assert {Kind.PASS, Kind.ORDER, Kind.PLAY, Kind.DISCARD} <= kinds


# --- layout ----------------------------------------------------------------------------------------
def _whole_on_a_line(lines: list[str], items: list[str]) -> list[str]:
    return [item for item in items if not any(item in ln for ln in lines)]


@pytest.mark.parametrize("width", [80, 120])
def test_choices_are_never_split_across_lines(width: int) -> None:
    round2 = words_view(["pass"] * 4)  # 7 choices: pass, three suits, three suits alone
    assert len(round2.legal_actions) == 7
    lines = panel_lines(round2, N4, width)
    items = ["1) pass", "2) call ♣ clubs", "3) call ♦ diamonds", "4) call ♠ spades", "5) call ♣ clubs alone",
             "6) call ♦ diamonds alone", "7) call ♠ spades alone"]
    assert not _whole_on_a_line(lines, items)
    first = next(i for i, ln in enumerate(lines) if ln.startswith("Choices: 1) pass"))
    if width == 80:  # it takes two lines, the second indented under the first choice
        assert lines[first + 1].startswith(" " * len("Choices: ") + "5) call ♣ clubs alone")
    discard = words_view(["pass"] * 3 + ["order"])  # the dealer: six cards to discard from
    items = [f"{i}) discard {c.symbol()}" for i, c in enumerate(discard.hand, 1)]
    assert len(items) == 6 and not _whole_on_a_line(panel_lines(discard, N4, width), items)
    bids = words_view(["pass"] * 7, Rules(stick_the_dealer=True))  # a long bidding line
    items = ["West passes", "North passes", "East passes", "You pass"]
    assert not _whole_on_a_line(panel_lines(bids, ["You", "West", "North", "East"], width), items)


def test_flow_fills_lines_and_keeps_items_whole() -> None:
    from rich.text import Text

    from euchre.tui import _Flow

    items = [f"{i}) " + " ".join(["word"] * (1 + i % 4)) for i in range(1, 15)]
    for width in range(24, 121, 8):
        con = Console(file=io.StringIO(), width=width, record=True, color_system=None)
        con.print(_Flow(Text("Choices: "), [Text(t) for t in items]))
        lines = con.export_text().splitlines()
        assert all(len(ln.rstrip()) <= width for ln in lines)
        assert not _whole_on_a_line(lines, items), width
        assert "".join(lines).replace(" ", "") == ("Choices:" + "".join(items)).replace(" ", "")


# --- no Python or notation leaks -------------------------------------------------------------------
LEAKS = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|[\[\]{}]|\b[a-z]+_[a-z_]+\b|Action\(|<|\?\s+to lead|&\s\w+ euchred"
                   r"|'\w+'|\(s\)")


@pytest.mark.parametrize("preset", ["american", "two-handed", "cut-throat", "british"])
def test_terminal_output_has_no_python_leaks(preset: str) -> None:
    rules = Rules.preset(preset, target=5, **({"defend_alone": True, "super_euchre": True}
                                               if preset == "american" else {}))
    game = Game(rules, seed=2)
    rng = random.Random(2)
    con = console()

    def then() -> str:
        if rng.random() < 0.05:
            return rng.choice(["xyz", "take", "defend alone", "Jh", "h", "call h", "", "order", "alone", "99"])
        return str(rng.randint(1, 3))

    assert play_terminal(game, 0, bots_for(game, 0, "random"), con, scripted([], then)) == "finished"
    out = con.export_text()
    assert not [ln for ln in out.splitlines() if LEAKS.search(ln)]


def test_last_shows_the_last_trick_with_who_played_what() -> None:
    game = Game(Rules(), seed=12)
    con = console()
    asked: list[int] = []

    def then() -> str:
        asked.append(len(game.state.tricks))
        # after a trick or two of this hand, ask for it, then play on
        if len(asked) % 2 == 1 and game.state.tricks:
            return "last"
        return "1"

    assert play_terminal(game, 0, bots_for(game, 0), con, scripted(["last"], then)) == "finished"
    out = con.export_text()
    assert "No trick has been played yet." in out  # asked before the first trick of the game
    lines = [ln for ln in out.splitlines() if ln.startswith("Last trick (trick ")]
    assert lines, out[-2000:]
    names = default_names(4, 0)
    for ln in lines:
        assert re.match(r"Last trick \(trick [1-5]( of the last hand)?\): ", ln), ln
        assert ln.endswith(" won it."), ln
        assert sum(ln.count(f"{n} ") for n in names) >= 4  # every card with who played it


def test_the_end_of_a_hand_waits_for_enter_and_quit_there_stops() -> None:
    game = Game(Rules(), seed=5)
    con = console()
    prompts: list[str] = []

    def input_fn(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("Press Enter"):
            return "" if prompts.count(prompt) == 1 else "quit"
        return "1"

    saved: list[Game] = []
    status = play_terminal(game, 0, bots_for(game, 0), con, input_fn, save_fn=saved.append, hand_wait=True)
    assert status == "quit" and saved == [game]
    waits = [p for p in prompts if p.startswith("Press Enter")]
    assert len(waits) == 2 and game.hand_number == 2  # on at the end of hand 1, quit at the end of hand 2
    out = con.export_text()
    assert out.count("Hand over: ") == 2


def test_a_short_pause_instead_of_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    import euchre.tui as tui

    slept: list[float] = []
    monkeypatch.setattr(tui.time, "sleep", slept.append)
    game = Game(Rules(), seed=6)
    assert play_terminal(game, 0, bots_for(game, 0), console(), scripted([]), delay=0.15, hand_pause=1.5) == "finished"
    assert slept.count(1.5) == len(game.hands) - 1  # every hand's end but the last
    assert slept.count(0.15) > 0


def test_score_shows_the_sheet_hand_by_hand() -> None:
    game = Game(Rules(), seed=21)
    con = console()
    asked: list[int] = []

    def then() -> str:
        if game.hand_number >= 2 and not asked:
            asked.append(game.hand_number)
            return "score"
        return "1"

    assert play_terminal(game, 0, bots_for(game, 0), con, scripted(["score"], then)) == "finished"
    out = con.export_text()
    assert "No hand has finished yet." in out
    sheet = out[out.index("Score by hand"):]
    rows = [ln for ln in sheet.splitlines()[2:] if re.match(r"\s*\d+\s", ln)]
    assert len(rows) >= 2, sheet[:800]
    for i, ln in enumerate(rows[:2], start=1):  # hand number, who made it (or thrown in), points and totals
        assert re.match(rf"\s*{i}\s+(\S+ [♣♦♥♠](\s+alone)?|thrown in)\s+", ln), ln
