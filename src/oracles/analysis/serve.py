"""``oracles analyze GAME --serve``: the balance report in a browser, for a designer.

A small Starlette app (run with uvicorn by the command): the page shows the
latest report (``report.html`` of the run, in a frame), a progress bar while
games run (the page asks ``/status`` every half second), and, for Oracle, a
table of the edition's cards whose points the designer may change before
running again (``POST /run``, a JSON object: ``games`` and points by card id). The edited edition is written into the report
directory as ``edition.json`` (also at ``/edition.json``), so that a good one
can be kept and shipped. One run at a time; games run in a thread of the
server, in ``workers`` processes as for ``oracles analyze``.
"""

from __future__ import annotations

import contextlib
import html
import json
import threading
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from oracles.analysis.collect import Played, analysis_part, play_games
from oracles.analysis.report import write_report
from oracles.core.registry import game_part, load_game
from oracles.i18n import LANGUAGES, translate

#: At most this many games a run from the page (a designer's quick look).
MAX_GAMES = 20000


@dataclass
class Run:
    """What the page shows: the state of the latest run and its progress."""

    state: str = "idle"  # idle, running, done or failed
    done: int = 0
    total: int = 0
    error: str = ""
    seconds: float = 0.0
    runs: int = 0


@dataclass
class Designer:
    """One designer's session: the game, its options, where the report goes,
    and the points the designer set (Oracle card id -> points)."""

    game_id: str
    options: dict[str, Any]
    games: int
    out: Path
    bots: Sequence[str] = ("heuristic",)
    seed: int = 0
    workers: int = 1
    points: dict[str, int] = field(default_factory=dict)
    run: Run = field(default_factory=Run)
    lock: threading.Lock = field(default_factory=threading.Lock)
    thread: threading.Thread | None = None

    # ----------------------------------------------------------- the edition
    def edition(self) -> Any:
        """The Oracle edition the next run plays (the options' one, re-pointed
        by the designer), or ``None`` for the other games."""
        balancer = game_part(self.game_id, "balancer")
        if balancer is None:
            return None
        base = load_game(self.game_id, **self.options).edition  # type: ignore[attr-defined]
        return balancer.repointed(base, self.points, base.name)

    def edition_path(self) -> Path:
        return self.out / "edition.json"

    def run_options(self) -> dict[str, Any]:
        """The options the run plays: the edited edition's file when points changed."""
        options = dict(self.options)
        edition = self.edition()
        if edition is not None and self.points:
            balancer = game_part(self.game_id, "balancer")
            game = load_game(self.game_id, **self.options)
            # The designer edits this count's points: the file keeps the
            # edition's points, conditions and texts at the other counts.
            whole = balancer.load_start(str(game.options["edition"]))
            written = balancer.with_points_at(whole, game.num_players, edition, whole.name)
            self.out.mkdir(parents=True, exist_ok=True)
            path = self.edition_path()
            path.write_text(balancer.edition_json(written, "edited on the designer's page"), encoding="utf-8")
            options["edition"] = str(path.resolve())
        return options

    # -------------------------------------------------------------- the runs
    def start(self, games: int, points: dict[str, int]) -> bool:
        """Start a run in a thread (``False`` if one is running)."""
        with self.lock:
            if self.run.state == "running":
                return False
            self.games = games
            self.points = {**self.points, **points}
            self.run = Run(state="running", total=games, runs=self.run.runs)
            self.thread = threading.Thread(target=self._play, daemon=True)
            self.thread.start()
        return True

    def _count(self, _: Played) -> None:
        with self.lock:
            self.run.done += 1

    def _play(self) -> None:
        started = time.perf_counter()
        try:
            options = self.run_options()
            played = play_games(
                self.game_id, options, self.bots, self.games, self.seed, self.workers, self._count
            )
            resolved = dict(load_game(self.game_id, **options).options)
            tables = analysis_part(self.game_id).report_tables(played, resolved, [])
            summary = {
                "game": self.game_id,
                "source": f"{self.games} games, bots {','.join(self.bots)}, seed {self.seed}",
                "options": resolved,
                "seconds": round(time.perf_counter() - started, 1),
            }
            write_report(self.out, f"Balance report: {self.game_id}", summary, tables)
            state, error = "done", ""
        except Exception as problem:  # shown on the page: the server stays up
            state, error = "failed", f"{type(problem).__name__}: {problem}"
        with self.lock:
            self.run.state, self.run.error = state, error
            self.run.seconds = round(time.perf_counter() - started, 1)
            self.run.runs += 1

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the running run to end (tests, and a clean shutdown)."""
        thread = self.thread
        if thread is not None:
            thread.join(timeout)

    def status(self) -> dict[str, Any]:
        with self.lock:
            run = self.run
            return {
                "state": run.state,
                "done": run.done,
                "total": run.total,
                "error": run.error,
                "seconds": run.seconds,
                "runs": run.runs,
                "report": (self.out / "report.html").is_file(),
            }


def _language(request: Request) -> str:
    lang = request.query_params.get("lang", "")
    if lang in LANGUAGES:
        return lang
    accepted = request.headers.get("accept-language", "")
    return "de" if accepted.lower().startswith("de") else "en"


def _e(text: str) -> str:
    return html.escape(text)


def _page(designer: Designer, lang: str) -> str:
    label_oracle_cards = _e(translate(lang, "Oracle cards"))
    label_hint = _e(translate(lang, "Change the points and run again."))
    label_card = _e(translate(lang, "card"))
    label_prophecy = _e(translate(lang, "prophecy"))
    label_condition = _e(translate(lang, "condition"))
    label_points = _e(translate(lang, "points"))
    label_title = _e(translate(lang, "Balance report: {game}", game=designer.game_id))
    label_games = _e(translate(lang, "games"))
    label_run = _e(translate(lang, "Run"))
    label_report = _e(translate(lang, "report"))
    edition = designer.edition()
    rows = ""
    if edition is not None:
        rows = "".join(
            f"<tr><td>{card.id}</td><td>{html.escape(card.text(lang))}</td>"
            f"<td><code>{html.escape(card.condition)}</code></td>"
            f"<td><input type='number' min='1' max='999' name='{card.id}' value='{card.points}'></td></tr>"
            for card in edition.cards
        )
        rows = (
            f"<h2>{label_oracle_cards}</h2><p>{label_hint}</p>"
            f"<table><tr><th>{label_card}</th><th>{label_prophecy}</th><th>{label_condition}</th>"
            f"<th>{label_points}</th></tr>{rows}</table>"
        )
    status = json.dumps(designer.status())
    return f"""<!doctype html><html lang='{lang}'><head><meta charset='utf-8'>
