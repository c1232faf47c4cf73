"""Server faults from the issue tracker: computer players' turn-around under a hint flood, and memory per table.

Both parts start ``euchre serve`` themselves, as ``bench/server.py`` does: a subprocess on 127.0.0.1 (a free
port), ``--bot-delay 0``, a fresh SQLite database in a temporary directory, the per-address limits on
connections and tables off (``--connect-limit 0 --create-limit 0 --max-tables-per-client 0``: every simulated
client is 127.0.0.1). Each run gets its own fresh server (a fresh hint cache and fresh rate buckets). The clients
are WebSockets (the ``websockets`` package, asyncio) in this process; HTTP is a minimal asyncio client.

1. Fairness of the computer players' turn-around under a hint flood. Issue: "Hints share the 2-thread bot pool
   with every table's bots, with no limit per client or overall: ten sockets looping {"t":"hint"} at their own
   tables took another table's bot turn-around from 5 ms to 9.1 s (p50), 14.1 s max." Hints now run on a thread
   of their own, with a global bound (``busy``) and a per-address rate limit (``rate``).

   The victim: a friends table at ``--level`` (default expert, the search bot: its decisions take tens of ms of
   CPU, so they are what a flood can slow), started by its host alone, so seats 1-3 are computer players. The
   host plays a uniformly random legal action the moment its turn comes; a finished game is followed by a new
   table. Bot turn-around is measured by the host's client: from the moment a bot is to act (the host's ``ack``,
   or the state frame after which a bot is to act) to the state frame carrying that bot's action (the next
   version). Samples are those ending within the ``--seconds`` measured after ``--warmup``.

   The flood: ``--flood-tables`` (default 10) other tables whose to-act socket loops ``{"t":"hint"}``: send a
   hint, wait for its ``hint`` or ``err`` frame, ask again at once; after ``busy`` or ``rate``, ask again after
   ``--retry`` (50 ms). Paced so the server never closes the socket: at most ``--flood-rate`` (8) hint frames a
   second per socket (the frame bucket is 10 a second), and at most 45 refused frames within any 10 s (more than
   50 close the socket), so a socket that is refused throughout asks about 4.5 times a second.
   ``--flood-mode advance`` (default): after each answered hint the asking seat plays a random legal action, so
   every hint is of a new position. The hub caches hints by position, so re-asking one position costs the server
   nothing after the first answer; this mode makes each answer a real search. Its tables are friends tables with
   all four seats held by the flooding client, so they have no computer players and the bot pool serves only the
   victim. ``--flood-mode repeat``: literally the issue's loop. The host sits alone with bots (at ``--level``),
   never acts, and re-asks its one position, which is cached after the first answer.

   Runs, each named, on its own server: ``baseline`` (no flood), ``flood`` (the server's default hint limits:
   started WITHOUT ``--hint-limit 0``, so 20 a minute after a burst of 5 per address, and every flooder is
   127.0.0.1), ``flood-nolimit`` (``--hint-limit 0``: only the global bound of 4 hints at once, ``busy``, limits
   them). Printed: the victim's bot turn-around p50/p95/max and the ratio to the baseline's; hints answered,
   refused ``busy`` and refused ``rate`` a second over the measured window; the server's CPU (``/proc/<pid>/stat``,
   its event-loop thread apart) and the load average.

2. Memory per table. Issue: "11-16 MB per table with search bots (40 tables: +431 MB) ... measure memory per table
   in a benchmark." For each of ``--mem-levels`` (expert, hard) on its own fresh server: the server's resident
   memory (``VmRSS`` of ``/proc/<pid>/status``) idle just after start (the baseline); then ``--mem-tables`` (40)
   tables of mode ``bots`` (seat 0 the host, seats 1-3 computer players, started at once) are opened, the first
   alone and then the rest together, and the host of each plays random legal actions until ``--mem-hands`` (1)
   hands are over and it is its turn again, so every bot has made its decisions and no bot is busy. Printed: RSS
   idle, after the first table, after all of them, MB per table over the idle baseline ((all - idle) / K) and at
   the margin ((all - first) / (K - 1): without what the process loads once, such as the compiled search), the
   peak (``VmHWM``), and the RSS once every socket is closed. ``euchre serve`` has no option to put idle tables
   away sooner (they go after ten minutes without a connection, ``ServerConfig.idle_unload``), so that last
   number is with the tables still in memory (``/healthz`` ``tables`` says how many).

Goal: under the flood, the victim's bot turn-around stays near its baseline (the issue had x1800 at the median);
memory per table measured, to set ``--max-tables`` and the per-client table limit by.

Bounded: every loop stops at the end of its run or at the hard ``--timeout`` (600 s), after which everything is
killed; the server subprocess is killed at the end in any case (and dies with this process, ``PR_SET_PDEATHSIG``).
About 2.5 minutes with the defaults on 2 cores.

    python bench/server_faults.py [--parts fairness,memory] [--level expert] [--flood-tables 10]
                                  [--flood-mode advance] [--seconds 30] [--warmup 5] [--retry 0.05]
                                  [--flood-rate 8] [--mem-tables 40] [--mem-levels expert,hard] [--mem-hands 1]
                                  [--seed 0] [--timeout 600] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

import server as server_bench  # bench/server.py: how a benchmark starts and stops euchre serve

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MB = 1024 * 1024
REFUSALS_KEPT = 45
"""Refused frames a flooding socket allows itself within ``REFUSAL_WINDOW`` (the server closes at more than 50)."""
REFUSAL_WINDOW = 10.0
REPLY_TIMEOUT = 30.0
"""Seconds a client waits for the answer to a hint, or for a table to move, before it counts an error."""


pct = server_bench.pct


# --- the server -------------------------------------------------------------------------------------
SERVERS: list[subprocess.Popen[str]] = []
"""Every server started, so that the end (normal, error, timeout, signal) kills it."""


def _die_with_parent() -> None:
    """In the child, before exec: get SIGKILL when the parent dies (Linux), so no server outlives the bench."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def kill_servers() -> None:
    for proc in SERVERS:
        if proc.poll() is None:
            proc.kill()
            with contextlib.suppress(Exception):
                proc.wait(10)


