"""Server load: many simulated players over WebSockets on loopback, playing as fast as they can.

The script starts ``euchre serve`` itself (127.0.0.1, a free port, ``--bot-delay 0``, the
per-address limits off) on a fresh database: an SQLite file in a temporary directory, or, with
``--database-url ADMIN_URL``, a new PostgreSQL database created through that admin URL and dropped
afterwards. It opens friends tables (``POST /api/tables``), connects four players to each
(``/ws/{id}``, the ``websockets`` package, asyncio), starts every table with the host's token, and
from then on each player sends a uniformly random legal action (with a unique id) the moment a
state frame of a new version shows ``view.legal`` non-empty. The time from sending an ``act`` to
receiving its ``ack`` is taken with ``time.perf_counter`` in the client. When a game ends, its four
players disconnect and the host opens a new table (``--when-over new``, the default: the load stays
at the same number of tables) or the players stay away (``--when-over stop``).

Bounded in count and time: ``--players`` (four per table), a warm-up of ``--warmup`` seconds,
``--seconds`` of measured play, and a hard ``--timeout`` for the whole run. Errors: every ``err``
frame, every connection that closes without the client closing it, every action still without an
ack at the end, every table that makes no progress for 10 seconds, any failed HTTP request or
connection, and every warning the server logs.

The named baseline, measured in the same run on its own fresh server and database just before,
is the same load with few tables (``--baseline-players``, default 40: 10 tables); the big run's
latencies and rate are printed as ratios to it. The server's CPU (from ``/proc/<pid>/stat``; its
main thread, the event loop, apart), the client processes' CPU and the rest of the machine's CPU
(``/proc/stat``: other people's work on a shared machine) show which side limits and whether a
run was disturbed. ``--think S`` makes players pause 0.5-1.5 S before each action, as people do;
``--profile FILE`` runs the big run's server under cProfile; ``--server floor`` replaces the server
by ``bench/ws_floor.py`` (the same frames, prepared in advance, with no game and no database: the
least any server on this stack can cost, so the best any could show on this machine with these
players; ``bench/ws_players.mjs`` is a cheaper set of players, in Node).

Goal (issue): 1,000 connected players (250 full tables), ack latency p99 at most 100 ms, no
errors. Results and the analysis of where the time goes: ``bench/README.md``.

    python bench/server.py [--players 1000] [--seconds 30] [--warmup 5] [--baseline-players 40]
                           [--client-procs 1] [--database-url ADMIN_URL] [--compression deflate]
                           [--when-over new] [--think 0] [--server euchre] [--profile FILE] [--timeout 600]
                           [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import orjson

GOAL_PLAYERS = 1000
GOAL_P99 = 0.100
SEATS = 4
"""Players per table (the ``american`` preset, friends mode: every seat a person)."""
STALL = 10.0
"""Seconds without any frame at a table before it counts as stalled (an error)."""


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of a non-empty list."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * len(s)) - 1))]


# --- the server -------------------------------------------------------------------------------------
def cpu_seconds(pid: int, path: str | None = None) -> float | None:
    """User + system CPU seconds of a process (all its threads), from ``/proc/<pid>/stat``."""
    try:
        with open(path or f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # after the ")": state is field 3 of the man page, so utime (14) and stime (15) are at 11, 12
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy_seconds() -> float | None:
    """CPU seconds all cores of the machine have spent busy (``/proc/stat``: all but idle and iowait)."""
    try:
        with open("/proc/stat") as f:
            values = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (sum(values[:8]) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")


def thread_cpu_seconds(pid: int) -> dict[int, float]:
    """CPU seconds of each thread of a process, by thread id (the main thread's id is ``pid``)."""
    out: dict[int, float] = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        t = cpu_seconds(int(tid), f"/proc/{pid}/task/{tid}/stat")
        if t is not None:
            out[int(tid)] = t
    return out


def fresh_database(admin_url: str | None, tmp: str) -> tuple[str, str | None]:
    """The URL of a new, empty database, and the PostgreSQL database name to drop afterwards."""
    if admin_url is None:
        return f"sqlite:///{os.path.join(tmp, 'euchre.sqlite3')}", None
    import psycopg
    from sqlalchemy.engine import make_url

    u = make_url(admin_url)
    if u.get_backend_name() != "postgresql":
        raise SystemExit("--database-url must be a PostgreSQL admin URL (the default is a fresh SQLite file)")
    name = f"euchre_bench_{uuid.uuid4().hex[:12]}"
    conninfo = u.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return u.set(database=name).render_as_string(hide_password=False), name


def drop_database(admin_url: str, name: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    conninfo = make_url(admin_url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Server:
    """``euchre serve`` in a subprocess; its output is drained by a thread (warnings are kept)."""

    def __init__(self, database_url: str, home: str, profile: str | None = None, kind: str = "euchre",
                 hint_limit: int | None = 0, preexec_fn: Any = None) -> None:
        self.database_url = database_url
        self.hint_limit = hint_limit
        """``--hint-limit`` (``None``: the server's default, which ``bench/server_faults.py`` measures)."""
        self.preexec_fn = preexec_fn
        self.kind = kind
        """``euchre`` (the real server) or ``floor`` (``bench/ws_floor.py``: the same frames, no work)."""
        self.home = home
        self.profile = profile
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.lines: list[str] = []
        self.problems: list[str] = []
        """Warnings and errors the server logged before it was asked to stop."""
        self.stopping = False

    def start(self, timeout: float = 60.0) -> Server:
        env = {**os.environ, "EUCHRE_HOME": self.home, "PYTHONUNBUFFERED": "1"}
        prof = ["-m", "cProfile", "-o", self.profile] if self.profile else []
        if self.kind == "floor":
            cmd = [sys.executable, *prof, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ws_floor.py")]
        else:
            cmd = [sys.executable, *prof, "-m", "euchre", "serve", "--host", "127.0.0.1", "--port", "0",
                   "--database-url", self.database_url, "--bot-delay", "0", "--log-level", "warning",
                   # Every simulated player connects from 127.0.0.1: the per-address limits would refuse them.
                   "--connect-limit", "0", "--create-limit", "0", "--max-tables-per-client", "0",
                   *([] if self.hint_limit is None else ["--hint-limit", str(self.hint_limit)])]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                                     cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                     preexec_fn=self.preexec_fn)
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("euchre serve exited:\n" + "".join(self.lines))
            self.lines.append(line)
            m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if m:
                self.port = int(m.group(1))
                break
        else:
            raise RuntimeError("euchre serve did not print its address:\n" + "".join(self.lines))
        threading.Thread(target=self._drain, daemon=True).start()
        self._wait_ready(deadline)
        return self

    def _drain(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)
            if not self.stopping and re.search(r"\b(WARNING|ERROR|CRITICAL)\b|Traceback", line):
                self.problems.append(line.rstrip())

    def _wait_ready(self, deadline: float) -> None:
        import urllib.request

        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("euchre serve is not answering")

    def health(self) -> dict[str, Any]:
        """``/healthz``: live tables, and the writer's batches and commits (group commit)."""
        import urllib.request

        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=5) as r:
                data: dict[str, Any] = json.loads(r.read())
                return data
        except OSError:
            return {}

    def stop(self) -> None:
        self.stopping = True
        if self.proc is not None and self.proc.poll() is None:
            # uvicorn shuts down gracefully, then re-raises the signal; under cProfile it must be
            # SIGINT (a KeyboardInterrupt, and the stats are still written), not a kill
            self.proc.send_signal(signal.SIGINT if self.profile else signal.SIGTERM)
            try:
                self.proc.wait(30 if self.profile else 10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


async def http_request(port: int, method: str, path: str, body: dict[str, Any] | None = None,
                       token: str | None = None, timeout: float | None = None) -> tuple[int, dict[str, Any]]:
    """A minimal HTTP/1.1 request on a connection of its own, so a client needs only asyncio:
    the status and the JSON answer."""
    data = b"" if body is None else json.dumps(body).encode()
    head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close",
            "Content-Type: application/json", f"Content-Length: {len(data)}"]
    if token:
        head.append(f"Authorization: Bearer {token}")
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        raw = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
    header, _, payload = raw.partition(b"\r\n\r\n")
    status = int(header.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in header.lower():
        out, rest = b"", payload
        while rest:
            size, _, rest = rest.partition(b"\r\n")
            n = int(size, 16)
            if n == 0:
                break
            out, rest = out + rest[:n], rest[n + 2:]
        payload = out
    return status, json.loads(payload) if payload else {}


# --- the client (one or more processes) ----------------------------------------------------------
@dataclass
class ClientConfig:
    port: int
    tables: int
    index: int
    seed: int
    compression: str | None
    when_over: str
    think: float
    deadline: float
    """perf_counter time by which everything must be over (the hard timeout)."""


@dataclass
class TableRun:
    progress: float = 0.0
    over: int = 0
    """Players that have seen the game end."""
    done: asyncio.Event = field(default_factory=asyncio.Event)


class Player:
    """One seat's connection: reads every frame, acts on its turn, times its acks."""

    def __init__(self, client: Client, table: TableRun, url: str, table_index: int, seat: int, token: str) -> None:
        self.client = client
        self.url = url
        self.table = table
        self.seat = seat
        self.token = token
        self.name = f"t{table_index}s{seat}"
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.v = -1
        self.acted = -1
        self.n = 0
        self.pending: dict[str, float] = {}
        self.ready = asyncio.Event()
        self.saw_over = False
        self.closing = False

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        c = self.client
        self.ws = await connect(self.url, compression=c.cfg.compression, ping_interval=None, max_size=2**22,
                                open_timeout=60, proxy=None)
        c.connected += 1
        c.peak = max(c.peak, c.connected)
        await self.ws.send(json.dumps({"t": "hello", "token": self.token, "name": self.name}))
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        c = self.client
        # orjson: the client's share of the machine is what is left to the server (see bench/README.md)
        loads, clock = orjson.loads, time.perf_counter
        try:
            async for raw in self.ws:
                now = clock()
                self.table.progress = now
                c.frames += 1
                f = loads(raw)
                t = f["t"]
                if t == "ack":
                    sent = self.pending.pop(f["id"], None)
                    if sent is None:
                        c.error("ack for an unknown id")
                    else:
                        c.acks.append((sent, now))
                elif t == "state":
                    v = f["v"]
                    if v <= self.v and self.ready.is_set():
                        continue
                    self.v = v
                    d = f["d"]
                    self.ready.set()
                    if d["status"] == "over":
                        if not self.saw_over:
                            self.saw_over = True
                            self.table.over += 1
                            if self.table.over == SEATS:
                                self.table.done.set()
                        continue
                    view = d["view"]
                    if view and view["legal"] and v > self.acted and not c.stopping:
                        self.acted = v
                        action = c.rng.choice(view["legal"])
                        if c.cfg.think > 0:
                            pause = c.cfg.think * c.rng.uniform(0.5, 1.5)
                            later = asyncio.create_task(self.act_later(pause, action, v))
                            c.thinking.add(later)
                            later.add_done_callback(c.thinking.discard)
                        else:
                            await self.act(action, v)
                elif t == "err":
                    c.error(f"err {f.get('code')}")
                    self.pending.pop(f.get("id") or "", None)  # answered (refused), so not "never acknowledged"
        except ConnectionClosed:
            pass
        except Exception as e:  # noqa: BLE001 - counted, never silent
            c.error(f"client {type(e).__name__}: {e}")
        finally:
            c.connected -= 1
            if not self.closing:
                c.error("unexpected disconnect")

    async def act(self, action: str, v: int) -> None:
        self.n += 1
        aid = f"{self.client.cfg.index}.{self.name}.{self.n}"
        self.pending[aid] = time.perf_counter()
        await self.ws.send(orjson.dumps({"t": "act", "id": aid, "action": action, "v": v}).decode())

    async def act_later(self, delay: float, action: str, v: int) -> None:
        """``--think``: act after a pause, as a person would."""
        from websockets.exceptions import ConnectionClosed

        await asyncio.sleep(delay)
        if self.client.stopping or self.closing:
            return
        try:
            await self.act(action, v)
        except ConnectionClosed:
            pass

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            try:
                await self.ws.close()
            except Exception:  # noqa: BLE001
                pass
        if self.reader is not None:
            try:
                await asyncio.wait_for(self.reader, 10)
            except Exception:  # noqa: BLE001 - a timeout included
                self.reader.cancel()


class Client:
    """The players of ``cfg.tables`` tables in one process (one event loop)."""

    def __init__(self, cfg: ClientConfig) -> None:
        self.cfg = cfg
        self.rng = random.Random(cfg.seed)
        self.acks: list[tuple[float, float]] = []
        self.errors: Counter[str] = Counter()
        self.connected = 0
        self.peak = 0
        self.frames = 0
        self.stopping = False
        self.settled = 0
        self.all_settled = asyncio.Event()
        self.go = asyncio.Event()
        self.stop = asyncio.Event()
        self.games = 0
        self.opened = 0
        self.started = 0
        self.unacked = 0
        self.connect_slots = asyncio.Semaphore(32)
        self.thinking: set[asyncio.Task[None]] = set()

    def error(self, what: str) -> None:
        self.errors[what] += 1

    async def http(self, method: str, path: str, body: dict[str, Any] | None = None,
                   token: str | None = None) -> tuple[int, dict[str, Any]]:
        return await http_request(self.cfg.port, method, path, body, token)

    async def run_table(self, index: int) -> None:
        first = True
        try:
            while not self.stopping:
                status, info = await self.http("POST", "/api/tables", {"mode": "friends", "name": f"t{index}s0"})
                if status != 201:
                    self.error(f"create table: HTTP {status}")
                    return
                self.opened += 1
                tokens = [info["token"]] + [link["token"] for link in sorted(info["links"], key=lambda x: x["seat"])]
                table = TableRun(progress=time.perf_counter())
                url = f"ws://127.0.0.1:{self.cfg.port}/ws/{info['id']}"
                players = [Player(self, table, url, index, s, tok) for s, tok in enumerate(tokens)]
                try:
                    await self.play(index, info, players, table, first)
                finally:
                    first = False
                    await asyncio.gather(*(p.close() for p in players))
                if self.cfg.when_over == "stop":
                    return
        except Exception as e:  # noqa: BLE001
            self.error(f"table {type(e).__name__}: {e}")
        finally:
            if first:
                self._settle()

    def _settle(self) -> None:
        self.settled += 1
        if self.settled >= self.cfg.tables:
            self.all_settled.set()

    async def play(self, index: int, info: dict[str, Any], players: list[Player], table: TableRun,
                   first: bool) -> None:
        async with self.connect_slots:
            for p in players:
                await p.connect()
            await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in players)), 60)
        if first:
            self._settle()
            await self.go.wait()
        if self.stopping:
            return
        status, _ = await self.http("POST", f"/api/tables/{info['id']}/start", token=players[0].token)
        if status != 200:
            self.error(f"start table: HTTP {status}")
            return
        self.started += 1
        table.progress = time.perf_counter()
        all_over = asyncio.ensure_future(table.done.wait())
        stop = asyncio.ensure_future(self.stop.wait())
        try:
            while True:
                done, _ = await asyncio.wait({all_over, stop}, timeout=1.0, return_when=asyncio.FIRST_COMPLETED)
                if all_over in done:
                    self.games += 1
                    return
                if stop in done:
                    break
                if time.perf_counter() - table.progress > STALL + 2 * self.cfg.think:
                    self.error("table stalled")
                    return
            # stopping: wait for the acks of actions in flight
            t_end = time.perf_counter() + 5
            while any(p.pending for p in players) and time.perf_counter() < t_end:
                await asyncio.sleep(0.02)
        finally:
            all_over.cancel()
            stop.cancel()
            self.unacked += sum(len(p.pending) for p in players)

    async def main(self, pipe: Any) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        t0 = time.perf_counter()
        tasks = [asyncio.create_task(self.run_table(i)) for i in range(self.cfg.tables)]
        try:
            await asyncio.wait_for(self.all_settled.wait(), max(1.0, self.cfg.deadline - time.perf_counter()))
        except TimeoutError:
            self.error("setup timed out")
        setup = time.perf_counter() - t0
        pipe.send(("ready", self.connected))
        msg = await loop.run_in_executor(None, pipe.recv)
        _, t_end = msg
        self.go.set()
        await asyncio.sleep(max(0.0, t_end - time.perf_counter()))
        self.stopping = True
        self.stop.set()
        done, pending = await asyncio.wait(tasks, timeout=max(1.0, self.cfg.deadline - time.perf_counter()))
        if pending:
            self.error("tables still running at the hard timeout")
            for t in pending:
                t.cancel()
        return {"acks": self.acks, "errors": dict(self.errors), "peak": self.peak, "frames": self.frames,
                "games": self.games, "opened": self.opened, "started": self.started, "unacked": self.unacked,
                "setup": setup}


