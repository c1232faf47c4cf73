"""A bot that is another program, spoken to over the line protocol of :mod:`euchre.protocol`.

:class:`ExternalBot` starts the program on its first decision (so building one, as the command
line does to check ``--bots``, costs nothing), sends ``hello`` when a game starts, one ``act`` per
decision, ``end`` when it is reset (a new game), and ``end`` then ``bye`` when it is closed. Every
failure of the program (could not start, died, too slow, a line that is not a legal action) raises
:class:`~euchre.errors.BotProtocolError` naming the command, the seat, the line received and the
legal actions; the program is then stopped, and a later decision starts it afresh.

The program is always stopped and reaped: by :meth:`ExternalBot.close`, by leaving a ``with``
block, when the bot is garbage-collected, or at interpreter exit (a :func:`weakref.finalize`
safety net). Stopping sends ``bye`` and closes the program's input, waits a moment, then
terminates and finally kills it.
"""

from __future__ import annotations

import collections
import os
import queue
import shlex
import shutil
import subprocess
import threading
import weakref
from collections.abc import Sequence
from types import TracebackType
from typing import IO, Any, NoReturn

from euchre.actions import Action
from euchre.bots.base import EXEC_PREFIX, Bot
from euchre.errors import BotProtocolError
from euchre.protocol import act_message, bye_message, encode, end_message, hello_message, parse_answer
from euchre.view import PlayerView

__all__ = ["ExternalBot", "DEFAULT_TIMEOUT", "EXEC_PREFIX"]

DEFAULT_TIMEOUT = 10.0
"""Seconds a bot may take per decision (the first one includes starting the program)."""

_STDERR_LINES = 20
"""How many of the program's last standard-error lines are kept for error messages."""


def _pump(stream: IO[str], sink: queue.Queue[str | None]) -> None:
    """Copy lines from the program's output to a queue, then ``None`` at the end (a thread)."""
    try:
        for line in stream:
            sink.put(line)
    except (OSError, ValueError):
        pass
    finally:
        sink.put(None)


def _feed(stream: IO[str], outbox: queue.Queue[str | None]) -> None:
    """Write queued lines to the program's input until ``None``, then close it (a thread).

    Writing happens here, not in the caller, so a program that stops reading (its input pipe
    full) can block only this thread: the caller's wait for an answer keeps its timeout, and
    stopping the program ends the blocked write with a broken pipe."""
    try:
        while True:
            line = outbox.get()
            if line is None:
                break
            stream.write(line)
            stream.flush()
    except (OSError, ValueError):
        pass
    finally:
        try:
            stream.close()
        except (OSError, ValueError):
            pass


def _keep_tail(stream: IO[str], tail: collections.deque[str]) -> None:
    """Keep the last lines of the program's standard error (a thread)."""
    try:
        for line in stream:
            tail.append(line.rstrip("\r\n"))
    except (OSError, ValueError):
        pass


