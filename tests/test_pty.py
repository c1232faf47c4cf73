"""``euchre play`` driven the way a person does: a pseudo-terminal, keystrokes and the screen.

Every test spawns the installed command in a pseudo-terminal of a fixed size (pexpect), types
what a player types (lines, Enter, Ctrl-C, Ctrl-D) and reads what the terminal shows, escape
sequences removed. The deals are fixed by ``--seed``; the facts of each seed used here (who deals,
who bids, which card is forced, when a claim is possible) were found by playing it. The data
directory (``EUCHRE_HOME``: saves, archive, settings) is a fresh folder of each test.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pytest
from terminal_support import ctrl_c_interrupts

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")

_SCRIPT = Path(sys.executable).with_name("euchre")
COMMAND = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "euchre"]

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][AB0-2]|\x1b[=>78]")
"""Control sequences (colours, cursor, links): what the terminal interprets instead of showing."""

PROMPT = r"You> "
HAND_WAIT = r"Press Enter for the next hand \(or type quit\) "
SAVED = re.compile(r"Game saved as (\S+) \((\S+)\); euchre play --resume (\S+) continues it\.")


class Terminal:
    """``euchre ARGS`` in a pseudo-terminal of ``rows`` x ``cols``; :attr:`screen` is everything it
    has shown, as text, and :meth:`wait` reads on until a pattern appears after what was read."""

    def __init__(self, home: Path, *args: str, cols: int = 100, rows: int = 40, timeout: float = 30) -> None:
        env = dict(os.environ, EUCHRE_HOME=str(home), TERM="xterm", COLUMNS=str(cols), LINES=str(rows))
        env.pop("NO_COLOR", None)
        env.pop("FORCE_COLOR", None)
        self.started = time.monotonic()
        self.child = pexpect.spawn(COMMAND[0], [*COMMAND[1:], *args], env=env, dimensions=(rows, cols),
                                   encoding="utf-8", codec_errors="replace", timeout=timeout,
                                   preexec_fn=ctrl_c_interrupts)
        self.timeout = timeout
        self.raw = ""
        self._screen = ""
        self._cleaned = 0
        self.pos = 0
        self.eof = False
        self.reads: list[float] = []
        """When each read of the output returned."""

    @property
    def screen(self) -> str:
        if self._cleaned != len(self.raw):
            self._screen = ESCAPES.sub("", self.raw).replace("\r\n", "\n")
            self._cleaned = len(self.raw)
        return self._screen

    def _read(self, wait: float) -> None:
        try:
            self.raw += self.child.read_nonblocking(1 << 16, timeout=wait)
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            self.eof = True
        self.reads.append(time.monotonic())

    def wait(self, pattern: str, timeout: float | None = None) -> re.Match[str]:
        """The first match of ``pattern`` after the last one waited for (reading until it comes)."""
        deadline = time.monotonic() + (timeout or self.timeout)
        rx = re.compile(pattern)
        while True:
            m = rx.search(self.screen, self.pos)
            if m:
                self.pos = m.end()
                return m
            if self.eof or time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} did not appear; the screen since the last match:\n"
                                     f"{self.screen[self.pos:]}")
            self._read(0.02)

    def wait_words(self, text: str, timeout: float | None = None) -> re.Match[str]:
        """:meth:`wait` for ``text`` as words: the console may have wrapped it at any space."""
        return self.wait(r"\s+".join(re.escape(w) for w in text.split()), timeout)

    def since(self, start: int) -> str:
        return self.screen[start:self.pos]

    def type(self, text: str) -> None:
        self.child.sendline(text)

    def ctrl_c(self) -> None:
        """Ctrl-C at the prompt just shown, a moment after it appeared, as a person presses it: a
        SIGINT that comes before Python has begun to read the line is only acted on after the next
        line (CPython's input()), a race no person's key can win."""
        time.sleep(0.3)
        self.child.sendintr()

    def prompt_and_type(self, text: str, timeout: float | None = None) -> None:
        self.wait(PROMPT, timeout)
        self.type(text)

    def end(self, timeout: float | None = None) -> int | None:
        """Read to the end of the output; the exit status."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while not self.eof and time.monotonic() < deadline:
            self._read(0.1)
        assert self.eof, f"the program did not end; the screen since the last match:\n{self.screen[self.pos:]}"
        self.child.close()
        return self.child.exitstatus

    def pump(self, seconds: float) -> None:
        """Read whatever comes for ``seconds``."""
        deadline = time.monotonic() + seconds
        while not self.eof and time.monotonic() < deadline:
            self._read(0.02)

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


@pytest.fixture
def home():
    """A fresh data directory with a short name, as a person's is (messages name files in it)."""
    top = Path(tempfile.mkdtemp(prefix="eu-"))
    yield top / "home"
    shutil.rmtree(top, ignore_errors=True)


@pytest.fixture
def run(home: Path):
    """Start ``euchre ARGS`` at a terminal (closed at the end of the test)."""
    started: list[Terminal] = []

    def start(*args: str, **kw) -> Terminal:
        term = Terminal(home, *args, **kw)
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()


def panel_lines(text: str) -> list[str]:
    """The lines inside the last table panel in ``text``, borders removed."""
    top = text.rindex("╭")
    bottom = text.index("╰", top)
    return [ln.strip().removeprefix("│ ").removesuffix("│").rstrip() for ln in text[top:bottom].splitlines()[1:]]


def words(text: str) -> str:
    """``text`` with every run of white space as one space (lines the console wrapped joined again)."""
    return " ".join(text.split())


def quit_and_saved(term: Terminal, home: Path) -> str:
    """Type quit at the prompt: the game is saved among the saved games; its name."""
    term.prompt_and_type("quit")
    m = term.wait(SAVED.pattern)
    name, path, again = m.groups()
    assert again == name and Path(path) == home / "saves" / f"{name}.toml" and Path(path).is_file()
    term.wait("Goodbye!")
    assert term.end() == 0
    return name


# --- a new game, the commands, mistakes ------------------------------------------------------------
SEED1_CHOICES = ["1) discard Q♣", "2) discard J♦", "3) discard 9♦", "4) discard A♠", "5) discard K♥", "6) discard Q♥"]
"""Seed 1, hand 1: Clyde passes, Nell orders you (the dealer) to pick up Q♣; your six cards to discard from."""


def test_a_new_game_at_a_terminal_help_mistakes_and_show(run, home: Path) -> None:
    term = run("play", "--seed", "1")  # colours on, the default pace: a person's terminal
    term.wait(r"─+ Hand 1 ─+")
    term.wait(r"You deal\. Up card: Q♣\n")
    term.wait(r"Clyde passes\nNell orders you to pick up Q♣\nTrump is ♣ clubs, made by Nell\n")
    start = term.pos
    term.wait(PROMPT)
    panel = panel_lines(term.since(start))
    assert panel[0] == "Score: You & Nell 0  ·  Clyde & Abe 0   (first to 10 points)"
    assert panel[1].split() == ["seat", "player", "role", "tricks", "this", "trick"]
    assert panel[2].split() == ["0", "You", "dealer,", "to", "act", "0"]
    assert [ln.split()[:3] for ln in panel[3:6]] == [["1", "Clyde", "(hard)"], ["2", "Nell", "(hard)"],
                                                      ["3", "Abe", "(hard)"]]
    assert "Up card: Q♣  (taken by the dealer)" in panel
    assert "Trump: ♣ clubs  made by Nell" in panel
    assert "Bidding: Clyde passes · Nell orders you to pick up Q♣" in panel
    assert "Your hand: Q♣ J♦ 9♦ A♠ K♥ Q♥" in panel
    assert words(" ".join(ln for ln in panel if ln.startswith(("Choices:", "   ")))) == \
        "Choices: " + " ".join(SEED1_CHOICES)
    assert "Hand 1 · You deal" in term.screen[term.screen.rindex("╭", 0, term.pos):]

    term.type("help")
    start = term.pos
    term.wait(PROMPT)
    shown = term.since(start)
    assert shown.lstrip("\n").startswith("help\nCommands:\n  1, 2, ...       take the numbered choice\n")
    for command in ("show ", "last ", "score ", "hint ", "claim ", "undo ", "help, ?", "quit "):
        assert re.search(rf"^  {re.escape(command)}", shown, re.M), command
    assert "quit            save the game and stop (Ctrl-C or Ctrl-D does the same)" in shown

    term.type("xyzzy")
    start = term.pos
    term.wait(PROMPT)
    shown = term.since(start)
    assert "Not understood: “xyzzy”. You may now:" in shown
    rows = [ln.split() for ln in shown.splitlines() if re.match(r"\s+\d\s+discard", ln)]
    assert rows == [[str(i), "discard", card, "type", typed] for i, card, typed in
                    zip(range(1, 7), ["Q♣", "J♦", "9♦", "A♠", "K♥", "Q♥"], ["Qc", "Jd", "9d", "As", "Kh", "Qh"],
                        strict=True)]
    assert "Type the number or the words; help lists every command." in shown

    term.type("9")
    start = term.pos
    term.wait(PROMPT)
    assert term.since(start).lstrip("\n").startswith("9\nNo choice 9: choose 1-6.\nYou> ")

    term.type("0")
    term.wait(r"No choice 0: choose 1-6\.\n")
    term.wait(PROMPT)

    term.type("show")
    start = term.pos
    term.wait(PROMPT)
    again = term.since(start)
    assert again.count("╭─ Hand 1 · You deal") == 1
    assert panel_lines(again) == panel

    term.type("quit")  # nothing played yet: nothing saved
    term.wait(r"Nothing was played yet, so nothing was saved\.\nGoodbye!")
    assert term.end() == 0
    assert not (home / "saves").exists() or not list((home / "saves").iterdir())


# --- pacing ---------------------------------------------------------------------------------------
# Seed 18, hand 1: Earl deals; Nell orders him to pick up Q♦, Earl discards, Nell leads J♥; your only
# card is 10♦ (prompt 1), then A♣ of four (prompt 2); after trick 2 Nell claims the rest.
SEED18_HAND1 = ["1", "1"]


def test_normal_pace_waits_for_enter_at_the_end_of_a_hand(run) -> None:
    term = run("play", "--seed", "18", "--no-hints")  # no --speed: normal at a terminal
    for key in SEED18_HAND1:
        term.prompt_and_type(key)
    term.wait(r"Nell claims the rest of the tricks \(12 cards played at once\):")
    term.wait(r"Hand over: Clyde and Nell made it \(♦ diamonds, made by Nell; 4 tricks\): Clyde and Nell score 1\.")
    term.wait(r"Score: You & Earl 0  ·  Clyde & Nell 1   \(first to 10 points\)\n")
    term.wait(HAND_WAIT)
    waited = time.monotonic()
    term.pump(1.5)  # it stays there until a key
    assert "Hand 2" not in term.screen[term.pos:]
    term.child.sendline("")  # Enter
    term.wait(r"─+ Hand 2 ─+\nNell deals\. Up card: 10♦")
    assert time.monotonic() - waited >= 1.5
    term.prompt_and_type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0


def test_quit_typed_at_the_end_of_a_hand_saves(run, home: Path) -> None:
    term = run("play", "--seed", "18", "--no-hints", "--speed", "normal")
    for key in SEED18_HAND1:
        term.prompt_and_type(key)
    term.wait(HAND_WAIT)
    term.type("quit")
    m = term.wait(SAVED.pattern)
    assert (home / "saves" / f"{m.group(1)}.toml").is_file()
    assert "Hand 2" not in term.screen
    assert term.end() == 0


def test_fast_pace_does_not_wait_for_a_key_at_the_end_of_a_hand(run) -> None:
    term = run("play", "--seed", "18", "--no-hints", "--speed", "fast")
    term.prompt_and_type("1")
    term.wait(PROMPT)
    sent = time.monotonic()
    term.type("1")  # the last card before Nell claims
    term.wait(r"Score: You & Earl 0  ·  Clyde & Nell 1   \(first to 10 points\)\n")
    term.wait(r"─+ Hand 2 ─+")  # no key pressed
    assert time.monotonic() - sent >= 1.5  # the end of the hand stays for a moment (1.5 s), a lower bound
    assert "Press Enter" not in term.screen
    term.prompt_and_type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0


def test_instant_pace_plays_the_computer_players_at_once(run) -> None:
    term = run("play", "--seed", "18", "--no-hints", "--speed", "instant")
    for key in SEED18_HAND1:
        term.prompt_and_type(key)
    term.wait(r"Nell claims the rest of the tricks")
    term.wait(r"─+ Hand 2 ─+")  # no key, no pause
    term.wait(PROMPT)
    assert "Press Enter" not in term.screen
    term.type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0


def test_slow_pace_shows_the_computer_players_moves_one_at_a_time(run, home: Path) -> None:
    term = run("play", "--seed", "18", "--no-hints", "--speed", "slow")  # 1.2 s after each computer move
    seen = []
    for line in (r"Nell orders Earl to pick up Q♦\n", r"Earl discards a card face down\n", r"Nell leads J♥\n"):
        term.wait(line)
        seen.append(time.monotonic())
    term.wait(PROMPT)
    at_prompt = time.monotonic()
    # Lower bounds only. Each move is shown, then 1.2 s pass before the next: these hold however
    # late this reader saw the lines.
    assert seen[1] - term.started >= 1.2 and seen[2] - term.started >= 2.4 and at_prompt - term.started >= 3.6
    # The moves came one at a time: a gap between consecutive lines, unless this reader was too
    # busy to see them apart (it reads every 20 ms when it is not starved of the CPU).
    polls = [b - a for a, b in zip(term.reads, term.reads[1:], strict=False) if a >= seen[0] and b <= at_prompt]
    if max(polls, default=0) < 0.5:
        assert min(b - a for a, b in zip(seen, seen[1:], strict=False)) >= 0.9
    term.type("1")  # 10♦; Ctrl-C while the computer players play saves too
    term.wait(r"You play 10♦\nClyde plays 9♠\n")
    term.child.sendintr()
    m = term.wait(SAVED.pattern)
    assert (home / "saves" / f"{m.group(1)}.toml").is_file()
    assert "Traceback" not in term.screen and "KeyboardInterrupt" not in term.screen
    assert term.end() == 0


# --- last and score -------------------------------------------------------------------------------
def test_last_trick_and_the_score_by_hand(run) -> None:
    term = run("play", "--seed", "18", "--no-hints", "--speed", "instant")
    term.prompt_and_type("last")
    term.wait(r"last\nNo trick has been played yet\.\n")
    term.prompt_and_type("score")
    term.wait(r"score\nNo hand has finished yet\.\n")
    term.prompt_and_type("1")  # 10♦, the only card
    term.wait(r"Earl wins trick 1 with J♦")
    term.prompt_and_type("last")
    term.wait(r"last\nLast trick \(trick 1\): Nell J♥, You 10♦, Clyde 9♠, Earl J♦; Earl won it\.\n")
    term.prompt_and_type("1")  # A♣; then Nell claims the rest and the hand ends
    term.wait(r"─+ Hand 2 ─+")
    term.prompt_and_type("last")
    term.wait(r"last\nLast trick \(trick 5 of the last hand\): Nell A♠, You A♥, Clyde K♠, Earl J♠; Nell won it\.\n")
    term.prompt_and_type("score")
    start = term.pos
    term.wait(PROMPT)
    sheet = [ln.split() for ln in term.since(start).strip().splitlines()]
    assert sheet[:4] == [["score"], ["Score", "by", "hand"], ["hand", "made", "by", "You", "and", "Earl", "Clyde",
                                                               "and", "Nell"],
                         ["1", "Nell", "♦", "diamonds", "–", "0", "+1", "1"]]
    term.type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0


# --- hints ----------------------------------------------------------------------------------------
def test_hint_lists_every_choice_with_its_expected_points(run) -> None:
    # Seed 20, hand 1: Nell deals, Earl passes; your bid of three choices.
    term = run("play", "--seed", "20", "--speed", "instant", timeout=240)  # the solver may compile first
    term.prompt_and_type("hint")
    start = term.pos
    term.wait(PROMPT, timeout=240)
    shown = term.since(start)
    head = "Hint (the strongest bot's estimate of the points your side can expect this hand):"
    assert head in shown
    lines = shown[shown.index(head) + len(head):].strip("\n").splitlines()[:-1]
    assert len(lines) == 3
    rx = re.compile(r"  (pass|order up|order up and go alone): [+-]\d+\.\d\d(?: ± \d+\.\d\d)? expected points"
                    r"(?: \(about even with the best\))?")
    assert all(rx.fullmatch(ln) for ln in lines), lines
    assert sorted(rx.fullmatch(ln).group(1) for ln in lines) == ["order up", "order up and go alone", "pass"]
    points = [float(re.search(r": ([+-]\d+\.\d\d)", ln).group(1)) for ln in lines]
    assert points == sorted(points, reverse=True)  # best first
    term.type("pass")
    term.wait(r"You pass\n")
    term.prompt_and_type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0


def test_hint_with_hints_off(run) -> None:
    term = run("play", "--seed", "20", "--speed", "instant", "--no-hints")
    assert "Preparing the computer players" not in term.screen
    term.prompt_and_type("hint")
    term.wait(r"hint\nHints are off in this game \(euchre play without --no-hints turns them on\)\.\n")
    term.prompt_and_type("quit")
    term.wait("Nothing was played yet, so nothing was saved.")
    assert term.end() == 0


def test_hint_with_one_choice_says_so(run) -> None:
    term = run("play", "--seed", "18", "--speed", "instant", timeout=240)
    term.prompt_and_type("hint", timeout=240)  # 10♦ is the only card
    term.wait(r"hint\nOnly one choice: play the ten of diamonds\.\n")
    term.prompt_and_type("quit")
    term.wait("Nothing was played yet")
    assert term.end() == 0


# --- saving and resuming --------------------------------------------------------------------------
def games_listing(home: Path) -> str:
    term = Terminal(home, "games")
    try:
        assert term.end() == 0
        return term.screen
    finally:
        term.close()


def test_quit_saves_games_lists_it_and_resume_continues_it(run, home: Path) -> None:
    term = run("play", "--seed", "18", "--no-hints", "--speed", "instant")
    for key in SEED18_HAND1:
        term.prompt_and_type(key)
    term.wait(r"─+ Hand 2 ─+")
    name = quit_and_saved(term, home)
    assert re.fullmatch(r"\d{8}-\d{6}(-\d+)?", name)

    listing = games_listing(home)
    lines = listing.strip().splitlines()
    assert lines[0] == (f"Saved games in {home / 'saves'}, the most recent first "
                        "(euchre play --resume NAME or NUMBER continues one):")
    assert re.fullmatch(rf"  1\) {name}, saved \d{{4}}-\d\d-\d\d \d\d:\d\d: hand 2, You & Earl 0, Clyde & Nell 1",
                        lines[1])
    assert lines[2] == "     american (first to 10 points), opponents: level hard"

    term = run("play", "--resume", "--speed", "instant")
    term.wait_words(f"Resuming the game saved in {home / 'saves' / name}.toml: score 0 - 1, hand 2 in progress "
                    "(the first round of bidding)")
    term.wait(r"─+ Hand 2 ─+\nNell deals\. Up card: 10♦")
    term.prompt_and_type("quit")  # nothing played since: the save stays as it is
    term.wait(rf"The game is still saved; euchre play --resume {name} continues it\.\nGoodbye!")
    assert term.end() == 0

    term = run("play", "--resume", name, "--speed", "instant")
    term.wait("Resuming the game saved in")
    term.prompt_and_type("1")  # hand 2: you pass
    term.wait(r"You pass\n")
    assert quit_and_saved(term, home) == name  # saved again under its own name
    assert len(list((home / "saves").iterdir())) == 1


def test_resume_asks_which_of_two_saved_games(run, home: Path) -> None:
    first = run("play", "--seed", "18", "--no-hints", "--speed", "instant")
    first.prompt_and_type("1")
    older = quit_and_saved(first, home)
    second = run("play", "--seed", "20", "--no-hints", "--speed", "instant")
    second.wait_words(f"You have a saved game ({older}; euchre play --resume continues it); this new game will be "
                      "saved separately.")
    second.prompt_and_type("pass")
    newer = quit_and_saved(second, home)
    assert newer != older

    term = run("play", "--resume", "--speed", "instant")
    term.wait(r"2 saved games:\n")
    term.wait(rf"  1\) {newer}, saved [^\n]*: hand 1, You & Nell 0, Abe & Earl 0\n")
    term.wait(r"     american \(first to 10 points\), opponents: level hard\n")
    term.wait(rf"  2\) {older}, saved [^\n]*: hand 1, You & Earl 0, Clyde & Nell 0\n")
    term.wait(r"Which one\? 1-2 or a name \(Enter for none\): ")
    term.type("7")
    term.wait(r"Which one\? 1-2 or a name \(Enter for none\): ")  # asked again
    term.type("2")
    term.wait_words(f"Resuming the game saved in {home / 'saves' / older}.toml: score 0 - 0, hand 1 in progress "
                    "(trick play)")
    start = term.pos
    term.wait(PROMPT)
    assert "Your hand: A♣ Q♣ A♥ 10♥" in panel_lines(term.since(start))  # seed 18 after 10♦
    term.type("quit")
    term.wait(rf"The game is still saved; euchre play --resume {older} continues it\.")
    assert term.end() == 0

    term = run("play", "--resume", "--speed", "instant")
    term.wait(r"Which one\? 1-2 or a name \(Enter for none\): ")
    term.type("")
    term.wait(r"No game resumed\.")
    assert term.end() == 0


@pytest.mark.parametrize("key", ["ctrl-c", "ctrl-d"])
def test_ctrl_c_and_ctrl_d_at_a_prompt_save_the_game(run, home: Path, key: str) -> None:
    term = run("play", "--seed", "18", "--no-hints", "--speed", "instant")
    term.prompt_and_type("1")
    term.wait(r"You play 10♦\n")
    term.wait(PROMPT)
    if key == "ctrl-c":
        term.ctrl_c()
    else:
        term.child.sendeof()
    m = term.wait(SAVED.pattern)
    term.wait("Goodbye!")
    assert term.end() == 0
    assert "Traceback" not in term.screen and "KeyboardInterrupt" not in term.screen
    listing = games_listing(home)
    assert f"  1) {m.group(1)}, saved " in listing


def test_save_file_is_named_in_the_resume_instruction(run, home: Path) -> None:
    file = home.parent / "mine.toml"
    term = run("play", "--seed", "18", "--no-hints", "--speed", "instant", "--save", str(file))
    term.prompt_and_type("1")
    term.prompt_and_type("quit")
    term.wait(rf"Game saved in {re.escape(str(file))}; euchre play --resume {re.escape(str(file))} continues it\.\n")
    assert term.end() == 0
    assert file.is_file() and not (home / "saves").exists()
    term = run("play", "--resume", str(file), "--speed", "instant")
    term.wait_words(f"Resuming the game saved in {file}: score 0 - 0, hand 1 in progress (trick play)")
    term.prompt_and_type("quit")
    term.wait_words(f"The game is still saved; euchre play --resume {file} continues it.")
    assert term.end() == 0


# --- claim and undo -------------------------------------------------------------------------------
def test_undo_takes_back_the_last_card(run) -> None:
    # Seed 1, hand 1: you discard, then follow Clyde's 10♥ with K♥ or Q♥.
    term = run("play", "--seed", "1", "--no-hints", "--speed", "instant")
    term.prompt_and_type("undo")
    term.wait(r"undo\nNothing to take back: you have not played a card in this hand or the last\.\n")
    term.prompt_and_type("1")  # discard Q♣
    term.wait(r"You discard Q♣\nClyde leads 10♥\nNell plays 10♣\nAbe plays A♥\n")
    start = term.pos
    term.wait(PROMPT)
    before = panel_lines(term.since(start))
    assert "Choices: 1) K♥  2) Q♥" in before
    term.type("1")
    term.wait(r"You play K♥\nNell wins trick 1 with 10♣\nNell leads J♣\nAbe plays K♣\n")
    term.prompt_and_type("undo")
    term.wait(r"undo\nYou take back K♥ and the 2 moves after it; it is your turn again\.\n")
    start = term.pos
    term.wait(PROMPT)
    after = panel_lines(term.since(start))
    assert after == before  # the same table and the same choices
    term.type("2")
    term.wait(r"You play Q♥\nNell wins trick 1 with 10♣\n")
    term.prompt_and_type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0


# Seed 20, hand 1: Nell deals; everyone passes and Earl calls hearts. You play A♥, Q♠, K♦ (forced);
# then your J♥ and J♦ win the last two tricks wherever the other cards are.
SEED20_TO_CLAIM = ["pass", "Ah", "Qs", "Kd"]


def test_claim_when_the_rest_is_yours_and_when_it_is_not(run) -> None:
    term = run("play", "--seed", "20", "--no-hints", "--speed", "instant")
    term.prompt_and_type("claim")
    term.wait(r"claim\nNo claim now: a claim is made during the play of the cards, not the first round of "
              r"bidding\.\n")
    term.prompt_and_type("pass")
    term.prompt_and_type("claim")
    term.wait(r"claim\nNo claim now: the rest of the tricks are not certain to be yours: play on\.\n")
    assert "type claim to end the hand" not in term.screen
    for key in SEED20_TO_CLAIM[1:]:
        term.prompt_and_type(key)
    start = term.pos
    term.wait(PROMPT)
    panel = panel_lines(term.since(start))
    assert "Your hand: J♥ J♦" in panel and "Choices: 1) J♥  2) J♦" in panel
    assert panel[-1] == ("You win every trick still to play, wherever the other cards are: type claim to end "
                         "the hand.")
    term.type("claim")
    term.wait(r"claim\nYou claim the rest of the tricks \(7 cards played at once\):\n"
              r"  trick 4: Earl K♣, You J♦, Abe J♣, Nell 10♣; You win it\n"
              r"  trick 5: You J♥, Abe Q♦, Nell Q♣, Earl 10♥; You win it\n"
              r"Hand over: Abe and Earl were euchred \(♥ hearts, made by Earl; 2 tricks\): You and Nell score 2\.\n"
              r"Score: You & Nell 2  ·  Abe & Earl 0   \(first to 10 points\)\n")
    term.wait(r"─+ Hand 2 ─+\nEarl deals\. Up card: K♠")
    term.prompt_and_type("undo")  # the cards of a claim are not taken back
    term.wait(r"undo\nNothing to take back")
    term.prompt_and_type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0


def test_a_computer_player_claims(run) -> None:
    term = run("play", "--seed", "18", "--no-hints", "--speed", "instant")
    for key in SEED18_HAND1:
        term.prompt_and_type(key)
    term.wait(r"You play A♣\nClyde plays 10♣\nNell wins trick 2 with 9♦\n"
              r"Nell claims the rest of the tricks \(12 cards played at once\):\n"
              r"  trick 3: Nell K♦, You Q♣, Clyde K♥, Earl Q♦; Nell wins it\n"
              r"  trick 4: Nell A♦, You 10♥, Clyde Q♠, Earl 10♠; Nell wins it\n"
              r"  trick 5: Nell A♠, You A♥, Clyde K♠, Earl J♠; Nell wins it\n"
              r"Hand over: Clyde and Nell made it \(♦ diamonds, made by Nell; 4 tricks\): Clyde and Nell score 1\.\n")
    term.prompt_and_type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0


# --- settings -------------------------------------------------------------------------------------
def settings(home: Path, *changes: str) -> str:
    term = Terminal(home, "settings", *changes)
    try:
        assert term.end() == 0
        return term.screen
    finally:
        term.close()


def test_autoplay_plays_a_forced_card_without_asking(run, home: Path) -> None:
    shown = settings(home, "autoplay=on")
    assert f"Saved in {home / 'settings.toml'}." in shown
    assert re.search(r"^  autoplay +on +play a forced card", shown, re.M)
    term = run("play", "--seed", "18", "--no-hints", "--speed", "instant")
    term.wait(r"Nell leads J♥\nYou play 10♦\nClyde plays 9♠\n")  # seed 18: 10♦ is your only card
    start = term.pos
    term.wait(PROMPT)
    assert "Choices: 1) A♣" in " ".join(panel_lines(term.since(start)))
    assert term.screen.count(PROMPT) == 1  # the first question is the second card
    term.type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0


def test_confirm_alone_asks_before_going_alone(run, home: Path) -> None:
    settings(home, "confirm-alone=on")
    # Seed 4, hand 1: Clyde deals, Vera passes; you may pass, order up, or order up and go alone.
    term = run("play", "--seed", "4", "--no-hints", "--speed", "instant")
    start = term.pos
    term.wait(PROMPT)
    assert "Choices: 1) pass  2) order up  3) order up and go alone" in panel_lines(term.since(start))
    term.type("3")
    term.wait(r"Go alone\? Your partner sits out this hand\. \[y/N\] ")
    term.type("n")
    term.wait(r"Not going alone; choose again\.\n")
    term.prompt_and_type("order alone")
    term.wait(r"Go alone\? Your partner sits out this hand\. \[y/N\] ")
    term.type("")
    term.wait(r"Not going alone; choose again\.\n")
    assert "You order" not in term.screen
    term.prompt_and_type("order")  # not alone: no question
    term.wait(r"order\nYou order Clyde to pick up K♠\n")
    assert term.screen.count("Go alone?") == 2
    term.wait(PROMPT)
    term.ctrl_c()
    term.wait(SAVED.pattern)
    assert term.end() == 0


def test_a_corrupt_settings_file_warns_and_the_game_starts(run, home: Path) -> None:
    home.mkdir(parents=True)
    (home / "settings.toml").write_text("speed = [\n", encoding="utf-8")
    term = run("play", "--seed", "1", "--no-hints", "--speed", "instant", "--no-color")
    term.wait_words(f"Settings: {home / 'settings.toml'} is not valid TOML (Invalid value (at end of document)); "
                    "using the default settings")
    term.prompt_and_type("quit")
    term.wait("Nothing was played yet")
    assert term.end() == 0

    (home / "settings.toml").write_text('speed = "warp"\nhints = "maybe"\nautoplay = true\n', encoding="utf-8")
    term = run("play", "--seed", "18", "--no-hints", "--no-color", "--speed", "instant")
    shown = words(term.wait(r"(?s)Settings: .*?ignored.*?Settings: .*?ignored").group())
    assert shown == (f"Settings: {home / 'settings.toml'}: speed must be slow, normal, fast, instant or auto, not "
                     f"\u201cwarp\u201d; ignored Settings: {home / 'settings.toml'}: hints must be on or off, not "
                     f"\u201cmaybe\u201d; "
                     "ignored")
    term.wait(r"You play 10♦\n")  # the good value (autoplay) is kept
    term.prompt_and_type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0


# --- messages -------------------------------------------------------------------------------------
def choice_lines(text: str) -> list[str]:
    """The lines of the last panel's choices, borders removed (the first starts with ``Choices:``)."""
    panel = panel_lines(text)
    first = next(i for i, ln in enumerate(panel) if ln.startswith("Choices: "))
    lines = [panel[first]]
    for ln in panel[first + 1:]:
        if not ln.startswith(" " * len("Choices: ")) or not re.match(r"\s+\d+\) ", ln):
            break
        lines.append(ln)
    return lines


def items_of(lines: list[str]) -> list[list[str]]:
    """Each choices line split into its items (two spaces between items)."""
    return [re.split(r" {2,}", ln.removeprefix("Choices: ").strip()) for ln in lines]


@pytest.mark.parametrize("cols", [80, 120])
def test_choices_are_never_split_across_lines(run, cols: int) -> None:
    # Seed 1, hand 1: six cards to discard; seed 4, hand 1: the second round of bidding, seven choices.
    term = run("play", "--seed", "1", "--no-hints", "--speed", "instant", cols=cols)
    start = term.pos
    term.wait(PROMPT)
    lines = choice_lines(term.since(start))
    assert sum(items_of(lines), []) == SEED1_CHOICES
    assert all(len(ln) <= cols - 4 for ln in lines)
    assert len(lines) == (2 if cols == 80 else 1)
    term.type("quit")
    assert term.end() == 0

    term = run("play", "--seed", "4", "--no-hints", "--speed", "instant", cols=cols)
    term.prompt_and_type("pass")
    term.wait(r"Vera passes\n")
    start = term.pos
    term.wait(PROMPT)
    lines = choice_lines(term.since(start))
    expected = ["1) pass", "2) call ♣ clubs", "3) call ♦ diamonds", "4) call ♥ hearts", "5) call ♣ clubs alone",
                "6) call ♦ diamonds alone", "7) call ♥ hearts alone"]
    assert sum(items_of(lines), []) == expected
    assert len(lines) == (3 if cols == 80 else 2) and all(len(ln) <= cols - 4 for ln in lines)
    assert "  The turned-down suit, ♠ spades, cannot be named." in panel_lines(term.since(start))
    for ln in lines[1:]:
        assert ln.startswith(" " * len("Choices: ") + next(i for i in expected if ln.strip().startswith(i)))
    term.type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0


LEAKS = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|[{}\[\]]|\w+\(|<\w|\b\w+_\w+\b|Kind\.|Suit\.|Phase\.")
"""What Python would print and a player should never read."""


def test_a_whole_game_shows_no_python(run, home: Path) -> None:
    term = run("play", "--seed", "7", "--speed", "instant", "--no-hints", "--target", "3", "--no-color", cols=80)
    prompts = 0
    while True:
        m = term.wait(rf"{PROMPT}|─+ Game over ─+", timeout=60)
        if m.group() != PROMPT:
            break
        prompts += 1
        assert prompts < 200
        term.type("1")
    term.wait(r"Score: [^\n]*\(first to 3 points\)\n")
    term.wait(r"(You and \w+|\w+ and \w+) wins? the game!\n")
    m = term.wait(r"The game's record is saved in (.*) \(euchre replay (.*)\)\.")
    archive = Path(m.group(1))
    assert archive.parent == home / "games" and archive.is_file() and m.group(2) == m.group(1)
    assert term.end() == 0
    screen = term.screen
    assert screen.count("Hand over: ") >= 2 and "Traceback" not in screen
    assert not [ln for ln in screen.replace(str(home), "HOME").splitlines() if LEAKS.search(ln)]
    quotes = [ln for ln in screen.splitlines() if re.search(r"'(?!(?<=\w')\w)", ln)]
    assert not quotes  # an apostrophe only inside a word (the game's record), never a quoted repr
    assert not (home / "saves").is_dir() or not list((home / "saves").glob("*.toml"))  # archived, not saved


def test_the_note_why_a_choice_is_missing(run) -> None:
    term = run("play", "--seed", "1", "--no-hints", "--speed", "instant")
    term.prompt_and_type("1")  # discard Q♣; Clyde leads 10♥
    start = term.pos
    term.wait(PROMPT)
    panel = panel_lines(term.since(start))
    assert panel[panel.index("Choices: 1) K♥  2) Q♥") + 1] == "  You must follow the suit led, ♥ hearts."
    for typed in ("Jd", "J♦"):  # a card of another suit, typed as letters or as the table shows it
        term.type(typed)
        term.wait(rf"{typed}\nNot possible: you must follow hearts: you hold K♥, Q♥\n")
    term.type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0

    term = run("play", "--seed", "20", "--no-hints", "--speed", "instant")
    for key in SEED20_TO_CLAIM[:3]:
        term.prompt_and_type(key)
    start = term.pos
    term.wait(PROMPT)
    panel = panel_lines(term.since(start))
    assert panel[panel.index("Choices: 1) K♦") + 1] == ("  You must follow the suit led, ♦ diamonds. Remember: J♦ is "
                                                        "a trump, not one of the ♦ diamonds.")
    term.type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0


@pytest.mark.parametrize(("level", "seed"), [("hard", 1), ("easy", 1), ("expert", 1)])
def test_computer_players_have_first_names_and_their_level(run, level: str, seed: int) -> None:
    term = run("play", "--seed", str(seed), "--level", level, "--no-hints", "--speed", "instant", timeout=240)
    start = term.pos
    term.wait(PROMPT, timeout=240)
    panel = panel_lines(term.since(start))
    rows = [ln.split() for ln in panel if re.match(r"\d ", ln)]
    assert [r[:2] for r in rows][0] == ["0", "You"] and len(rows) == 4
    for row in rows[1:]:
        assert re.fullmatch(r"[A-Z][a-z]+", row[1]) and row[1] not in ("West", "North", "East", "You")
        assert row[2] == f"({level})"
    assert len({r[1] for r in rows}) == 4
    term.type("quit")
    assert term.end() == 0


def test_the_game_fits_an_80_column_terminal(run) -> None:
    term = run("play", "--seed", "20", "--no-hints", "--speed", "instant", cols=80)
    for key in SEED20_TO_CLAIM:
        term.prompt_and_type(key)
    term.wait(PROMPT)
    term.type("claim")
    term.prompt_and_type("quit")
    term.wait(SAVED.pattern)
    assert term.end() == 0
    laid_out = [ln for ln in term.screen.splitlines() if ln[:1] in "│╭╰─ "]  # the table and the rules
    assert len(laid_out) > 50 and all(len(ln) <= 80 for ln in laid_out)


# --- once bugs: a settings value shown as Python, a long file name folded mid-name ----------------
def test_a_settings_value_of_the_wrong_type_is_named_without_python(run, home: Path) -> None:
    home.mkdir(parents=True)
    (home / "settings.toml").write_text("hints = {a = 1}\nspeed = [1, 2]\n", encoding="utf-8")
    term = run("play", "--seed", "1", "--no-hints", "--speed", "instant", "--no-color")
    start = term.pos
    term.prompt_and_type("quit")
    warnings = [ln for ln in term.since(start).splitlines() if ln.startswith("Settings:")]
    term.end()
    assert len(warnings) == 2
    assert not [ln for ln in warnings if re.search(r"[{}\[\]]|'\w+'", ln)], warnings  # {'a': 1}, [1, 2]


def test_a_long_file_name_is_never_broken_across_lines(run, home: Path) -> None:
    file = home.parent / ("x" * 90) / "game.toml"
    file.parent.mkdir(parents=True)
    term = run("play", "--seed", "18", "--no-hints", "--speed", "instant", "--save", str(file))
    term.prompt_and_type("1")
    term.prompt_and_type("quit")
    term.wait(rf"Game saved in {re.escape(str(file))}; ")  # this message keeps the name whole
    term.end()
    term = run("play", "--resume", str(file), "--speed", "instant", "--no-hints")
    term.wait_words("Resuming the game saved in")
    term.prompt_and_type("quit")
    term.wait("Goodbye!")
    term.end()
    assert str(file) in term.screen, term.screen[:300]  # the name whole, to copy