def client_process(pipe: Any, cfg: ClientConfig) -> None:
    client = Client(cfg)
    try:
        result = asyncio.run(client.main(pipe))
    except Exception as e:  # noqa: BLE001
        result = {"acks": client.acks, "errors": {**client.errors, f"client crashed: {e!r}": 1}, "peak": client.peak,
                  "frames": client.frames, "games": client.games, "opened": client.opened,
                  "started": client.started, "unacked": client.unacked, "setup": 0.0}
    pipe.send(("done", result))


# --- one measured run ----------------------------------------------------------------------------
@dataclass
class Result:
    label: str
    players: int
    tables: int
    client_procs: int
    connected: int = 0
    peak: int = 0
    seconds: float = 0.0
    acks: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    server_cpu: float | None = None
    loop_cpu: float | None = None
    other_cpu: float | None = None
    """CPU used meanwhile by everything else on the machine (other people's work), percent of one core."""
    """CPU of the server's main thread (the event loop), percent of one core."""
    batches: int = 0
    commits: int = 0
    client_cpu: list[float] = field(default_factory=list)
    games: int = 0
    opened: int = 0
    frames: int = 0
    setup: float = 0.0
    load_before: tuple[float, float, float] = (0.0, 0.0, 0.0)
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def rate(self) -> float:
        return self.acks / self.seconds if self.seconds else 0.0

    def q(self, p: float) -> float:
        return pct(self.latencies, p) * 1000 if self.latencies else float("nan")

    @property
    def n_errors(self) -> int:
        return sum(self.errors.values())

    @property
    def cpu_per_action_ms(self) -> float | None:
        if self.server_cpu is None or not self.acks:
            return None
        return self.server_cpu / 100 * self.seconds / self.acks * 1000

    def summary(self) -> dict[str, Any]:
        return {
            "label": self.label, "players": self.players, "tables": self.tables, "client_procs": self.client_procs,
            "connected": self.connected, "peak_connected": self.peak, "seconds": round(self.seconds, 3),
            "actions_acked": self.acks, "actions_per_s": round(self.rate, 1),
            "ack_ms": {k: round(self.q(p), 2) for k, p in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))},
            "errors": self.n_errors, "error_kinds": self.errors,
            "server_cpu_pct": None if self.server_cpu is None else round(self.server_cpu, 1),
            "server_cpu_ms_per_action": None if self.cpu_per_action_ms is None else round(self.cpu_per_action_ms, 3),
            "server_loop_thread_cpu_pct": None if self.loop_cpu is None else round(self.loop_cpu, 1),
            "other_processes_cpu_pct": None if self.other_cpu is None else round(self.other_cpu, 1),
            "group_commit": {"commits": self.commits, "batches": self.batches},
            "client_cpu_pct": [round(c, 1) for c in self.client_cpu], "games_finished": self.games,
            "tables_opened": self.opened, "frames_received": self.frames, "setup_s": round(self.setup, 2),
            "load_before": [round(x, 2) for x in self.load_before],
            "load_after": [round(x, 2) for x in self.load_after],
        }


