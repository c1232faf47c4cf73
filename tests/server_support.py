"""Helpers for the server tests: a fresh database (SQLite or PostgreSQL), a real ``euchre serve``
process that can be killed with SIGKILL and restarted on the same database, and a small
WebSocket client.

The per-address limits (``--connect-limit``, ``--create-limit``) are off in both kinds of server
unless a test asks for them: the tests connect and open tables hundreds of times from 127.0.0.1.

PostgreSQL tests need ``EUCHRE_TEST_POSTGRES_URL`` (an admin URL; ``.ci/postgres.sh`` starts a
throwaway server and prints it). Without it they are skipped, unless ``EUCHRE_REQUIRE_POSTGRES``
is set (CI sets it), in which case they fail: CI must never pass by skipping them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

DATABASES = ["sqlite", "postgresql"]


def postgres_admin_url() -> str | None:
    url = os.environ.get("EUCHRE_TEST_POSTGRES_URL")
    if not url:
        if os.environ.get("EUCHRE_REQUIRE_POSTGRES"):
            pytest.fail("EUCHRE_REQUIRE_POSTGRES is set but EUCHRE_TEST_POSTGRES_URL is not")
        pytest.skip("no PostgreSQL server (set EUCHRE_TEST_POSTGRES_URL; .ci/postgres.sh starts one)")
    return url


def fresh_database(kind: str, tmp_path: Path) -> str:
    """The URL of a new, empty database of ``kind`` (``sqlite`` or ``postgresql``)."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'euchre.sqlite3'}"
    admin = postgres_admin_url()
    assert admin is not None
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"euchre_test_{uuid.uuid4().hex[:12]}"
    u = make_url(admin)
    conninfo = u.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return u.set(database=name).render_as_string(hide_password=False)


NO_LIMITS = {"--connect-limit": "0", "--create-limit": "0", "--max-tables-per-client": "0", "--hint-limit": "0"}
"""What :class:`Server` adds to the command line, for each option the test did not give."""


class Server:
    """``euchre serve`` in a subprocess on a free port; ``kill()`` is SIGKILL, ``start()`` again
    resumes from the same database. The per-address limits are off unless ``args`` set them."""

    def __init__(self, database_url: str, home: Path, *args: str) -> None:
        self.database_url = database_url
        self.home = home
        self.args = list(args)
        self.proc: subprocess.Popen[str] | None = None
        self.base = ""
        self.port = 0

    def start(self, timeout: float = 60.0) -> Server:
        env = {**os.environ, "EUCHRE_HOME": str(self.home), "PYTHONUNBUFFERED": "1"}
        port_args = ["--port", str(self.port)]
        limits = [x for option, value in NO_LIMITS.items() if option not in self.args for x in (option, value)]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "euchre", "serve", *port_args, "--database-url", self.database_url,
             "--log-level", "warning", *limits, *self.args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        deadline = time.monotonic() + timeout
        assert self.proc.stdout is not None
        lines = []
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("euchre serve exited:\n" + "".join(lines))
            lines.append(line)
            m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if m:
                self.port = int(m.group(1))
                self.base = f"http://127.0.0.1:{self.port}"
                break
        else:
            raise RuntimeError("euchre serve did not print its address:\n" + "".join(lines))
        self._wait_ready(deadline)
        return self

    def _wait_ready(self, deadline: float) -> None:
        import httpx

        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("euchre serve is not answering")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    @property
    def ws_base(self) -> str:
        return self.base.replace("http://", "ws://")


@contextmanager
def in_process_server(database_url: str, config: Any, log_level: str = "warning", *, limits: bool = False,
                      clock: Callable[[], float] | None = None) -> Iterator[str]:
    """``create_app(database_url, config=config)`` served by uvicorn on a free port in a thread of
    this process, as ``euchre serve`` runs it; yields the base URL until the block ends.

    Without ``limits`` the per-address limits are off (``connect_limit``, ``create_limit``,
    ``max_tables_per_client`` and ``hint_limit`` 0);
    ``clock`` is the limits' clock (a test's fake one)."""
    import threading
    import time as _time

    import uvicorn

    from euchre.server.app import create_app
    from euchre.server.run import bind, uvicorn_config

    if not limits:
        config = dataclasses.replace(config, connect_limit=0, create_limit=0, max_tables_per_client=0, hint_limit=0)
    app = create_app(database_url, config=config, clock=clock or _time.monotonic)
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(app, log_level=log_level, graceful=2))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the in-process server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(20)


@contextmanager
def running_server(database_url: str, home: Path, *args: str) -> Iterator[Server]:
    server = Server(database_url, home, *args).start()
    try:
        yield server
    finally:
        server.stop()