def cpu_seconds(path: str) -> float | None:
    """User + system CPU seconds from a ``/proc/.../stat`` file."""
    try:
        with open(path) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_status(pid: int, key: str) -> int | None:
    """A ``kB`` line of ``/proc/<pid>/status`` (``VmRSS``, ``VmHWM``), in bytes."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


class Server(server_bench.Server):
    """``euchre serve`` (``bench/server.py``'s) on a fresh SQLite file in ``home``, dying with this
    script, with its memory and CPU at hand."""

    def __init__(self, home: str, extra: list[str]) -> None:
        # The server's own hint limit, unless ``extra`` says ``--hint-limit 0`` (the no-limit run).
        super().__init__(f"sqlite:///{os.path.join(home, 'euchre.sqlite3')}", home,
                         hint_limit=0 if "--hint-limit" in extra else None, preexec_fn=_die_with_parent)

    def start(self, timeout: float = 60.0) -> Server:
        super().start(timeout)
        assert self.proc is not None
        SERVERS.append(self.proc)
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def rss(self) -> int:
        return proc_status(self.pid, "VmRSS") or 0

    def cpu(self) -> tuple[float | None, float | None]:
        """CPU seconds of the whole process, and of its main thread (the event loop)."""
        return cpu_seconds(f"/proc/{self.pid}/stat"), cpu_seconds(f"/proc/{self.pid}/task/{self.pid}/stat")


# --- clients ----------------------------------------------------------------------------------------
class Net:
    """HTTP and WebSocket access to one server, and the errors seen by any client."""

    def __init__(self, port: int, stop_at: float) -> None:
        self.port = port
        self.stop_at = stop_at
        """perf_counter time at which every client stops (the end of the run, or the hard timeout)."""
        self.errors: Counter[str] = Counter()

    @property
    def stopping(self) -> bool:
        return time.perf_counter() >= self.stop_at

    async def http(self, method: str, path: str, body: dict[str, Any] | None = None,
                   token: str | None = None) -> tuple[int, dict[str, Any]]:
        return await server_bench.http_request(self.port, method, path, body, token, REPLY_TIMEOUT)

    async def table(self, mode: str, level: str, name: str) -> dict[str, Any]:
        status, info = await self.http("POST", "/api/tables", {"mode": mode, "level": level, "name": name})
        if status != 201:
            raise RuntimeError(f"POST /api/tables: HTTP {status} {info}")
        return info

    async def start(self, info: dict[str, Any]) -> None:
        status, body = await self.http("POST", f"/api/tables/{info['id']}/start", token=info["token"])
        if status != 200:
            raise RuntimeError(f"start table: HTTP {status} {body}")

    async def connect(self, table_id: str, token: str, name: str) -> Any:
        from websockets.asyncio.client import connect

        ws = await connect(f"ws://127.0.0.1:{self.port}/ws/{table_id}", ping_interval=None, max_size=2**22,
                           open_timeout=REPLY_TIMEOUT, proxy=None)
        await ws.send(json.dumps({"t": "hello", "token": token, "name": name}))
        return ws


class Seat:
    """One seat's socket: keeps the latest state; acts or asks for hints on its turn (subclasses)."""

    def __init__(self, net: Net, rng: random.Random, name: str) -> None:
        self.net = net
        self.rng = rng
        self.name = name
        self.ws: Any = None
        self.v = -1
        self.d: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.n = 0
        self.closing = False
        self.gone = False

    async def open(self, table_id: str, token: str) -> None:
        self.ws = await self.net.connect(table_id, token, self.name)

    def legal(self) -> list[str]:
        d = self.d
        if d is None or d["status"] != "playing" or not d["view"]:
            return []
        legal: list[str] = d["view"]["legal"]
        return legal

    async def act(self, action: str, v: int) -> None:
        self.n += 1
        await self.ws.send(json.dumps({"t": "act", "id": f"{self.name}.{self.n}", "action": action, "v": v}))

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                now = time.perf_counter()
                f = json.loads(raw)
                self.frame(f, now)
                if f["t"] == "state" and f["v"] > self.v:
                    self.v = f["v"]
                    self.d = f["d"]
                    self.changed.set()
        except ConnectionClosed:
            pass
        except Exception as e:  # noqa: BLE001 - counted, never silent
            self.net.errors[f"client {type(e).__name__}: {e}"] += 1
        finally:
            self.gone = True
            if not self.closing:
                self.net.errors[f"{type(self).__name__.lower()} socket closed by the server"] += 1
            self.changed.set()

    def frame(self, f: dict[str, Any], now: float) -> None:
        """Every frame, before the state is kept (for the subclasses' timing)."""
        if f["t"] == "err" and f.get("id") is not None:
            self.net.errors[f"act refused: {f.get('code')}"] += 1

    async def wait_past(self, v: int, timeout: float) -> None:
        """Until a state newer than version ``v`` is kept (or the socket closes, or ``timeout``)."""
        end = time.perf_counter() + timeout
        while self.v <= v and not self.gone:
            self.changed.clear()
            left = min(end, self.net.stop_at) - time.perf_counter()
            if left <= 0:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)


