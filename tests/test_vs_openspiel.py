"""The cross-engine match ``bench/vs_openspiel.py``: our bots inside OpenSpiel's ``euchre``.

The script keeps our engine in lockstep with OpenSpiel (the referee) and raises ``LockstepError``
whenever the seat to act or the legal actions (through the card and bid mapping) disagree, or the
points differ at the end. These tests play a few deals through the script's own functions and
check that the check ran at every decision of our bot, that every translated engine difference
(alone after the discard, the provisional order, the dealer's partner alone) is reached, that a
broken mapping is caught, and that the summary numbers are sane. Skipped without ``pyspiel``.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from euchre.bots import make_bot

pyspiel = pytest.importorskip("pyspiel")

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "vs_openspiel.py"


@pytest.fixture(scope="module")
def vs() -> ModuleType:
    """The script as a module (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_vs_openspiel", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being defined
    spec.loader.exec_module(module)
    return module


def test_rules_match_the_openspiel_game(vs: ModuleType) -> None:
    """The American preset's stick-the-dealer and lone-defence settings are passed on."""
    params = pyspiel.load_game(vs.OPENSPIEL_GAME).get_parameters()
    assert params["stick_the_dealer"] == vs.RULES.stick_the_dealer
    assert params["allow_lone_defender"] == vs.RULES.defend_alone is False
    assert vs.RULES.dealer_may_discard_up_card is False


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_two_deals_against_ismcts(vs: ModuleType, bot: str) -> None:
    """Two duplicate deals against ISMCTS with 20 simulations: in lockstep and sane numbers."""
    r = vs.run(bot, deals=2, sims=20, seed=1, jobs=1)
    assert r["deals"] == 2 and r["plays"] == 4
    assert -4 <= r["mean"] <= 4 and r["sd"] >= 0
    lo, hi = r["ci95"]
    assert lo <= r["mean"] <= hi
    d = r["decisions"]
    assert d["ours"] > 0 and d["ismcts"] > 0
    # The lockstep check ran before every decision of our bot (and at ISMCTS's in-step ones).
    assert d["compared"] >= d["ours"]
    assert 0 <= r["thrown_in"] <= 1
    for key in ("ours", "ismcts"):
        assert all(0 <= v <= 1 for v in r[key].values()), r[key]
    if r["thrown_in"] < 1:
        assert math.isclose(r["ours"]["made"] + r["ismcts"]["made"] + r["thrown_in"], 1)
    assert r["our_ms_per_decision"] > 0 and r["ismcts_ms_per_decision"] > 0


def random_opponents(vs: ModuleType, ours: int, seed: int) -> list[object]:
    """Our random bot against OpenSpiel's seeded uniform random bot: reproducible (ISMCTS's
    search is not, see the script) and bold enough to reach every translation case."""
    return [make_bot("random", seed=seed * 4 + seat) if seat % 2 == ours
            else pyspiel.make_uniform_random_bot(seat, seed * 4 + seat) for seat in range(4)]


def test_every_translation_case_is_reached(vs: ModuleType) -> None:
    game = pyspiel.load_game(vs.OPENSPIEL_GAME)
    events: Counter = Counter()
    for i in range(150):
        base = vs.deal(7, i)
        for ours in (0, 1):
            rec = vs.play(game, base, ours, random_opponents(vs, ours, i))
            assert rec.compared >= rec.our_decisions > 0
            events.update(rec.events)
    for case in ("provisional order kept", "provisional order replayed alone",
                 "partner loner: our dealer's discard answered lowest id",
                 "partner loner: ISMCTS dealer's discard not mirrored"):
        assert events[case] > 0, (case, events)


def test_a_broken_card_mapping_is_caught(vs: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lockstep check is live: translating our nines as tens (the deal itself set up right)
    fails at once."""
    right = vs.common

    def wrong(action: object, up_suit: int) -> int:
        os_id = right(action, up_suit)
        return os_id ^ 4 if os_id < 8 else os_id  # 9x <-> Tx

    monkeypatch.setattr(vs, "common", wrong)
    game = pyspiel.load_game(vs.OPENSPIEL_GAME)
    with pytest.raises(vs.LockstepError):
        for i in range(5):
            vs.play(game, vs.deal(0, i), 0, random_opponents(vs, 0, i))