class Client:
    """A WebSocket client that records every frame it receives (for the leak scan)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[str] = []
        self.state: dict[str, Any] | None = None
        self.v = -1

    @classmethod
    async def connect(cls, url: str, token: str | None = None, **hello: Any) -> Client:
        import websockets

        ws = await websockets.connect(url, max_size=2**22)
        c = cls(ws)
        await c.send({"t": "hello", "token": token, **hello})
        return c

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(frame))

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        self.frames.append(raw)
        f: dict[str, Any] = json.loads(raw)
        if f["t"] == "state" and f["v"] >= self.v:
            self.v = f["v"]
            self.state = f["d"]
        return f

    async def until(self, t: str, timeout: float = 10.0, **match: Any) -> dict[str, Any]:
        """Frames until one of type ``t`` (whose fields equal ``match``) arrives."""
        deadline = time.monotonic() + timeout
        while True:
            f = await self.recv(max(0.01, deadline - time.monotonic()))
            if f["t"] == t and all(f.get(k) == v for k, v in match.items()):
                return f

    async def close(self) -> None:
        await self.ws.close()


@dataclasses.dataclass
class Live:
    """A server running in this process (:func:`serve`): its database URL, base address and an
    HTTP client, with the requests the tests make most."""

    url: str
    base: str
    http: Any

    def ws(self, table_id: str) -> str:
        return self.base.replace("http://", "ws://") + f"/ws/{table_id}"

    def post_table(self, headers: dict[str, str] | None = None, **body: Any) -> Any:
        """``POST /api/tables`` (level ``easy`` unless given): the response, whatever it is."""
        return self.http.post("/api/tables", json={"level": "easy", **body}, headers=headers)

    def create(self, **body: Any) -> dict[str, Any]:
        """A new table (201 asserted): its id, token and links."""
        r = self.post_table(**body)
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        return out

    def start(self, table_id: str, token: str | None) -> Any:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        return self.http.post(f"/api/tables/{table_id}/start", headers=headers)

    def info(self, table_id: str) -> dict[str, Any]:
        r = self.http.get(f"/api/tables/{table_id}")
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def version(self, table_id: str) -> int:
        return int(self.info(table_id)["version"])

    def health(self) -> dict[str, Any]:
        """``/healthz``'s counters (503 with ``ok`` false while the server cannot keep anything)."""
        r = self.http.get("/healthz")
        out: dict[str, Any] = r.json()
        assert r.status_code == (200 if out["ok"] else 503), (r.status_code, out)
        return out

    def store(self) -> Any:
        from euchre.server.db import Store

        return Store(self.url, migrate=False)

    def stored_row(self, table_id: str) -> Any:
        """The table's row as stored (``TableRow``: seats and every event), asserted present."""
        store = self.store()
        try:
            row = store.load_table(table_id)
        finally:
            store.close()
        assert row is not None, f"no table {table_id} in the database"
        return row


@contextmanager
def serve(url: str, *, limits: bool = False, clock: Callable[[], float] | None = None,
          **config: Any) -> Iterator[Live]:
    """``create_app(url)`` served in this process (no bot delay, short hints) until the block
    ends; the per-address limits only with ``limits``."""
    import httpx

    from euchre.server.core import ServerConfig

    cfg = ServerConfig(**{"bot_delay": 0.0, "hint_samples": 6, "hint_bid_samples": 4, **config})
    with in_process_server(url, cfg, limits=limits, clock=clock) as base, \
            httpx.Client(base_url=base, timeout=10) as http:
        yield Live(url, base, http)


# --- helpers of the sister games' server tests ---------------------------------------------------
def run(coro: Awaitable[Any], timeout: float = 120.0) -> Any:
    """Run a test's coroutine to its end, failing it after ``timeout`` seconds."""
    async def main() -> Any:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


def tokens_of(created: dict[str, Any]) -> list[str]:
    """The seat tokens of a created table: the creator's, then each link's."""
    return [created["token"]] + [link["token"] for link in created["links"]]


async def reply(c: Client, frame: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
    """Send an ``act`` and return its answer (the ``ack`` or ``err`` with its id)."""
    await c.send(frame)
    while True:
        f = await c.recv(timeout)
        if f["t"] in ("ack", "err") and f.get("id") == frame.get("id"):
            return f


async def sync(clients: list[Client], v: int) -> None:
    """Read every client's frames up to version ``v``."""
    for c in clients:
        while c.v < v:
            await c.recv(10)


def friends(srv: Live, preset: str, **rules: Any) -> tuple[str, list[str]]:
    """A friends' table of ``preset`` (with ``rules`` switched): its id and its seat tokens."""
    created = srv.create(mode="friends", preset=preset, rules=rules)
    return created["id"], tokens_of(created)


async def seated(srv: Live, table_id: str, tokens: list[str]) -> list[Client]:
    """A person in every seat of a friends' table, the game started and every frame of its
    first version read."""
    clients = []
    for s, token in enumerate(tokens):
        c = await Client.connect(srv.ws(table_id), token, name=f"P{s}")
        await c.until("state", timeout=10)
        clients.append(c)
    r = srv.start(table_id, tokens[0])
    assert r.status_code == 200, r.text
    await sync(clients, 1)
    return clients