# --- 1. turn-around under a hint flood -------------------------------------------------------------
class VictimHost(Seat):
    """The host of the victim table: plays at once on its turn, and times the bots' turns."""

    def __init__(self, net: Net, rng: random.Random, name: str, samples: list[tuple[float, float]]) -> None:
        super().__init__(net, rng, name)
        self.samples = samples
        """(end time, turn-around seconds) of each bot action."""
        self.since: dict[int, float] = {}
        """Version -> when this client first knew of it (its ack, else its state frame)."""
        self.bot_to_act: dict[int, bool] = {}

    def frame(self, f: dict[str, Any], now: float) -> None:
        super().frame(f, now)
        t = f["t"]
        if t == "ack":
            self.since.setdefault(f["v"], now)
        elif t == "state" and f["v"] > self.v:
            v, d = f["v"], f["d"]
            self.since.setdefault(v, now)
            if self.bot_to_act.get(v - 1):
                self.samples.append((now, now - self.since[v - 1]))
            view = d.get("view")
            to_act = view["to_act"] if view and d["status"] == "playing" else None
            bots = {s["seat"] for s in d["seats"] if s["kind"] == "bot"}
            self.bot_to_act[v] = to_act in bots
            self.since.pop(v - 2, None)
            self.bot_to_act.pop(v - 2, None)

    async def play(self) -> bool:
        """Play until the game is over (True) or the run stops (False)."""
        acted = -1
        last_move = time.perf_counter()
        while not self.net.stopping:
            d, v = self.d, self.v
            if d is not None and d["status"] == "over":
                return True
            legal = self.legal()
            if legal and v > acted:
                acted = v
                await self.act(self.rng.choice(legal), v)
                last_move = time.perf_counter()
            if self.gone:
                return False
            await self.wait_past(v, 0.5)
            if self.v > v:
                last_move = time.perf_counter()
            elif time.perf_counter() - last_move > REPLY_TIMEOUT:
                self.net.errors["victim table stalled"] += 1
                return False
        return False


