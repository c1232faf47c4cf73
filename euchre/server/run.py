"""``euchre serve``: pick the address, open the database, run uvicorn."""

from __future__ import annotations

import logging
import socket
import sys

import uvicorn
from sqlalchemy.exc import SQLAlchemyError

from euchre.server.app import create_app
from euchre.server.core import ServerConfig
from euchre.server.db import Store, sqlite_url
from euchre.server.messages import MAX_FRAME

__all__ = ["serve", "default_database_url", "bind"]


def default_database_url() -> str:
    """An SQLite file in the user's data directory (``$EUCHRE_HOME``, else the XDG data dir)."""
    from euchre.cli import data_dir

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
          log_level: str = "warning", ws_compression: bool = False) -> int:
    """Run the server until interrupted; prints the address first (on its own line, flushed)."""
    url = database_url or default_database_url()
    try:
        Store(url).close()  # opens, migrates and closes: a bad URL or an unreachable server is said here
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
    logging.basicConfig(level=getattr(logging, log_level.upper(), logging.WARNING),
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    print(f"Euchre server: http://{shown}:{actual}/", flush=True)
    print(f"Database: {_safe(url)}", flush=True)
    print("Press Ctrl-C to stop.", flush=True)
    # Compression is off by default: frames are ~2 KB, and deflate cost a sixth of the server's CPU
    # per action under load (bench/server.py).
    cfg = uvicorn.Config(app, log_level=log_level, ws_max_size=16 * MAX_FRAME, ws_ping_interval=20,
                         ws_ping_timeout=20, ws_per_message_deflate=ws_compression, lifespan="on",
                         timeout_graceful_shutdown=3)
    server = uvicorn.Server(cfg)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn has shut down cleanly and re-raised the signal; no traceback for Ctrl-C
    return 0


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
