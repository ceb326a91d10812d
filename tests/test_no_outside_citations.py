"""The project's code and docs cite the project's own docs, never the
contract file that lives outside the repository."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("*.py", "*.md", "*.js", "*.html", "*.css")


def test_no_file_cites_spec_md() -> None:
    found = []
    for folder in ("src", "docs", "tests", "benchmarks", "tools"):
        for kind in KINDS:
            for path in (ROOT / folder).rglob(kind):
                if path.name == Path(__file__).name:
                    continue
                if "SPEC.md" in path.read_text(encoding="utf-8", errors="replace"):
                    found.append(str(path.relative_to(ROOT)))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "SPEC.md" not in readme
    assert found == []