class _Process:
    """One run of the program: the pipes, the reader threads, and an idempotent :meth:`stop`.

    Kept apart from the bot so the finalizer that stops it holds no reference to the bot."""

    def __init__(self, argv: list[str], cwd: str | None, env: dict[str, str] | None) -> None:
        child_env = dict(os.environ if env is None else env)
        child_env.setdefault("PYTHONUNBUFFERED", "1")  # a Python bot that forgets to flush still works
        self.popen = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
            env=child_env, text=True, encoding="utf-8", errors="replace", bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        assert self.popen.stdout is not None and self.popen.stderr is not None
        assert self.popen.stdin is not None
        self.outbox: queue.Queue[str | None] = queue.Queue()
        self.writer = threading.Thread(target=_feed, args=(self.popen.stdin, self.outbox), daemon=True)
        self.threads = [
            threading.Thread(target=_pump, args=(self.popen.stdout, self.lines), daemon=True),
            threading.Thread(target=_keep_tail, args=(self.popen.stderr, self.stderr), daemon=True),
            self.writer,
        ]
        for t in self.threads:
            t.start()
        self.game_open = False
        self.eof = False
        self.stopped = False
        self.input_closed = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message line for the writer thread (never blocks); ``OSError`` if the
        program's input is already closed (it exited, or it is being stopped)."""
        if self.input_closed or not self.writer.is_alive():
            raise BrokenPipeError("the program's input is closed")
        self.outbox.put(encode(message) + "\n")

    def read(self, timeout: float) -> str | None:
        """The next non-blank line, ``None`` at end of output; ``queue.Empty`` on timeout."""
        return self._next(block=True, timeout=timeout)

    def pending(self) -> str | None:
        """A non-blank line already waiting (the program spoke without being asked), if any."""
        try:
            return self._next(block=False)
        except queue.Empty:
            return None

    def _next(self, *, block: bool, timeout: float | None = None) -> str | None:
        """The next non-blank line of the program's output (``None`` once it has ended)."""
        while not self.eof:
            line = self.lines.get(block=block, timeout=timeout)
            if line is None:
                self.eof = True
                return None
            if line.strip():
                return line
        return None

    def stderr_tail(self) -> str:
        return "\n".join(self.stderr)

    def stop(self, grace: float = 1.0) -> None:
        """Say ``end`` (if a game is open) and ``bye``, close the input, wait ``grace`` seconds for
        the program to exit, then terminate it (and kill it a second later); always reap it. Safe to
        call twice."""
        if self.stopped:
            return
        self.stopped = True
        p = self.popen
        if p.poll() is None:
            try:
                if self.game_open:
                    self.send(end_message())
                self.send(bye_message())
            except (OSError, ValueError):
                pass
        self.game_open = False
        self.input_closed = True
        self.outbox.put(None)  # the writer closes the input after the last line
        try:
            p.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            p.terminate()
            try:
                p.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        for t in self.threads:
            t.join(timeout=0.5)
        for stream in (p.stdout, p.stderr):
            try:
                if stream is not None:
                    stream.close()
            except (OSError, ValueError):
                pass