async def victim(net: Net, level: str, rng: random.Random, samples: list[tuple[float, float]],
                 games: list[int]) -> None:
    """Friends tables started by their host alone (seats 1-3: computer players), one after another."""
    while not net.stopping:
        info = await net.table("friends", level, "victim")
        host = VictimHost(net, rng, "victim", samples)
        await host.open(info["id"], info["token"])
        reader = asyncio.create_task(host.read())
        try:
            await net.start(info)
            if await host.play():
                games[0] += 1
        finally:
            await host.close()
            await asyncio.wait([reader], timeout=10)


@dataclass
class FloodStats:
    answered: list[float] = field(default_factory=list)
    """perf_counter times of answered hints."""
    latency: list[tuple[float, float]] = field(default_factory=list)
    busy: list[float] = field(default_factory=list)
    rate: list[float] = field(default_factory=list)
    other: Counter[str] = field(default_factory=Counter)
    frames: int = 0
    actions: int = 0


class Flooder(Seat):
    """A seat whose socket loops ``{"t":"hint"}`` whenever it is its turn, paced not to be closed."""

    def __init__(self, net: Net, rng: random.Random, name: str, stats: FloodStats, a: argparse.Namespace) -> None:
        super().__init__(net, rng, name)
        self.stats = stats
        self.advance = a.flood_mode == "advance"
        self.retry = a.retry
        self.gap = 1.0 / a.flood_rate
        self.replies: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.refused: deque[float] = deque()
        self.last_sent = 0.0

    def frame(self, f: dict[str, Any], now: float) -> None:
        t = f["t"]
        if t == "hint" or (t == "err" and f.get("id") is None):
            self.replies.put_nowait({**f, "at": now})
        else:
            super().frame(f, now)

    async def pace(self) -> None:
        now = time.perf_counter()
        while self.refused and self.refused[0] < now - REFUSAL_WINDOW:
            self.refused.popleft()
        wait = self.last_sent + self.gap - now
        if len(self.refused) >= REFUSALS_KEPT:
            wait = max(wait, self.refused[0] + REFUSAL_WINDOW - now + 0.01)
        if wait > 0:
            await asyncio.sleep(min(wait, max(0.0, self.net.stop_at - now)))

    async def flood(self) -> None:
        acted = -1
        while not self.net.stopping and not self.gone and not (self.d is not None and self.d["status"] == "over"):
            legal, v = self.legal(), self.v
            if not legal or v <= acted:
                await self.wait_past(v, 0.5)
                continue
            await self.pace()
            if self.net.stopping:
                return
            self.last_sent = sent = time.perf_counter()
            await self.ws.send('{"t":"hint"}')
            self.stats.frames += 1
            try:
                r = await asyncio.wait_for(self.replies.get(), REPLY_TIMEOUT)
            except TimeoutError:
                self.net.errors["hint never answered"] += 1
                continue
            now = r["at"]
            if r["t"] == "hint":
                self.stats.answered.append(now)
                self.stats.latency.append((now, now - sent))
                if self.advance and self.v == v:
                    acted = v
                    await self.act(self.rng.choice(legal), v)
                    self.stats.actions += 1
                    await self.wait_past(v, REPLY_TIMEOUT)
                continue
            self.refused.append(now)
            code = r.get("code")
            if code == "busy":
                self.stats.busy.append(now)
            elif code == "rate":
                self.stats.rate.append(now)
            else:
                self.stats.other[str(code)] += 1
            await asyncio.sleep(self.retry)


async def flood_table(net: Net, index: int, a: argparse.Namespace, stats: FloodStats, rng: random.Random,
                      ready: asyncio.Event, settled: list[int]) -> None:
    """One flooding table: ``advance``, four seats of people (all this client's); ``repeat``, the host alone
    with computer players."""
    seats: list[Flooder] = []
    readers: list[asyncio.Task[None]] = []
    try:
        if a.flood_mode == "advance":
            info = await net.table("friends", a.level, f"flood{index}")
            tokens = [info["token"]] + [link["token"] for link in sorted(info["links"], key=lambda x: x["seat"])]
        else:
            info = await net.table("friends", a.level, f"flood{index}")
            tokens = [info["token"]]
        for s, tok in enumerate(tokens):
            f = Flooder(net, rng, f"flood{index}s{s}", stats, a)
            await f.open(info["id"], tok)
            seats.append(f)
            readers.append(asyncio.create_task(f.read()))
        await net.start(info)
    except Exception as e:  # noqa: BLE001 - counted
        net.errors[f"flood table setup: {type(e).__name__}: {e}"] += 1
        raise
    finally:
        settled[0] += 1
        if settled[0] >= a.flood_tables:
            ready.set()
    try:
        await asyncio.gather(*(f.flood() for f in seats))
    finally:
        for f in seats:
            await f.close()
        await asyncio.wait(readers, timeout=10)