<title>{label_title}</title>
<style>body{{font-family:sans-serif;margin:1em}} .split{{display:flex;gap:1em;align-items:flex-start}}
.split form{{flex:0 0 auto;max-height:88vh;overflow:auto}}
.split iframe{{flex:1;height:88vh;border:1px solid #ccc}}
table{{border-collapse:collapse}} td,th{{padding:2px 6px;border-bottom:1px solid #eee}}
input[type=number]{{width:5em}} #error{{color:#b00}}</style></head><body>
<h1>{label_title}</h1>
<div class='split'><form id='run'>
<label>{label_games} <input type='number' name='games' min='1' max='{MAX_GAMES}' value='{designer.games}'></label>
<button type='submit' id='start'>{label_run}</button>
<progress id='bar' max='1' value='0'></progress> <span id='count'></span> <span id='error'></span>
{rows}
</form>
<iframe id='report' title='{label_report}'></iframe></div>
<script>
const form = document.getElementById('run');
function show(s) {{
  const bar = document.getElementById('bar');
  bar.max = Math.max(1, s.total); bar.value = s.done;
  document.getElementById('count').textContent = s.total ? s.done + ' / ' + s.total : '';
  document.getElementById('error').textContent = s.error;
  document.getElementById('start').disabled = s.state === 'running';
  const frame = document.getElementById('report');
  if (s.report && s.state !== 'running' && frame.dataset.runs !== String(s.runs)) {{
    frame.dataset.runs = String(s.runs); frame.src = 'report/report.html?run=' + s.runs;
  }}
  if (s.state === 'running') setTimeout(poll, 500);
}}
function poll() {{ fetch('status').then(r => r.json()).then(show); }}
form.addEventListener('submit', e => {{
  e.preventDefault();
  const body = JSON.stringify(Object.fromEntries(new FormData(form)));
  fetch('run', {{method: 'POST', headers: {{'Content-Type': 'application/json'}}, body}}).then(r => r.json()).then(s => {{
    if (s.error) document.getElementById('error').textContent = s.error; else poll();
  }});
}});
show({status});
</script></body></html>
"""


def _read_run(form: Any, edition: Any, lang: str) -> tuple[int, dict[str, int]]:
    """The games and points of a run request; ``ValueError`` with the one message to show."""
    text = str(form.get("games", "")).strip()
    if not text.isdigit() or not 1 <= int(text) <= MAX_GAMES:
        raise ValueError(translate(lang, "games must be a whole number from 1 to {top}", top=MAX_GAMES))
    points: dict[str, int] = {}
    if edition is not None:
        for card in edition.cards:
            value = str(form.get(card.id, card.points)).strip()
            if not value.isdigit() or int(value) < 1:
                raise ValueError(
                    translate(lang, "{card}: points must be a whole number of at least 1", card=card.id)
                )
            points[card.id] = int(value)
    return int(text), points


def create_app(designer: Designer, run_first: bool = True) -> Starlette:
    """The designer's page for ``designer``; with ``run_first`` the first run
    starts when the server does."""

    async def page(request: Request) -> Response:
        return HTMLResponse(_page(designer, _language(request)))

    async def status(request: Request) -> Response:
        return JSONResponse(designer.status())

    async def run(request: Request) -> Response:
        lang = _language(request)
        try:
            form = json.loads(await request.body() or b"{}")
            if not isinstance(form, dict):
                raise ValueError
        except ValueError:
            return JSONResponse({"error": translate(lang, "send the run as a JSON object")}, status_code=400)
        try:
            games, points = _read_run(form, designer.edition(), lang)
        except ValueError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        if not designer.start(games, points):
            return JSONResponse({"error": translate(lang, "a run is under way")}, status_code=409)
        return JSONResponse(designer.status(), status_code=202)

    async def report_file(request: Request) -> Response:
        name = request.path_params["name"]
        path = (designer.out / name).resolve()
        if path.parent != designer.out.resolve() or not path.is_file():
            return Response(status_code=404)
        return FileResponse(path)

    async def edition_file(request: Request) -> Response:
        edition = designer.edition()
        if edition is None:
            return Response(status_code=404)
        balancer = game_part(designer.game_id, "balancer")
        return Response(balancer.edition_json(edition), media_type="application/json")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if run_first:
            designer.start(designer.games, {})
        yield

    return Starlette(
        routes=[
            Route("/", page),
            Route("/status", status),
            Route("/run", run, methods=["POST"]),
            Route("/report/{name}", report_file),
            Route("/edition.json", edition_file),
        ],
        lifespan=lifespan,
    )


def serve(designer: Designer, host: str, port: int) -> None:
    """Run the page with uvicorn until interrupted."""
    import uvicorn

    print(f"the designer's page: http://{host}:{port}/ (Ctrl-C ends)")
    uvicorn.run(create_app(designer), host=host, port=port, log_level="warning")
