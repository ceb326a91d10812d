"""The examples of docs/research.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
NEEDS = {"OpenSpiel": "pyspiel", "PettingZoo": "pettingzoo", "Gymnasium": "gymnasium"}


def test_three_examples() -> None:
    assert len(BLOCKS) == 3


@pytest.mark.parametrize(("framework", "code"), list(zip(NEEDS, BLOCKS, strict=False)), ids=list(NEEDS))
def test_example_runs(framework: str, code: str, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip(NEEDS[framework])
    exec(compile(code, f"docs/research.md ({framework})", "exec"), {"__name__": "__docs__"})
    assert capsys.readouterr().out.strip()