@dataclass
class FairRun:
    label: str
    hint_limit: str
    flood_tables: int
    seconds: float = 0.0
    turnaround: list[float] = field(default_factory=list)
    games: int = 0
    answered: int = 0
    busy: int = 0
    rate: int = 0
    other: dict[str, int] = field(default_factory=dict)
    hint_latency: list[float] = field(default_factory=list)
    flood_actions: int = 0
    server_cpu: float | None = None
    loop_cpu: float | None = None
    load: tuple[float, float] = (0.0, 0.0)
    errors: dict[str, int] = field(default_factory=dict)

    def q(self, p: float) -> float | None:
        return pct(self.turnaround, p) * 1000 if self.turnaround else None

    def per_s(self, n: int) -> float:
        return n / self.seconds if self.seconds else 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "label": self.label, "hint_limit": self.hint_limit, "flood_tables": self.flood_tables,
            "seconds": round(self.seconds, 2), "bot_turns": len(self.turnaround), "victim_games": self.games,
            "turnaround_ms": {k: None if (x := self.q(p)) is None else round(x, 2)
                              for k, p in (("p50", 0.5), ("p95", 0.95), ("max", 1.0))},
            "hints_per_s": {"answered": round(self.per_s(self.answered), 2), "busy": round(self.per_s(self.busy), 2),
                            "rate": round(self.per_s(self.rate), 2)},
            "hints": {"answered": self.answered, "busy": self.busy, "rate": self.rate, "other": self.other},
            "hint_answer_ms_p50": round(pct(self.hint_latency, 0.5) * 1000, 1) if self.hint_latency else None,
            "flood_actions": self.flood_actions,
            "server_cpu_pct": None if self.server_cpu is None else round(self.server_cpu, 1),
            "server_loop_thread_cpu_pct": None if self.loop_cpu is None else round(self.loop_cpu, 1),
            "load_average": [round(x, 2) for x in self.load], "errors": self.errors,
        }


