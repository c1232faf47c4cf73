"""Where the user's files live: the data directory shared by the command line (saved games,
settings) and the server (its default database)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_dir"]


def data_dir() -> Path:
    """Where games live: ``$EUCHRE_HOME``, else ``$XDG_DATA_HOME/euchre``, else
    ``~/.local/share/euchre``."""
    if os.environ.get("EUCHRE_HOME"):
        return Path(os.environ["EUCHRE_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "euchre"
