"""The project's code and docs cite the project's own docs, never the
contract file that lives outside the repository."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("*.py", "*.md", "*.js", "*.html", "*.css")


def test_no_file_cites_spec_md() -> None:
    found = []
    for folder in ("src", "docs", "tests", "benchmarks", "tools"):
        for kind in KINDS:
            for path in (ROOT / folder).rglob(kind):
                # (Installed packages, such as tools/lighthouse/node_modules, are not ours.)
                if path.name == Path(__file__).name or not path.is_file() or "node_modules" in path.parts:
                    continue
                if "SPEC.md" in path.read_text(encoding="utf-8", errors="replace"):
                    found.append(str(path.relative_to(ROOT)))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "SPEC.md" not in readme
    assert found == []


def _strings(tree: Any) -> list[tuple[int, str]]:
    """The string constants of a module, docstrings left out."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_no_game_id_is_written_outside_the_games_and_the_registry() -> None:
    """Adding a game is its package and one registry line: nothing else in
    the program names a game (the pages, the server, the bots, the CLI)."""
    from oracles.core.registry import GAMES

    ids = set(GAMES)
    src = ROOT / "src" / "oracles"
    allowed = {src / "core" / "registry.py"}
    found = []
    for path in src.rglob("*"):
        if path in allowed or (src / "games") in path.parents or path.suffix not in (".py", ".html", ".js"):
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            hits = [(line, value) for line, value in _strings(ast.parse(text)) if value in ids]
        else:
            hits = [
                (text[: m.start()].count("\n") + 1, m.group(1))
                for m in re.finditer(r"[\"']({})[\"']".format("|".join(ids)), text)
            ]
        found += [f"{path.relative_to(ROOT)}:{line}: {value!r}" for line, value in hits]
    assert found == []
