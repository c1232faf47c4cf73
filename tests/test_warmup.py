"""The computer players' compiled code is prepared up front: by ``euchre play`` before the first
decision, by ``euchre serve`` in a background thread that never takes the server down."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from euchre import fastbid
from euchre.bots import warmup
from euchre.cli import main


def test_warm_up_compiles_the_bidding_samples() -> None:
    warmup.warm_up_in_background().join(timeout=600)
    assert fastbid._samples.signatures, "the compiled bidding samples are ready after the warm-up"
    assert fastbid._bid_surprises.signatures, "and the card play's reading of the bids (the hints')"


def test_a_failed_warm_up_is_logged_not_raised(monkeypatch: pytest.MonkeyPatch,
                                                caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> None:
        raise OSError("no space left on device (numba's cache)")

    monkeypatch.setattr(warmup, "warm_up", broken)
    with caplog.at_level(logging.WARNING, logger="euchre.warmup"):
        thread = warmup.warm_up_in_background()
        thread.join(timeout=10)
    assert not thread.is_alive() and thread.daemon
    assert "they compile on first use" in caplog.text and "no space left" in caplog.text


def test_serve_warms_up_unless_told_not_to(monkeypatch: pytest.MonkeyPatch) -> None:
    from euchre.server import run as run_module

    got: list[bool] = []

    def fake_serve(**kw: Any) -> int:
        got.append(kw["warm_up"])
        return 0

    monkeypatch.setattr(run_module, "serve", fake_serve)
    assert main(["serve"]) == 0
    assert main(["serve", "--no-warm-up"]) == 0
    assert got == [True, False]
