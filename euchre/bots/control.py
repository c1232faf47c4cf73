"""The control variate: less sampling noise in the search bot's estimates, at no cost in samples.

A decision's choices are valued on sampled deals (:mod:`euchre.bots.search`), and most of a
deal's spread in points comes from where the unseen cards lie: who holds the bowers, how the
trumps split. Cards the seat cannot tell apart (of one suit as trump makes suits, or every unseen
card before any play) are exchangeable in :meth:`~euchre.view.PlayerView.resample`, so "this seat
holds this card" minus the share of its group the seat holds has mean zero exactly. Each choice's
points are regressed on those features over the sampled deals and the part they explain is taken
out; before the play, when every unseen card is exchangeable, the square of how many cards of each
suit a seat holds (hypergeometric) is a feature too. The estimate is the same in expectation and
its variance is about half (``bench/README.md``: the hints' 95th percentile move between two seeds
0.129 without, 0.088 with, on the same deals).

It is used by the hints (:mod:`euchre.hints`) and by the search bot's own decisions
(``SearchBot(control=True)``). Not under the house rules (their sampling weighs hidden choices, so
the cards are not exchangeable) nor on too few deals (:data:`CONTROL_MIN`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING

from euchre.cards import effective_suit
from euchre.view import _HOUSE_PHASES, PlayerView

if TYPE_CHECKING:
    from euchre.actions import Action
    from euchre.bots.search import Evaluation

__all__ = ["CONTROL_MIN", "controllable", "features", "corrected"]

_BLAS: tuple[object, object] | None | bool = False
"""OpenBLAS's (get, set) number of threads, found once (``None``: not found)."""
_BLAS_LOCK = threading.Lock()
_BLAS_USERS = [0, 1]
"""Regressions running now, and the thread count to restore when none is."""


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the control variate's linear algebra on one BLAS thread. Its matrices are small (some
    100 features) and OpenBLAS's threads, woken for each product, wait for cores that the search
    and other processes hold: on two busy cores ``eigh`` of a 100 x 100 matrix took 0.2 s instead
    of 0.5 ms, and ``A.T @ A`` over 4,000 deals 0.13 s instead of 2 ms (a quarter of a hint). The
    count is set back afterwards. NumPy's own OpenBLAS is looked up by its exported names; where it
    is not found (another BLAS), nothing changes."""
    global _BLAS
    if _BLAS is False:
        _BLAS = None
        try:
            import ctypes
            import glob
            import os

            import numpy as np

            libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
            for path in sorted(glob.glob(os.path.join(libs, "*openblas*"))):
                lib = ctypes.CDLL(path)
                for getter, setter in (("scipy_openblas_get_num_threads64_", "scipy_openblas_set_num_threads64_"),
                                       ("openblas_get_num_threads64_", "openblas_set_num_threads64_"),
                                       ("openblas_get_num_threads", "openblas_set_num_threads")):
                    if hasattr(lib, getter) and hasattr(lib, setter):
                        _BLAS = (getattr(lib, getter), getattr(lib, setter))
                        break
                if _BLAS is not None:
                    break
        except OSError:
            _BLAS = None
    if not isinstance(_BLAS, tuple):
        yield
        return
    get, put = _BLAS
    with _BLAS_LOCK:  # (hints in several threads: the first in saves the count, the last out restores it)
        if _BLAS_USERS[0] == 0:
            _BLAS_USERS[1] = int(get())  # type: ignore[operator]
            put(1)  # type: ignore[operator]
        _BLAS_USERS[0] += 1
    try:
        yield
    finally:
        with _BLAS_LOCK:
            _BLAS_USERS[0] -= 1
            if _BLAS_USERS[0] == 0:
                put(_BLAS_USERS[1])  # type: ignore[operator]


CONTROL_MIN = 8
"""The control variate is used only with at least this many sampled deals per feature."""


def controllable(view: PlayerView) -> bool:
    """Whether the unseen cards of a group are exchangeable in :meth:`PlayerView.resample` (not
    under the house rules, whose sampling weighs the other seats' hidden choices)."""
    r = view.rules
    return not (view.gifts or view.phase in _HOUSE_PHASES or view.misdeal >= 0 or view.farmer >= 0
                or r.ace_no_face or r.farmers_hand or r.double_deck)  # (the double deck's copies: no features)


class _Layout:
    """Which features a view has: the other seats, the unseen cards (less the up card and the
    Joker) and each card's group (its suit as trump makes suits once a void is known, else one
    group), and the sets of cards whose counts' squares are features before the play."""

    def __init__(self, view: PlayerView) -> None:
        import numpy as np

        pool = view.unseen_mask()
        if view.up_card is not None:
            pool &= ~(1 << view.up_card)
        cards = [c for c in range(pool.bit_length()) if pool >> c & 1 and c != 32]
        voids = view.voids()
        group_of = [0 if not voids else effective_suit(c, view.trump) for c in cards]
        self.others = [s for s in range(view.rules.players) if s != view.seat]
        self.cards = np.array(cards, dtype=np.int64)
        self.groups = [np.array(group_of) == g for g in sorted(set(group_of))]
        self.counted = not voids and view.phase.name != "PLAY"
        """Whether the counts' squares may be features (they are when, besides, every deal gives
        each seat as many unseen cards)."""
        self.sets = [np.array([effective_suit(c, trump) == t if trump is not None else c // 8 == t for c in cards])
                     for t in range(4) for trump in (t, None)]

    def held(self, hands: Sequence[tuple[int, ...]]):  # -> numpy array (deals x seats x cards)
        """Whether each other seat holds each card, per deal (1.0 or 0.0)."""
        import numpy as np

        if len(hands) == 0:
            return np.zeros((0, len(self.others), len(self.cards)))
        H = np.array(hands, dtype=np.int64)[:, self.others]  # deals x seats
        return ((H[:, :, None] >> self.cards[None, None, :]) & 1).astype(float)

    def raw(self, held, size0):  # -> numpy array (deals x features), every feature kept
        """The features of deals (:meth:`held`'s), with the counts' squares when ``size0`` (how
        many unseen cards each seat holds on every deal) is given."""
        import numpy as np

        out = held.copy()
        for m in self.groups:
            out[:, :, m] -= held[:, :, m].mean(axis=2, keepdims=True)
        X = out.reshape(len(held), -1)
        if size0 is None:
            return X
        # How many of a set of cards a seat holds is hypergeometric: its square has a known mean.
        total = len(self.cards)
        extra = []
        for m in self.sets:
            got = held[:, :, m].sum(axis=2)  # deals x seats
            K = int(m.sum())
            for j, draw in enumerate(size0):
                mu = draw * K / total
                var = mu * (total - K) / total * (total - draw) / max(total - 1, 1)
                extra.append(got[:, j] ** 2 - (var + mu * mu))
        return np.hstack([X, np.array(extra).T])


_CHUNK = 8192
"""Deals of the centre whose features are made at once: the centre can hold 150,000 deals, and all
their features at once took 261 MB at the peak of one early card hint's correction (27 MB now)
and about a fifth of the hint's time (bench/README.md)."""


def _design(view: PlayerView, hands: Sequence[tuple[int, ...]], center: Sequence[tuple[int, ...]],
            center_weights: Sequence[float] | None):  # -> (numpy array, numpy array | float)
    """The sampled deals' features (deals x features) and their expectation: the (weighted) mean
    of the ``center`` deals' features, where there are any, else 0. A feature is kept where it
    varies over all those deals; the counts' squares where the cards are exchangeable (before the
    play, no void) and every deal gives each seat as many unseen cards. The centre is gone through
    a chunk at a time: only its means and ranges are needed."""
    import numpy as np

    layout = _Layout(view)
    held = layout.held(hands)
    size = held.sum(axis=2)  # deals x seats: unseen cards held
    chunks = [center[i:i + _CHUNK] for i in range(0, len(center), _CHUNK)]
    counted = layout.counted and len(hands) > 0 and bool(np.all(size == size[0]))
    for chunk in chunks if counted else ():
        if not np.all(layout.held(chunk).sum(axis=2) == size[0]):
            counted = False
            break
    size0 = size[0] if counted else None
    X = layout.raw(held, size0)
    lo, hi = X.min(axis=0, initial=np.inf), X.max(axis=0, initial=-np.inf)
    if not chunks:
        keep = hi - lo > 1e-9
        return X[:, keep], 0.0
    w = np.ones(len(center)) if center_weights is None else np.asarray(center_weights, dtype=float)
    sums = np.zeros(X.shape[1])
    for i, chunk in enumerate(chunks):
        Xc = layout.raw(layout.held(chunk), size0)
        sums += w[i * _CHUNK:i * _CHUNK + len(chunk)] @ Xc
        lo, hi = np.minimum(lo, Xc.min(axis=0)), np.maximum(hi, Xc.max(axis=0))
    keep = hi - lo > 1e-9
    return X[:, keep], (sums / w.sum())[keep]


def features(view: PlayerView, hands: Sequence[tuple[int, ...]]):  # -> numpy array (samples x features)
    """Per sampled deal: for each other seat and each unseen card, whether the seat holds it minus
    the share of the card's group the seat holds (mean zero when the cards of a group are
    exchangeable: of one suit as trump makes suits, all of them while no void is known). The up
    card (whose place is constrained) and the Joker are left out. Before the play, with no void
    known and as many unseen cards to each seat on every deal, the squares of how many cards of
    each suit (as trump and as a plain suit) a seat holds too. Only features that vary are kept."""
    return _design(view, hands, (), None)[0]


def corrected(evals: Sequence[Evaluation], view: PlayerView, hands: Sequence[tuple[int, ...]],
              rows: Sequence[tuple[float, dict[Action, tuple[float, float]]]], utility: bool,
              center: Sequence[tuple[int, ...]] | None = None,
              center_weights: Sequence[float] | None = None) -> list[Evaluation]:
    """``evals`` with each choice's points (and its utility, with ``utility``; else the utility is
    the points) corrected by the control variate, and their standard errors with it; unchanged
    where it does not apply (:func:`controllable`, :data:`CONTROL_MIN`). ``hands`` are the seats'
    hands at the view on each sampled deal, ``rows`` each deal's weight and (points, utility) per
    choice (the seat's own later choices already resolved), in the same order. ``center``: the
    hands of many more deals drawn as these were, where that is not uniformly
    (:func:`euchre.fastbid.pool_hands`, deals drawn by the bidding): the features' means there
    stand for their expectation, which is zero only under uniform dealing. ``center_weights``: one
    per ``center`` deal, where those deals were drawn uniformly and the sampled ones kept with
    these chances (the card play drawn by the bids, :meth:`SearchBot._draw_by_bids`): the kept
    deals' expectation is then the chance-weighted mean of all those drawn."""
    if not controllable(view):
        return list(evals)
    import numpy as np

    with one_blas_thread():
        X, mu = _design(view, hands, center or (), center_weights)
        n, k = X.shape
        if k == 0 or n < CONTROL_MIN * k:
            return list(evals)
        w = np.array([row[0] for row in rows])
        acts = [e.action for e in evals]
        pts = {a: np.array([values[a][0] for _, values in rows]) for a in acts}
        wbar = w.mean()
        A = np.hstack([np.ones((n, 1)), X])
        xbar = X.mean(axis=0)
        dof = max(n - k - 1, 1)
        # Least squares by the normal equations, pseudo-inverted once (the features of a group sum
        # to zero, so they are collinear; LAPACK's SVD also ran 50 times slower beside numba).
        vals, vecs = np.linalg.eigh(A.T @ A)
        keep = vals > vals.max() * 1e-10
        proj = (vecs[:, keep] / vals[keep]) @ vecs[:, keep].T @ A.T  # (k+1) x n

        def fit(y: np.ndarray) -> tuple[float, float]:
            """(estimate, standard error): the weighted mean of ``y`` less what the features explain
            (the ratio estimator linearised: its deviations regressed on the features)."""
            r = float((w * y).sum() / w.sum())
            z = w * (y - r) / wbar
            beta = proj @ z
            resid = z - A @ beta
            return r - float(beta[1:] @ (xbar - mu)), math.sqrt(float(resid @ resid) / dof / n)

        est = {a: fit(pts[a]) for a in acts}
        top = max(acts, key=lambda a: est[a][0])
        out = []
        for e in evals:
            p, se = est[e.action]
            u = fit(np.array([values[e.action][1] for _, values in rows]))[0] if utility else p
            d = 0.0 if e.action == top else fit(pts[top] - pts[e.action])[1]
            out.append(replace(e, points=p, utility=u, stderr=se, stderr_vs_best=d))
        return out
