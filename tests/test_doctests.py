"""The ``>>>`` examples in the docstrings of every module of the ``euchre`` package, run as tests.

One test per module (so xdist spreads them). Skipped: ``euchre.__main__`` (importing it runs the
program) and the Alembic migration scripts under ``euchre/server/migrations`` (importing them needs
an Alembic context); every other module is imported, the server's too (FastAPI is in the test
extra). A module without examples passes trivially, so a new module is covered as soon as it has one.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import euchre

SKIP = ("euchre.__main__", "euchre.server.migrations")


def _modules() -> list[str]:
    names = ["euchre"]
    for info in pkgutil.walk_packages(euchre.__path__, "euchre."):
        if not any(info.name == s or info.name.startswith(s + ".") for s in SKIP):
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)  # given the module, it skips imported objects
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures: list[str] = []
    for test in finder.find(module, name):
        out: list[str] = []
        result = runner.run(test, out=out.append)
        if result.failed:
            failures.append("".join(out))
    assert not failures, "\n".join(failures)


def test_examples_are_found() -> None:
    """The finder sees the package's examples (a guard against a walk that silently finds none)."""
    from euchre import rules

    tests = doctest.DocTestFinder(exclude_empty=True).find(rules, "euchre.rules")
    assert sum(len(t.examples) for t in tests) >= 5