class ExternalBot(Bot):
    """A bot run as a separate program that speaks the protocol of ``docs/protocol.md``.

    ``command`` is an argument list or a shell-like string (split with :func:`shlex.split`, no
    shell is involved). ``timeout`` is the limit in seconds for each decision; ``seed`` and
    ``names`` are passed on in ``hello``. ``cwd`` and ``env`` are those of the program.

    :meth:`reset` (a new game) sends ``end`` and keeps the program running: its next decision
    starts with a new ``hello``. One program serves one bot object, whatever the seat.

    >>> import sys
    >>> from euchre import Game, Rules
    >>> with ExternalBot([sys.executable, "-m", "euchre.protocol", "heuristic"]) as bot:
    ...     game = Game(Rules(), seed=1)
    ...     bot.choose(game.view(game.to_act)) in game.legal_actions()
    True
    """

    name = "exec"

    def __init__(self, command: str | Sequence[str], *, seed: int | None = None, timeout: float = DEFAULT_TIMEOUT,
                 names: Sequence[str] | None = None, cwd: str | os.PathLike[str] | None = None,
                 env: dict[str, str] | None = None) -> None:
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if not argv:
            raise ValueError("ExternalBot: empty command")
        if timeout <= 0:
            raise ValueError(f"ExternalBot: timeout must be positive, got {timeout}")
        if cwd is None and shutil.which(argv[0]) is None:
            raise ValueError(f"ExternalBot: program not found (or not executable): {argv[0]!r} "
                             f"(in the command {shlex.join(argv)!r})")
        self.argv = argv
        self.command = shlex.join(argv)
        """The command as one line, for messages."""
        self.timeout = float(timeout)
        self.seed = seed
        self.names = None if names is None else list(names)
        self.cwd = None if cwd is None else os.fspath(cwd)
        self.env = env
        self._process: _Process | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._seat: int | None = None

    def __repr__(self) -> str:
        return f"<ExternalBot {self.command!r}>"

    # --- life cycle ---------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """The program is started and has not exited."""
        return self._process is not None and self._process.popen.poll() is None

    @property
    def pid(self) -> int | None:
        """The program's process id while it is started."""
        return None if self._process is None else self._process.popen.pid

    def start(self) -> None:
        """Start the program now (otherwise its first decision does); no-op if it runs."""
        if self._process is not None:
            if not self._process.stopped and self._process.popen.poll() is None:
                return
            self.close()
        try:
            process = _Process(self.argv, self.cwd, self.env)
        except OSError as e:
            raise BotProtocolError(f"bot {self.command!r} could not be started: {e}", reason="start",
                                   command=self.command) from e
        self._process = process
        self._finalizer = weakref.finalize(self, process.stop)
        self._seat = None

    def reset(self) -> None:
        """A new game starts: the program is told ``end``, and its next decision begins with
        ``hello``. The program keeps running."""
        self.game_over()

    def game_over(self, view: PlayerView | None = None) -> None:
        """Tell the program the game is over (``end``, with the final ``view`` if given). Engines
        that know when a game ends call this; :meth:`reset` and :meth:`close` do it otherwise."""
        p = self._process
        self._seat = None
        if p is None or not p.game_open:
            return
        p.game_open = False
        try:
            p.send(end_message(view))
        except (OSError, ValueError):
            pass  # the program is gone: the next decision reports it

    def close(self) -> None:
        """Stop the program (``end`` if a game is open, ``bye``, then terminate/kill if it lingers)
        and reap it. Safe to call more than once; a later decision starts it again."""
        if self._finalizer is not None:
            self._finalizer()  # runs _Process.stop once
        self._finalizer = None
        self._process = None
        self._seat = None

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - a destructor must not raise (interpreter shutdown)
            pass

    # --- deciding -----------------------------------------------------------------------------
    def choose(self, view: PlayerView) -> Action:
        """Ask the program: ``hello`` first if a game starts, then ``act``; its line must be a
        legal action. Raises :class:`BotProtocolError` (and stops the program) on any failure."""
        if view.seat is None or not view.is_my_turn or not view.legal_actions:
            raise ValueError(f"ExternalBot: seat {view.seat} is not to act (seat {view.to_act} is)")
        seat = view.seat
        legal = tuple(str(a) for a in view.legal_actions)
        p = self._process
        if p is not None and p.game_open and p.popen.poll() is not None:
            self._fail("exited", "exited during the game", seat, None, legal)
        self.start()  # the first time, after close() or an error, or after it exited between games
        p = self._process
        assert p is not None
        unsolicited = p.pending()
        if unsolicited is not None:
            self._fail("unsolicited", "sent a line before it was asked to act", seat, unsolicited, legal)
        try:
            if self._seat != seat or not p.game_open:
                if p.game_open:
                    p.send(end_message())
                p.send(hello_message(seat, view.rules, names=self.names, seed=self.seed))
                p.game_open = True
                self._seat = seat
            p.send(act_message(view))
        except (OSError, ValueError):
            self._fail("exited", "is not running (its input is closed)", seat, None, legal)
        try:
            line = p.read(self.timeout)
        except queue.Empty:
            self._fail("timeout", f"did not answer within {self.timeout:g} s", seat, None, legal)
        if line is None:
            self._fail("exited", "closed its output (it exited or crashed)", seat, None, legal)
        try:
            return parse_answer(line, view.legal_actions)
        except BotProtocolError as e:
            self._fail(e.reason, f"gave an answer that is not accepted: {e}", seat, line, legal)

    def _fail(self, reason: str, what: str, seat: int, line: str | None, legal: tuple[str, ...]) -> NoReturn:
        """Stop the program and raise the error, with its last standard-error lines."""
        p = self._process
        tail = ""
        code = None
        if p is not None:
            if reason == "timeout":
                p.stop(grace=0.0)  # a hung program will not read bye: terminate it at once
            self.close()
            code = p.popen.returncode
            tail = p.stderr_tail()
        parts = [f"bot {self.command!r} at seat {seat} {what}"]
        if reason == "exited" and code is not None:
            parts.append(f"exit status {code}")
        if line is not None:
            parts.append(f"line received: {line.rstrip(chr(13) + chr(10))!r}")
        parts.append(f"legal actions: {', '.join(legal)}")
        message = "; ".join(parts)
        if tail:
            message += "\nits last standard-error lines:\n  " + tail.replace("\n", "\n  ")
        raise BotProtocolError(message, reason=reason, command=self.command, seat=seat,
                               line=None if line is None else line.rstrip("\r\n"), legal=legal)