async def fairness_run(label: str, flood_tables: int, extra: list[str], a: argparse.Namespace,
                       deadline: float) -> FairRun:
    hint_limit = "0 (none)" if "--hint-limit" in extra else "default (20/min, burst 5)"
    res = FairRun(label, hint_limit if flood_tables else "-", flood_tables)
    print(f"[{label}] victim at level {a.level}, {flood_tables} flooding tables ({a.flood_mode}), hint limit "
          f"{res.hint_limit} ...", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(prefix="euchre-faults-") as tmp:
        server = Server(tmp, extra)
        try:
            server.start()
            setup_by = time.perf_counter() + 60
            net = Net(server.port, min(deadline, setup_by + 60 + a.warmup + a.seconds))
            rng = random.Random(a.seed)
            stats = FloodStats()
            ready = asyncio.Event()
            settled = [0]
            tasks: list[asyncio.Task[None]] = [
                asyncio.create_task(flood_table(net, i, a, stats, rng, ready, settled)) for i in range(flood_tables)]
            if flood_tables:
                await asyncio.wait_for(ready.wait(), max(1.0, setup_by - time.perf_counter()))
            samples: list[tuple[float, float]] = []
            games = [0]
            t_start = time.perf_counter() + a.warmup
            t_end = t_start + a.seconds
            if t_end + 5 > deadline:
                raise SystemExit(f"--timeout is too short for {label}: raise it or lower --seconds/--warmup")
            net.stop_at = t_end
            tasks.append(asyncio.create_task(victim(net, a.level, rng, samples, games)))
            await asyncio.sleep(max(0.0, t_start - time.perf_counter()))
            c0, m0 = server.cpu()
            l0 = os.getloadavg()[0]
            w0 = time.perf_counter()
            await asyncio.sleep(max(0.0, t_end - time.perf_counter()))
            c1, m1 = server.cpu()
            wall = time.perf_counter() - w0
            res.load = (l0, os.getloadavg()[0])
            if c0 is not None and c1 is not None:
                res.server_cpu = (c1 - c0) / wall * 100
            if m0 is not None and m1 is not None:
                res.loop_cpu = (m1 - m0) / wall * 100
            left = max(1.0, min(REPLY_TIMEOUT, deadline - time.perf_counter()))
            done, pending = await asyncio.wait(tasks, timeout=left)
            for t in pending:
                t.cancel()
                net.errors["client still running at the end"] += 1
            for t in done:
                if not t.cancelled() and t.exception() is not None:
                    net.errors[f"client failed: {t.exception()!r}"[:200]] += 1
        finally:
            server.stop()
    res.seconds = t_end - t_start

    def inside(t: float) -> bool:
        return t_start <= t < t_end

    res.turnaround = [x for t, x in samples if inside(t)]
    res.games = games[0]
    res.answered = sum(map(inside, stats.answered))
    res.busy = sum(map(inside, stats.busy))
    res.rate = sum(map(inside, stats.rate))
    res.other = dict(stats.other)
    res.hint_latency = [x for t, x in stats.latency if inside(t)]
    res.flood_actions = stats.actions
    res.errors = errors_of(net, server, label)
    return res


# --- 2. memory per table --------------------------------------------------------------------------------
class MemHost(Seat):
    """The person at a table against computer players: plays random legal actions for ``hands`` hands."""

    async def play(self, hands: int) -> None:
        acted = -1
        first: int | None = None
        last_move = time.perf_counter()
        while not self.net.stopping:
            d, v = self.d, self.v
            if d is not None:
                if d["status"] == "over":
                    return
                view = d["view"]
                if view is not None:
                    first = view["hand_number"] if first is None else first
                    legal = view["legal"]
                    if legal and view["hand_number"] - first >= hands:
                        return  # the hands are over and it is this seat's turn: no bot is busy
                    if legal and v > acted:
                        acted = v
                        await self.act(self.rng.choice(legal), v)
            if self.gone:
                return
            await self.wait_past(v, 0.5)
            if self.v > v:
                last_move = time.perf_counter()
            elif time.perf_counter() - last_move > REPLY_TIMEOUT:
                self.net.errors["memory table stalled"] += 1
                return


@dataclass
class MemRun:
    level: str
    tables: int
    idle: int = 0
    first: int = 0
    all: int = 0
    peak: int = 0
    closed: int = 0
    tables_in_memory: int | None = None
    seconds: float = 0.0
    errors: dict[str, int] = field(default_factory=dict)

    @property
    def per_table(self) -> float:
        return (self.all - self.idle) / self.tables / MB

    @property
    def marginal(self) -> float | None:
        return (self.all - self.first) / (self.tables - 1) / MB if self.tables > 1 else None

    def summary(self) -> dict[str, Any]:
        m = self.marginal
        return {"level": self.level, "tables": self.tables, "rss_idle_mb": round(self.idle / MB, 1),
                "rss_first_table_mb": round(self.first / MB, 1), "rss_all_tables_mb": round(self.all / MB, 1),
                "mb_per_table_over_idle": round(self.per_table, 2),
                "mb_per_table_marginal": None if m is None else round(m, 2),
                "rss_peak_mb": round(self.peak / MB, 1), "rss_after_close_mb": round(self.closed / MB, 1),
                "tables_in_memory_after_close": self.tables_in_memory, "seconds": round(self.seconds, 1),
                "errors": self.errors}


async def memory_run(level: str, a: argparse.Namespace, deadline: float) -> MemRun:
    res = MemRun(level, a.mem_tables)
    print(f"[memory {level}] {a.mem_tables} tables of mode bots, {a.mem_hands} hand(s) each ...", file=sys.stderr,
          flush=True)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="euchre-faults-") as tmp:
        server = Server(tmp, [])
        hosts: list[MemHost] = []
        readers: list[asyncio.Task[None]] = []
        try:
            server.start()
            net = Net(server.port, deadline - 5)
            rng = random.Random(a.seed)
            await asyncio.sleep(1.0)
            res.idle = server.rss()

            async def one(i: int) -> None:
                info = await net.table("bots", level, f"mem{i}")
                host = MemHost(net, rng, f"mem{i}")
                hosts.append(host)
                await host.open(info["id"], info["token"])
                readers.append(asyncio.create_task(host.read()))
                await host.play(a.mem_hands)

            await one(0)
            await asyncio.sleep(0.5)
            res.first = server.rss()
            results = await asyncio.gather(*(one(i) for i in range(1, a.mem_tables)), return_exceptions=True)
            for r in results:
                if isinstance(r, BaseException):
                    net.errors[f"memory table failed: {r!r}"[:200]] += 1
            await asyncio.sleep(1.0)
            res.all = server.rss()
            res.peak = proc_status(server.pid, "VmHWM") or 0
            for h in hosts:
                await h.close()
            await asyncio.wait(readers, timeout=10)
            await asyncio.sleep(2.0)
            res.closed = server.rss()
            res.tables_in_memory = server.health().get("tables")
        finally:
            for h in hosts:
                await h.close()
            server.stop()
    res.seconds = time.perf_counter() - t0
    res.errors = errors_of(net, server, f"memory {level}")
    return res


