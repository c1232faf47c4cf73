"""Load (or, the first time on a machine, compile) the computer players' compiled code up front.

The exact solver, the compiled bidding samples and the card play's reading of the bids
(:mod:`euchre.fastbid`: the expert's bids and the hints') are numba code, compiled on first use
and cached on disk. The first compile takes a minute or two; paid inside a decision it freezes a
terminal game or a server table's computer player. ``euchre play`` calls :func:`warm_up` before
the first decision, ``euchre serve`` in a background thread while it starts serving.
"""

from __future__ import annotations

import logging
import random
import threading
import time

__all__ = ["warm_up", "warm_up_in_background"]

log = logging.getLogger("euchre.warmup")


def warm_up() -> None:
    """Compile (or load from the cache) the solver and the compiled bidding samples, by making one
    tiny decision of each kind; later ones then start at once."""
    from euchre import fastbid
    from euchre.bots.search import SearchBot
    from euchre.rules import Rules
    from euchre.solver import Solver
    from euchre.state import Phase, State
    from euchre.view import PlayerView

    s = State.random(Rules(), dealer=0, rng=random.Random(0))
    view = PlayerView.of(s, s.to_act)
    fastbid.sample_values(SearchBot(seed=0), view, list(view.legal_actions), 2, 0)
    s.push("order")
    while s.phase is not Phase.PLAY:
        s.push(s.legal_actions()[0])
    Solver().solve(s)
    # the card play's deals drawn by the bids (the hints': fastbid.PlayDrawer, with BidReader's test)
    play = PlayerView.of(s, s.to_act)
    fastbid.BidReader(play).surprises(s)
    drawer = fastbid.PlayDrawer(play, 0, bury_misfit=0.05)
    drawer.draw(0.05, 0.05)
    drawer.play_weight(0.3, 0.5)  # (and the card play read on it: every expert's card decision)


def warm_up_in_background() -> threading.Thread:
    """Start :func:`warm_up` in a daemon thread and return it. A decision that needs the compiled
    code meanwhile waits for numba's compile lock rather than compiling a second time; a failure
    is logged, never raised (the computer players then compile on first use, as without it)."""

    def run() -> None:
        start = time.monotonic()
        try:
            warm_up()
            log.info("the computer players' compiled code is ready (%.1f s)", time.monotonic() - start)
        except Exception:  # noqa: BLE001 - a warm-up that fails must not take the server down
            log.warning("preparing the computer players' compiled code failed; they compile on first use",
                        exc_info=True)

    thread = threading.Thread(target=run, name="euchre-warm-up", daemon=True)
    thread.start()
    return thread