def run(label: str, players: int, a: argparse.Namespace, deadline: float, profile: str | None = None) -> Result:
    tables = players // SEATS
    procs = max(1, min(a.client_procs, tables))
    res = Result(label, tables * SEATS, tables, procs)
    print(f"[{label}] {tables * SEATS} players at {tables} tables, {procs} client process(es) ...", file=sys.stderr,
          flush=True)
    with tempfile.TemporaryDirectory(prefix="euchre-bench-") as tmp:
        url, pg_name = fresh_database(None if a.server == "floor" else a.database_url, tmp)
        server = Server(url, tmp, profile, a.server)
        ctx = mp.get_context("spawn")
        workers: list[tuple[Any, Any]] = []
        errors: Counter[str] = Counter()
        try:
            server.start()
            assert server.proc is not None
            for i in range(procs):
                share = tables // procs + (i < tables % procs)
                parent, child = ctx.Pipe()
                cfg = ClientConfig(server.port, share, i, a.seed * 1000 + i,
                                   None if a.compression == "none" else a.compression, a.when_over, a.think, deadline)
                p = ctx.Process(target=client_process, args=(child, cfg), daemon=True)
                p.start()
                workers.append((p, parent))
            connected = 0
            for _, pipe in workers:
                if not pipe.poll(max(1.0, deadline - time.perf_counter())):
                    raise RuntimeError("a client process did not get ready before the hard timeout")
                kind, n = pipe.recv()
                if kind != "ready":
                    raise RuntimeError(f"a client process failed during setup: {n.get('errors')}")
                connected += n
            res.connected = connected
            res.load_before = os.getloadavg()
            t_go = time.perf_counter()
            t_start = t_go + a.warmup
            t_end = t_start + a.seconds
            if t_end + 10 > deadline:
                raise SystemExit(f"--timeout is too short for {label}: raise it or lower --seconds/--warmup")
            for _, pipe in workers:
                pipe.send(("go", t_end))
            time.sleep(max(0.0, t_start - time.perf_counter()))
            pid = server.proc.pid
            h0 = server.health()
            b0, s0, m0 = machine_busy_seconds(), cpu_seconds(pid), thread_cpu_seconds(pid).get(pid)
            c0 = [cpu_seconds(p.pid or 0) for p, _ in workers]
            w0 = time.perf_counter()
            time.sleep(max(0.0, t_end - time.perf_counter()))
            b1, s1, m1 = machine_busy_seconds(), cpu_seconds(pid), thread_cpu_seconds(pid).get(pid)
            c1 = [cpu_seconds(p.pid or 0) for p, _ in workers]
            wall = time.perf_counter() - w0
            h1 = server.health()
            res.batches = h1.get("batches", 0) - h0.get("batches", 0)
            res.commits = h1.get("commits", 0) - h0.get("commits", 0)
            if m0 is not None and m1 is not None:
                res.loop_cpu = (m1 - m0) / wall * 100
            res.load_after = os.getloadavg()
            if s0 is not None and s1 is not None:
                res.server_cpu = (s1 - s0) / wall * 100
            res.client_cpu = [(y - x) / wall * 100 for x, y in zip(c0, c1, strict=True)
                              if x is not None and y is not None]
            if b0 is not None and b1 is not None and res.server_cpu is not None:
                res.other_cpu = max(0.0, (b1 - b0) / wall * 100 - res.server_cpu - sum(res.client_cpu))
            res.seconds = t_end - t_start
            unacked = 0
            for p, pipe in workers:
                if not pipe.poll(max(1.0, deadline - time.perf_counter())):
                    errors["client process hit the hard timeout"] += 1
                    p.kill()
                    continue
                _, r = pipe.recv()
                for sent, got in r["acks"]:
                    if t_start <= got < t_end:
                        res.acks += 1
                    if t_start <= sent < t_end:
                        res.latencies.append(got - sent)
                errors.update(r["errors"])
                unacked += r["unacked"]
                res.games += r["games"]
                res.opened += r["opened"]
                res.frames += r["frames"]
                res.setup = max(res.setup, r["setup"])
                res.peak += r["peak"]
            if unacked:
                errors["actions never acknowledged"] += unacked
            for p, _ in workers:
                p.join(10)
        finally:
            for p, _ in workers:
                if p.is_alive():
                    p.kill()
            server.stop()
            if pg_name is not None and a.database_url is not None:
                drop_database(a.database_url, pg_name)
        if server.problems:
            errors["server log warnings/errors"] += len(server.problems)
            for line in server.problems[:5]:
                print(f"[{label}] server: {line}", file=sys.stderr)
        res.errors = dict(errors)
    return res