def errors_of(net: Net, server: Server, label: str) -> dict[str, int]:
    """The run's errors: the clients' and each warning the server logged (the first few shown)."""
    if server.problems:
        net.errors["server log warnings/errors"] += len(server.problems)
        for line in server.problems[:5]:
            print(f"[{label}] server: {line}", file=sys.stderr)
    return dict(net.errors)


# --- report -------------------------------------------------------------------------------------------------
def fmt(x: float | None, spec: str = ".1f") -> str:
    return "-" if x is None else format(x, spec)


def table(cols: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(cols)]
    for row in [cols, *rows]:
        print("  ".join(x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(zip(row, widths,
                                                                                             strict=True))))


def report(fair: list[FairRun], mem: list[MemRun], a: argparse.Namespace) -> None:
    if fair:
        print(f"1. victim bot turn-around (friends table, host alone + 3 bots at level {a.level}, --bot-delay 0); "
              f"flood: {a.flood_tables} tables looping hints ({a.flood_mode}), retry {a.retry * 1000:g} ms, "
              f"<= {a.flood_rate:g} frames/s per socket; {a.seconds:g} s measured after {a.warmup:g} s; "
              f"{os.cpu_count()} cores; CPU in % of one core")
        base = next((r for r in fair if r.label == "baseline"), None)
        rows = []
        for r in fair:
            ratio = "-"
            if base is not None and r is not base and base.turnaround and r.turnaround:
                ratio = "x" + "/".join(f"{(r.q(p) or 0) / (base.q(p) or 1):.2f}" for p in (0.5, 0.95, 1.0))
            lat = pct(r.hint_latency, 0.5) * 1000 if r.hint_latency else None
            rows.append([r.label, r.hint_limit, str(len(r.turnaround)), fmt(r.q(0.5)), fmt(r.q(0.95)), fmt(r.q(1.0)),
                         ratio, f"{r.per_s(r.answered):.2f}", f"{r.per_s(r.busy):.2f}", f"{r.per_s(r.rate):.2f}",
                         fmt(lat, ".0f"), f"{fmt(r.server_cpu, '.0f')}%/{fmt(r.loop_cpu, '.0f')}%",
                         f"{r.load[0]:.1f}/{r.load[1]:.1f}", str(sum(r.errors.values()))])
        table(["run", "hint limit", "bot turns", "p50 ms", "p95 ms", "max ms", "vs baseline p50/p95/max",
               "hints ok/s", "busy/s", "rate/s", "hint ms", "server/loop CPU", "load", "errors"], rows)
        print("  bot turns: bot actions timed at the victim; vs baseline: ratios of p50/p95/max; hints ok, busy, rate: "
              "a second over the measured window; hint ms: p50 from a hint frame to its answer (answered ones)")
        for r in fair:
            extra = f", other refusals {r.other}" if r.other else ""
            print(f"  {r.label}: {r.games} victim games finished, {r.answered} hints answered, {r.busy} busy, "
                  f"{r.rate} rate in {r.seconds:g} s; {r.flood_actions} actions by the flooders{extra}")
        for r in fair:
            if r.errors:
                print(f"  {r.label} errors: " + ", ".join(f"{k}: {v}" for k, v in sorted(r.errors.items())))
    if mem:
        if fair:
            print()
        print(f"2. server RSS with {a.mem_tables} tables of mode bots (seat 0 plays random legal actions for "
              f"{a.mem_hands} hand(s)); baseline: the idle server just started")
        rows = [[m.level, str(m.tables), f"{m.idle / MB:.0f}", f"{m.first / MB:.0f}", f"{m.all / MB:.0f}",
                 f"{m.per_table:.2f}", fmt(m.marginal, ".2f"), f"{m.peak / MB:.0f}", f"{m.closed / MB:.0f}",
                 "-" if m.tables_in_memory is None else str(m.tables_in_memory), f"{m.seconds:.0f}",
                 str(sum(m.errors.values()))] for m in mem]
        table(["level", "tables", "idle MB", "1 table MB", "all MB", "MB/table", "marginal MB/table", "peak MB",
               "closed MB", "in memory", "s", "errors"], rows)
        print("  MB/table = (all - idle) / tables; marginal = (all - 1 table) / (tables - 1); closed: every socket "
              "closed, the tables still in memory (euchre serve has no option to put idle tables away sooner "
              "than 10 minutes)")
        for m in mem:
            if m.errors:
                print(f"  {m.level} errors: " + ", ".join(f"{k}: {v}" for k, v in sorted(m.errors.items())))


