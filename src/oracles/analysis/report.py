"""The report: each table as CSV, its plots as PNG, all in ``report.html``.

A :class:`Table` is tidy data (one dict per row, the same keys in every
row) with a title, a paragraph saying what it means and the :class:`Plot`
bar charts drawn from it. A rate or mean column ``x`` comes with ``x_low``
and ``x_high`` (its 95% interval), drawn as error bars; a row's ``warning``
says when its sample is too small to conclude. A figure that does not apply
to a row (a lead change where no seat can lead alone, a bid in a variant
without bids) is ``None``: it reads :data:`NOT_APPLICABLE` in the CSV and the
HTML and draws no bar, rather than a 0 that would look measured.

matplotlib is an optional dependency (``pip install 'oracles[analysis]'``):
:func:`require_matplotlib` turns its absence into one clear error.
"""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oracles.core.errors import OraclesError

MISSING_MATPLOTLIB = "the analysis needs matplotlib: pip install 'oracles[analysis]'"
#: How a figure that does not apply to a row (``None``) reads in the CSV and the HTML.
NOT_APPLICABLE = "n/a"


@dataclass(frozen=True)
class Plot:
    """A bar chart of column ``y`` over column ``x``; ``line`` draws a
    horizontal reference, ``band=(centre, share)`` shades centre x (1 ± share)."""

    y: str
    x: str
    label: str = ""
    line: float | None = None
    band: tuple[float, float] | None = None


@dataclass
class Table:
    name: str
    title: str
    about: str
    rows: list[dict[str, Any]]
    plots: list[Plot] = field(default_factory=list)


def require_matplotlib() -> None:
    """Raise :class:`OraclesError` (one line) when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise OraclesError(MISSING_MATPLOTLIB) from None


def write_csv(table: Table, directory: Path) -> Path:
    path = directory / f"{table.name}.csv"
    columns = list(table.rows[0]) if table.rows else []
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=columns)
        writer.writeheader()
        writer.writerows(
            {key: NOT_APPLICABLE if value is None else value for key, value in row.items()}
            for row in table.rows
        )
    return path


def plot_file(table: Table, plot: Plot) -> str:
    return f"{table.name}-{plot.y}.png"


def draw_plot(table: Table, plot: Plot, directory: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # A row where the figure does not apply gets no bar: its label says n/a.
    labels = [
        str(row[plot.x]) + ("" if row[plot.y] is not None else f" ({NOT_APPLICABLE})") for row in table.rows
    ]
    values = [float(row[plot.y]) if row[plot.y] is not None else 0.0 for row in table.rows]
    has_interval = bool(table.rows) and f"{plot.y}_low" in table.rows[0]
    errors = None
    if has_interval:
        lows, highs = [], []
        for value, row in zip(values, table.rows, strict=True):
            low, high = row[f"{plot.y}_low"], row[f"{plot.y}_high"]
            lows.append(0.0 if low is None else max(0.0, value - float(low)))
            highs.append(0.0 if high is None else max(0.0, float(high) - value))
        errors = [lows, highs]
    width = max(4.0, min(12.0, 0.28 * len(labels) + 2))
    figure, axes = plt.subplots(figsize=(width, 3.2), dpi=80)
    colours = ["#c0504d" if row.get("warning") or row.get("dead") else "#4f81bd" for row in table.rows]
    axes.bar(labels, values, yerr=errors, color=colours, capsize=2, error_kw={"elinewidth": 0.8}, zorder=2)
    if plot.band is not None:
        centre, share = plot.band
        axes.axhspan(centre * (1 - share), centre * (1 + share), color="#9bbb59", alpha=0.35, zorder=0)
        axes.axhline(centre, color="#4a7a2a", linewidth=1, zorder=3)
    if plot.line is not None:
        axes.axhline(plot.line, color="#7f7f7f", linestyle="--", linewidth=1, zorder=3)
    axes.set_ylabel(plot.label or plot.y.replace("_", " "))
    axes.set_title(f"{table.title}: {plot.label or plot.y.replace('_', ' ')}", fontsize=10)
    if len(labels) > 8:
        axes.tick_params(axis="x", labelrotation=90, labelsize=7)
    figure.tight_layout()
    path = directory / plot_file(table, plot)
    figure.savefig(path)
    plt.close(figure)
    return path


def _cell(value: Any) -> str:
    if value is None:
        return NOT_APPLICABLE
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, float):
        return f"{value:.3f}"
    return html.escape(str(value))


def table_html(table: Table) -> str:
    columns = list(table.rows[0]) if table.rows else []
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "".join(
        "<tr"
        + (' class="warn"' if row.get("warning") or row.get("dead") else "")
        + ">"
        + "".join(f"<td>{_cell(row[c])}</td>" for c in columns)
        + "</tr>"
        for row in table.rows
    )
    images = "".join(
        f'<img src="{plot_file(table, plot)}" alt="{html.escape(table.title)}: {html.escape(plot.y)}">'
        for plot in table.plots
    )
    return (
        f'<section id="{table.name}"><h2>{html.escape(table.title)}</h2>'
        f'<p>{html.escape(table.about)} Data: <a href="{table.name}.csv">{table.name}.csv</a>.</p>'
        f'<div class="plots">{images}</div>'
        f"<details><summary>table ({len(table.rows)} rows)</summary>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></details></section>"
    )


STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; max-width: 1200px; }
table { border-collapse: collapse; font-size: 12px; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
tr.warn td { background: #fbe5e5; }
.plots img { max-width: 100%; margin: 4px; }
summary { cursor: pointer; color: #36c; }
"""


def write_report(directory: str | Path, title: str, summary: dict[str, Any], tables: Sequence[Table]) -> Path:
    """Write every table's CSV and plots and ``report.html`` into
    ``directory`` (created); return the HTML file's path."""
    require_matplotlib()
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    sections = []
    for table in tables:
        write_csv(table, out)
        for plot in table.plots:
            draw_plot(table, plot, out)
        sections.append(table_html(table))
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    facts = "".join(
        f"<li><b>{html.escape(str(k))}</b>: {html.escape(json.dumps(v) if not isinstance(v, str) else v)}</li>"
        for k, v in summary.items()
    )
    page = (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1><ul>{facts}</ul>"
        "<p>Bars show rates and means with their 95% intervals (Wilson for rates; a mean of "
        "something that cannot be negative, such as a count, has its interval cut at 0); red rows "
        "and bars have a sample too small to conclude (or a dead card).</p>"
        + "".join(sections)
        + "</body></html>\n"
    )
    path = out / "report.html"
    path.write_text(page, encoding="utf-8")
    return path