# --- report --------------------------------------------------------------------------------------
def fmt(x: float | None, spec: str = ".1f") -> str:
    return "-" if x is None else format(x, spec)


def report(results: list[Result], a: argparse.Namespace) -> None:
    db = "PostgreSQL (fresh database)" if a.database_url else "SQLite (fresh file, WAL, synchronous=FULL)"
    if a.server == "floor":
        db = "the FLOOR (bench/ws_floor.py: recorded frames, no game, no database)"
    print(f"euchre serve on 127.0.0.1, {db}, --bot-delay 0; compression: {a.compression}; "
          f"when a game ends: {'a new table' if a.when_over == 'new' else 'the players stop'}; players act "
          + (f"after {a.think:g} s (0.5-1.5x) of thought" if a.think > 0 else "as fast as they can"))
    print(f"measured {a.seconds:g} s after {a.warmup:g} s of warm-up; {os.cpu_count()} cores; CPU in % of one core "
          f"(others: the rest of the machine meanwhile); load average before/after each run in the last column")
    cols = ["run", "players", "tables", "acked", "actions/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "errors",
            "server CPU", "CPU/action", "client CPU", "others", "games", "load"]
    rows = []
    for r in results:
        rows.append([r.label, f"{r.connected}/{r.players}", str(r.tables), str(r.acks), f"{r.rate:,.0f}",
                     fmt(r.q(0.5)), fmt(r.q(0.9)), fmt(r.q(0.99)), fmt(r.q(1.0)), str(r.n_errors),
                     f"{fmt(r.server_cpu, '.0f')}%", f"{fmt(r.cpu_per_action_ms, '.2f')} ms",
                     "+".join(f"{c:.0f}%" for c in r.client_cpu), f"{fmt(r.other_cpu, '.0f')}%", str(r.games),
                     f"{r.load_before[0]:.1f}/{r.load_after[0]:.1f}"])
    widths = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(cols)]
    print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cols, widths, strict=True))))
    for row in rows:
        print("  ".join(x.rjust(w) if i else x.ljust(w) for i, (x, w) in enumerate(zip(row, widths, strict=True))))
    for r in results:
        if r.server_cpu is not None and r.loop_cpu is not None:
            per = f"{r.commits / r.batches:.1f}" if r.batches else "-"
            print(f"  {r.label}: server CPU {r.server_cpu:.0f}% = event-loop thread {r.loop_cpu:.0f}% + other threads "
                  f"(database writer) {r.server_cpu - r.loop_cpu:.0f}%; group commit: {r.commits} commits in "
                  f"{r.batches} transactions ({per} per transaction); {r.frames:,} frames received, "
                  f"{r.opened} tables opened, setup {r.setup:.1f} s")
    for r in results:
        if r.errors:
            print(f"  {r.label} errors: " + ", ".join(f"{k}: {v}" for k, v in sorted(r.errors.items())))
    base = next((r for r in results if r.label == "baseline"), None)
    load = next((r for r in results if r.label == "load"), None)
    if base and load and base.latencies and load.latencies:
        print(f"  load / baseline: actions/s x{load.rate / base.rate:.2f} (tables x{load.tables / base.tables:.0f}), "
              f"p50 x{load.q(0.5) / base.q(0.5):.2f}, p99 x{load.q(0.99) / base.q(0.99):.2f}, "
              f"server CPU per action x{(load.cpu_per_action_ms or 0) / (base.cpu_per_action_ms or 1):.2f}")
    if load and load.latencies:
        ok = load.connected >= GOAL_PLAYERS and load.q(0.99) <= GOAL_P99 * 1000 and load.n_errors == 0
        print(f"  goal: {GOAL_PLAYERS:,} connected players, p99 <= {GOAL_P99 * 1000:.0f} ms, no errors: "
              f"{'met' if ok else 'NOT met'} ({load.connected:,} players, p99 {load.q(0.99):.1f} ms = "
              f"{load.q(0.99) / (GOAL_P99 * 1000):.2f} of the goal, {load.n_errors} errors)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=1000, help="players of the load run, four per table (default 1000)")
    p.add_argument("--baseline-players", type=int, default=40,
                   help="players of the baseline run, measured first (default 40; 0: no baseline)")
    p.add_argument("--seconds", type=float, default=30.0, help="seconds of measured play (default 30)")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds of play before measuring (default 5)")
    p.add_argument("--timeout", type=float, default=600.0, help="hard limit for the whole script (default 600 s)")
    p.add_argument("--client-procs", type=int, default=1, help="client processes to spread the players over")
    p.add_argument("--database-url", default=None, metavar="ADMIN_URL",
                   help="a PostgreSQL admin URL: each run gets a new database there (dropped afterwards)")
    p.add_argument("--compression", choices=["deflate", "none"], default="deflate",
                   help="offer permessage-deflate as browsers do (default), or not")
    p.add_argument("--when-over", choices=["new", "stop"], default="new",
                   help="when a game ends: the host opens a new table (default) or its players stop")
    p.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                   help="players pause 0.5-1.5 times this before each action, as people do (default 0: as fast "
                        "as they can)")
    p.add_argument("--profile", default=None, metavar="FILE",
                   help="run the load run's server under cProfile, writing the stats to FILE (slows it)")
    p.add_argument("--server", choices=["euchre", "floor"], default="euchre",
                   help="euchre: the real server (default); floor: bench/ws_floor.py, the same frames with no game "
                        "and no database (what the transport and this client alone cost)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    a = p.parse_args(argv)
    if a.players < 4 or a.baseline_players < 0 or a.seconds <= 0 or a.warmup < 0 or a.client_procs < 1:
        p.error("need --players >= 4, --seconds > 0, --warmup >= 0, --client-procs >= 1")
    deadline = time.perf_counter() + a.timeout
    results = []
    if a.baseline_players >= 4:
        results.append(run("baseline", a.baseline_players, a, deadline))
    results.append(run("load", a.players, a, deadline, a.profile))
    if a.json:
        print(json.dumps({"compression": a.compression, "when_over": a.when_over, "think_s": a.think,
                          "server": a.server,
                          "database": "none" if a.server == "floor" else "postgresql" if a.database_url else "sqlite",
                          "goal": {"players": GOAL_PLAYERS, "p99_ms": GOAL_P99 * 1000},
                          "runs": [r.summary() for r in results]}, indent=2))
    else:
        report(results, a)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
