"""``bench/plausible_discards.py``: the dealer's six discards all valued, against the plausible ones."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import plausible_discards  # noqa: E402

from euchre.bots.search import plausible_discards as keep_of  # noqa: E402
from euchre.rules import Rules  # noqa: E402
from euchre.state import Phase  # noqa: E402


def test_the_positions_are_dealers_discards_with_fewer_plausible_ones() -> None:
    views = plausible_discards.discard_views(Rules.preset("british"), 4, seed=1)
    assert len(views) == 4
    for view in views:
        assert view.phase is Phase.DISCARD and view.seat == view.dealer and len(view.legal_actions) == 6
        assert view.trump is not None and 1 <= len(keep_of(list(view.legal_actions), view.trump)) <= 4


def test_a_run_reports_what_the_plausible_set_gives_up(capsys: pytest.CaptureFixture[str]) -> None:
    assert plausible_discards.main(["--positions", "2", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "american: 2 discards (seed 7), the best of six outside the plausible set" in out
    assert "plausible discards a position:" in out
