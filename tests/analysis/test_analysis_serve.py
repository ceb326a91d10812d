"""The designer's page of ``oracles analyze --serve`` (a small run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from oracles.analysis.serve import Designer, create_app
from oracles.games.oracle.prophecies import edition_named, load_edition


def _with_client(designer: Designer, steps: Callable[[httpx.AsyncClient], Awaitable[Any]]) -> Any:
    """Run ``steps`` against the designer's page in this process (httpx's ASGI transport)."""

    async def main() -> Any:
        transport = httpx.ASGITransport(app=create_app(designer, run_first=False))
        async with httpx.AsyncClient(transport=transport, base_url="http://designer") as client:
            return await steps(client)

    return asyncio.run(main())


def _designer(tmp_path: Path) -> Designer:
    options = {"players": 3, "rounds": 1, "edition": "balanced"}
    return Designer("oracle", options, 2, tmp_path / "report", seed=3)


def test_the_page_shows_a_progress_bar_and_every_card_to_re_point(tmp_path: Path) -> None:
    async def steps(client: httpx.AsyncClient) -> None:
        page = (await client.get("/")).text
        assert "<progress id='bar'" in page
        assert page.count("type='number' min='1' max='999'") == 40
        assert "name='O22'" in page
        assert (await client.get("/status")).json()["state"] == "idle"
        assert "Orakelkarten" in (await client.get("/?lang=de")).text

    _with_client(_designer(tmp_path), steps)


def test_a_designer_changes_points_and_runs_again(tmp_path: Path) -> None:
    designer = _designer(tmp_path)

    async def steps(client: httpx.AsyncClient) -> tuple[dict[str, Any], str, str]:
        started = await client.post("/run", json={"games": "2", "O05": "11"})
        assert started.status_code == 202
        assert (await client.post("/run", json={"games": "2"})).status_code in (202, 409)
        designer.wait(300)
        status = (await client.get("/status")).json()
        return (
            status,
            (await client.get("/report/report.html")).text,
            (await client.get("/edition.json")).text,
        )

    status, report, edition_text = _with_client(designer, steps)
    assert status["state"] == "done", status["error"]
    assert (status["done"], status["total"], status["report"]) == (2, 2, True)
    assert "Prophecies" in report
    assert json.loads(edition_text)["cards"]
    written = load_edition(designer.edition_path())
    # The page edits the points of its count (three players) ...
    at_three = {card.id: card.points for card in written.for_players(3).cards}
    assert at_three["O05"] == 11
    balanced = edition_named("balanced")
    assert all(at_three[card.id] == card.points for card in balanced.for_players(3).cards if card.id != "O05")
    # ... and keeps the edition's points, conditions and texts at the others.
    for players in (4, 5):
        assert [
            (c.id, c.points, c.condition, c.text_en, c.text_de) for c in written.for_players(players).cards
        ] == [
            (c.id, c.points, c.condition, c.text_en, c.text_de) for c in balanced.for_players(players).cards
        ]
    # The run played the edited edition: its report lists O05 at 11 points.
    rows = (designer.out / "prophecies.csv").read_text(encoding="utf-8").splitlines()
    assert next(row for row in rows if row.startswith("O05,")).split(",")[2] == "11"


def test_bad_input_gets_one_clear_error_and_no_run(tmp_path: Path) -> None:
    async def steps(client: httpx.AsyncClient) -> None:
        answer = await client.post("/run", json={"games": "0"})
        assert answer.status_code == 400
        assert "games must be a whole number" in answer.json()["error"]
        answer = await client.post("/run", json={"games": "2", "O07": "-3"})
        assert answer.status_code == 400
        assert answer.json()["error"].startswith("O07:")
        assert (await client.get("/status")).json()["state"] == "idle"
        assert (await client.get("/report/..%2Fedition.json")).status_code == 404

    _with_client(_designer(tmp_path), steps)
