"""``euchre serve``: pick the address, open the database, run uvicorn."""

from __future__ import annotations

import json
import logging
import socket
import sys
import time
from typing import Any

import uvicorn
from sqlalchemy.exc import SQLAlchemyError

from euchre.paths import data_dir
from euchre.server.app import create_app
from euchre.server.core import ServerConfig
from euchre.server.db import DatabaseInUse, Store, sqlite_url
from euchre.server.guard import CONNECTIONS, MAX_CONNECTIONS_PER_CLIENT, TimedHttp, TimedWebSockets
from euchre.server.messages import MAX_FRAME

__all__ = ["serve", "default_database_url", "bind", "uvicorn_config"]


def default_database_url() -> str:
    """An SQLite file in the user's data directory (``$EUCHRE_HOME``, else the XDG data dir)."""
    return sqlite_url(data_dir() / "euchre.sqlite3")


def bind(host: str, port: int | None) -> socket.socket:
    """A listening socket on ``port``; without one, 8000 if it is free, else any free port."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    candidates = [port] if port is not None else [8000, 0]
    last: OSError | None = None
    for p in candidates:
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, p))
        except OSError as e:
            sock.close()
            last = e
            continue
        sock.listen(2048)
        sock.set_inheritable(True)
        return sock
    assert last is not None
    raise last


def serve(*, host: str = "127.0.0.1", port: int | None = None, database_url: str | None = None,
          config: ServerConfig | None = None, allow_origins: list[str] | None = None,
          log_level: str = "warning", ws_compression: bool = False, log_format: str = "text",
          max_connections_per_client: int = MAX_CONNECTIONS_PER_CLIENT, warm_up: bool = True) -> int:
    """Run the server until interrupted; prints the address first (on its own line, flushed).

    With ``warm_up``, the computer players' compiled code is loaded (compiled, the first time on a
    machine) in a background thread while the server starts taking connections, so the first
    expert bid or hint at a table does not wait for numba."""
    url = database_url or default_database_url()
    try:
        # Opens, migrates and closes: a bad URL, an unreachable server or a database another
        # server already serves is said here, in one line (the app claims it again as it starts).
        store = Store(url)
        try:
            store.hold()
        finally:
            store.close()
    except DatabaseInUse as e:
        print(f"euchre: error: {e}", file=sys.stderr)
        return 1
    except (SQLAlchemyError, ValueError, OSError) as e:
        print(f"euchre: error: cannot open the database {_safe(url)}: {_first_line(e)}", file=sys.stderr)
        return 1
    try:
        sock = bind(host, port)
    except OSError as e:
        print(f"euchre: error: cannot listen on {host}:{port}: {e.strerror or e}", file=sys.stderr)
        return 2
    actual = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    app = create_app(url, config=config, allow_origins=allow_origins)
    CONNECTIONS.limit = max_connections_per_client
    setup_logging(log_level, log_format)
    print(f"Euchre server: http://{shown}:{actual}/", flush=True)
    print(f"Database: {_safe(url)}", flush=True)
    if warm_up:
        from euchre.bots.warmup import warm_up_in_background

        print("Preparing the computer players in the background (the first time on a machine: a minute or two).",
              flush=True)
        warm_up_in_background()
    print("Press Ctrl-C to stop.", flush=True)
    # Compression is off by default: frames are ~2 KB, and deflate cost a sixth of the server's CPU
    # per action under load (bench/server.py).
    server = uvicorn.Server(uvicorn_config(app, log_level=log_level, ws_compression=ws_compression))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn has shut down cleanly and re-raised the signal; no traceback for Ctrl-C
    return 0


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time``, ``level``, ``logger``, ``message``, the failure's
    context (``event``, ``table``, ``seat``, ``error``, ``repeated``... see
    :meth:`~euchre.server.core.Hub.log_failure`) and ``traceback`` when there is one; for log
    collectors."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
                               "level": record.levelname.lower(), "logger": record.name,
                               "message": record.getMessage()}
        out.update(getattr(record, "ctx", None) or {})
        if record.exc_info:
            out["traceback"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


class TextFormatter(logging.Formatter):
    """A line for people: time, logger, level, message, then the context as ``key=value``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(name)s %(levelname)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        ctx = getattr(record, "ctx", None)
        if ctx:
            first, _, rest = line.partition("\n")
            extra = " ".join(f"{k}={v}" for k, v in ctx.items() if k not in ("event", "error"))
            line = f"{first} [{extra}]" + (f"\n{rest}" if rest else "") if extra else line
        return line


def setup_logging(level: str = "warning", fmt: str = "text") -> None:
    """The root logger, for the server's and uvicorn's lines alike: ``text`` or ``json``."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    if fmt == "json":
        JsonFormatter.converter = time.gmtime  # the "Z" in each line's time means it
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(getattr(logging, level.upper(), logging.WARNING))


def uvicorn_config(app: Any, *, log_level: str = "warning", ws_compression: bool = False,
                   graceful: int = 3) -> uvicorn.Config:
    """How ``euchre serve`` runs the application: uvicorn with the protocols of
    :mod:`euchre.server.guard` (time limits for slow headers and clients that never read), the
    frame cap, and keep-alive pings that drop a peer gone silent."""
    return uvicorn.Config(app, log_level=log_level, http=TimedHttp, ws=TimedWebSockets, ws_max_size=16 * MAX_FRAME,
                          ws_ping_interval=20, ws_ping_timeout=20, ws_per_message_deflate=ws_compression,
                          lifespan="on", timeout_graceful_shutdown=graceful, log_config=None)


def _safe(url: str) -> str:
    """The URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        return repr(url.split("@")[-1])


def _first_line(e: BaseException) -> str:
    text = str(getattr(e, "orig", None) or e).strip()
    return text.splitlines()[0] if text else type(e).__name__