async def amain(a: argparse.Namespace, deadline: float) -> tuple[list[FairRun], list[MemRun]]:
    fair: list[FairRun] = []
    mem: list[MemRun] = []
    nolimit = ["--hint-limit", "0"]
    if "fairness" in a.parts:
        fair.append(await fairness_run("baseline", 0, [], a, deadline))
        if a.flood_tables > 0:
            fair.append(await fairness_run("flood", a.flood_tables, [], a, deadline))
            fair.append(await fairness_run("flood-nolimit", a.flood_tables, nolimit, a, deadline))
    if "memory" in a.parts:
        for level in a.mem_levels:
            mem.append(await memory_run(level, a, deadline))
    return fair, mem


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--parts", default="fairness,memory", help="which parts to run: fairness, memory (default both)")
    p.add_argument("--level", default="expert", help="level of the victim's (and repeat flood's) bots (default expert)")
    p.add_argument("--flood-tables", type=int, default=10, help="flooding tables (default 10; 0: baseline only)")
    p.add_argument("--flood-mode", choices=["advance", "repeat"], default="advance",
                   help="advance: after each answered hint the seat plays, so each hint is a new position (default); "
                        "repeat: the host never plays and re-asks one (cached) position")
    p.add_argument("--seconds", type=float, default=30.0, help="seconds measured per fairness run (default 30)")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (default 5)")
    p.add_argument("--retry", type=float, default=0.05, help="seconds before asking again after busy/rate (0.05)")
    p.add_argument("--flood-rate", type=float, default=8.0, help="hint frames a second per socket at most (8)")
    p.add_argument("--mem-tables", type=int, default=40, help="tables per memory run (default 40)")
    p.add_argument("--mem-levels", default="expert,hard", help="levels of the memory runs (default expert,hard)")
    p.add_argument("--mem-hands", type=int, default=1, help="hands the host of each memory table plays (default 1)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--timeout", type=float, default=600.0, help="hard limit for the whole script (default 600 s)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    a = p.parse_args(argv)
    a.parts = {x.strip() for x in a.parts.split(",") if x.strip()}
    a.mem_levels = [x.strip() for x in a.mem_levels.split(",") if x.strip()]
    if not a.parts <= {"fairness", "memory"}:
        p.error("--parts takes fairness and/or memory")
    if (a.flood_tables < 0 or a.seconds <= 0 or a.warmup < 0 or a.retry < 0 or a.flood_rate <= 0
            or a.mem_tables < 1 or a.mem_hands < 1 or a.timeout <= 0):
        p.error("counts and durations must be positive")

    deadline = time.perf_counter() + a.timeout

    def hard_stop() -> None:
        print(f"server_faults: hard timeout of {a.timeout:g} s: killing everything", file=sys.stderr, flush=True)
        kill_servers()
        os._exit(3)

    watchdog = threading.Timer(a.timeout + 15, hard_stop)
    watchdog.daemon = True
    watchdog.start()
    signal.signal(signal.SIGTERM, lambda *_: (kill_servers(), os._exit(143)))
    try:
        fair, mem = asyncio.run(asyncio.wait_for(amain(a, deadline), a.timeout))
    except TimeoutError:
        print(f"server_faults: hard timeout of {a.timeout:g} s", file=sys.stderr)
        return 3
    finally:
        watchdog.cancel()
        kill_servers()
    if a.json:
        print(json.dumps({"level": a.level, "flood_mode": a.flood_mode, "retry_s": a.retry,
                          "flood_rate": a.flood_rate, "cores": os.cpu_count(),
                          "fairness": [r.summary() for r in fair], "memory": [m.summary() for m in mem]}, indent=2))
    else:
        report(fair, mem, a)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
