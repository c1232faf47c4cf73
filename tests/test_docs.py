"""The ```python examples in the README and docs run as written, so the docs cannot rot
(illustrations that need outside files use ```py fences and are not run)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCKS = [(p, i, code) for p in DOCS
          for i, code in enumerate(re.findall(r"```python\n(.*?)```", p.read_text(encoding="utf-8"), re.S))]


def test_the_docs_have_examples() -> None:
    assert {p.name for p, _, _ in BLOCKS} >= {"README.md", "bots.md"}


@pytest.mark.parametrize(("path", "index", "code"), BLOCKS, ids=[f"{p.name}#{i}" for p, i, _ in BLOCKS])
def test_example_runs(path: Path, index: int, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": f"doc_example_{path.stem}_{index}"}
    exec(compile(code, f"{path.name}#{index}", "exec"), namespace)  # noqa: S102 - our own docs
