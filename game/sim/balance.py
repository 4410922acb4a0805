"""The balance report of a sweep: figures per cell and per swept value, plots, pages.

Per cell: each side's win rate and the draws with Wilson 95% intervals, how
the games ended, game length, and damage by source (artillery, direct fire)
as mean ± 95% CI. Per swept value: the same win rates over every cell with
that value. The balance of a cell is the first side's share of the games that
were won (draws left out), with its Wilson interval: 50% means each side wins
as often as the other. The report names the cell nearest 50% and every cell
whose interval holds 50% (the games cannot tell those apart).

The same blocks (headings, paragraphs, tables, images) are written as
Markdown (``report.md``, images beside it) and as one HTML page with the
images inside (``report.html``), so the two never say different things.
"""

from __future__ import annotations

import base64
import html
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.scenario.schema import show
from game.sim.report import mean_of, rate_of, show_mean

REPORT_VERSION = 1
EVEN = 0.5


def ending(reason: str) -> str:
    """A game's reason for ending without its figures: ``north wins on victory points
    (north 6, south 2)`` -> ``north wins on victory points``, so that games group."""
    text = re.sub(r"\s*\([^()]*\)", "", reason)
    return re.sub(r"\d+", "N", text).strip().rstrip(".")


def _figures(records: list[dict[str, Any]], sides: list[str]) -> dict[str, Any]:
    """Win rates, balance, endings, length and damage of some games."""
    n = len(records)
    wins = {s: sum(1 for r in records if r["winner"] == s) for s in sides}
    decided = sum(wins.values())
    return {
        "games": n,
        "wins": {s: rate_of(wins[s], n) for s in sides},
        "draws": rate_of(n - decided, n),
        "balance": rate_of(wins[sides[0]], decided),
        "endings": dict(sorted(Counter(ending(r["reason"]) for r in records).items())),
        "turns": mean_of([float(r["turns"]) for r in records]),
        "commands": mean_of([float(r["commands"]) for r in records]),
        "damage": {
            s: {
                source: mean_of([float(r["damage"][s][source]) for r in records])
                for source in ("artillery", "direct")
            }
            for s in sides
        },
    }


def balance_report(
    settings: dict[str, Any], cells: list[tuple[tuple[Any, ...], list[dict[str, Any]]]]
) -> dict[str, Any]:
    """The report's data (``report.json``) from each cell's values and game records."""
    sides = list(settings["sides"])
    rows = []
    for index, (values, records) in enumerate(cells):
        row = {"cell": index, "folder": f"cells/cell-{index:03d}", "values": list(values)}
        rows.append({**row, **_figures(records, sides)})
    axes = []
    for n, axis in enumerate(settings["axes"]):
        per_value = []
        for value in axis["values"]:
            pooled = [r for values, records in cells if _same(values[n], value) for r in records]
            per_value.append({"value": value, **_figures(pooled, sides)})
        axes.append({**axis, "per_value": per_value})
    return {
        "version": REPORT_VERSION,
        "settings": settings,
        "sides": sides,
        "cells": rows,
        "axes": axes,
        "nearest_even": nearest_even(rows),
        "even_cells": [r["cell"] for r in rows if _holds_even(r)],
    }


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _holds_even(row: dict[str, Any]) -> bool:
    lo, hi = row["balance"]["ci95"]
    return row["balance"]["games"] > 0 and lo <= EVEN <= hi


def nearest_even(rows: list[dict[str, Any]]) -> int | None:
    """The cell whose balance is nearest 50%; ties go to fewer draws, then the narrower
    interval, then the first cell. None when no cell had a game that was won."""
    candidates = [r for r in rows if r["balance"]["games"] > 0]
    if not candidates:
        return None

    def distance(r: dict[str, Any]) -> tuple[float, float, float, int]:
        lo, hi = r["balance"]["ci95"]
        return (abs(r["balance"]["rate"] - EVEN), r["draws"]["rate"], hi - lo, r["cell"])

    return int(min(candidates, key=distance)["cell"])


# -- plots ------------------------------------------------------------------------


def _plain(value: Any) -> str:
    """A swept value on a plot or in a table: words as they are, others as in TOML."""
    return value if isinstance(value, str) else show(value)


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def write_balance_plots(report: dict[str, Any], out: Path) -> list[Path]:
    """``win_rate_N.png`` for each swept parameter N; ``heatmap.png`` with two or more."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    sides = report["sides"]
    colours = {sides[0]: "#4c72b0", sides[1]: "#c44e52", "draws": "#8c8c8c"}
    written = []
    for n, axis in enumerate(report["axes"]):
        fig = Figure(figsize=(7.4, 3.8))
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        values = axis["values"]
        xs = list(values) if _numeric(values) else list(range(len(values)))
        for who in [*sides, "draws"]:
            rates = [p["draws"] if who == "draws" else p["wins"][who] for p in axis["per_value"]]
            mid = [r["rate"] for r in rates]
            ax.fill_between(
                xs, [r["ci95"][0] for r in rates], [r["ci95"][1] for r in rates],
                color=colours[who], alpha=0.18, linewidth=0,
            )  # fmt: skip
            label = "draws" if who == "draws" else f"{who} wins"
            ax.plot(xs, mid, marker="o", color=colours[who], label=label)
        ax.axhline(EVEN, color="#444444", linestyle=":", linewidth=1)
        ax.set_xticks(xs, [_plain(v) for v in values])
        ax.set_ylim(0, 1)
        ax.set_xlabel(axis["label"])
        ax.set_ylabel("share of games")
        others = [a["label"] for m, a in enumerate(report["axes"]) if m != n]
        pooled = f"\n(all values of {', '.join(others)} together)" if others else ""
        ax.set_title(f"Win rate against {axis['label']}{pooled}", fontsize=10)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        ax.text(
            0.99, 0.01, "bands: Wilson 95% intervals", transform=ax.transAxes,
            ha="right", va="bottom", fontsize=7, color="#555555",
        )  # fmt: skip
        fig.tight_layout()
        path = out / f"win_rate_{n}.png"
        fig.savefig(path, dpi=100)
        written.append(path)
    if len(report["axes"]) >= 2:
        written.append(_heatmap(report, out))
    return written


def _heatmap(report: dict[str, Any], out: Path) -> Path:
    """The first side's share of won games over the first two swept parameters."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    rows_axis, cols_axis = report["axes"][0], report["axes"][1]
    first = report["sides"][0]
    grid = np.full((len(rows_axis["values"]), len(cols_axis["values"])), np.nan)
    notes = [["" for _ in cols_axis["values"]] for _ in rows_axis["values"]]
    wins = {s: [[0] * len(cols_axis["values"]) for _ in rows_axis["values"]] for s in ("a", "n")}
    for cell in report["cells"]:
        i = _index(rows_axis["values"], cell["values"][0])
        j = _index(cols_axis["values"], cell["values"][1])
        wins["a"][i][j] += cell["balance"]["wins"]
        wins["n"][i][j] += cell["balance"]["games"]
    for i in range(len(rows_axis["values"])):
        for j in range(len(cols_axis["values"])):
            rate = rate_of(wins["a"][i][j], wins["n"][i][j])
            if rate["games"]:
                grid[i, j] = rate["rate"]
                lo, hi = rate["ci95"]
                notes[i][j] = f"{100 * rate['rate']:.0f}%\n{100 * lo:.0f}-{100 * hi:.0f}%"
            else:
                notes[i][j] = "no game\nwon"
    fig = Figure(figsize=(6.4, 4.6))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1, origin="lower", aspect="auto")
    for i, row in enumerate(notes):
        for j, text in enumerate(row):
            dark = not np.isnan(grid[i, j]) and abs(grid[i, j] - EVEN) > 0.3
            colour = "white" if dark else "black"  # readable on the deep ends of the scale
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color=colour)
    ax.set_xticks(range(len(cols_axis["values"])), [_plain(v) for v in cols_axis["values"]])
    ax.set_yticks(range(len(rows_axis["values"])), [_plain(v) for v in rows_axis["values"]])
    ax.set_xlabel(cols_axis["label"])
    ax.set_ylabel(rows_axis["label"])
    pooled = "" if len(report["axes"]) == 2 else " (pooled over the other parameters)"
    ax.set_title(f"{first}'s share of the games won, Wilson 95% CI{pooled}", fontsize=10)
    fig.colorbar(image, ax=ax, label=f"{first}'s share of won games")
    best = report["nearest_even"]
    if best is not None and len(report["axes"]) == 2:
        cell = report["cells"][best]
        i = _index(rows_axis["values"], cell["values"][0])
        j = _index(cols_axis["values"], cell["values"][1])
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, linewidth=2.5))
    fig.tight_layout()
    path = out / "heatmap.png"
    fig.savefig(path, dpi=100)
    return path


def _index(values: list[Any], value: Any) -> int:
    return next(k for k, v in enumerate(values) if _same(v, value))


# -- the pages ----------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """A heading (``level``), a paragraph, a table (``rows``) or an image (``image``)."""

    text: str = ""
    level: int = 0
    rows: tuple[tuple[str, ...], ...] = ()  # the first row is the header
    image: Path | None = None


def _ai_text(side: str, ai: dict[str, Any]) -> str:
    """``north normal (cautious), its guns where the scenario puts them``."""
    text = f"{side} {ai['level']}" + (f" ({ai['personality']})" if "personality" in ai else "")
    if "deploy_distance" not in ai:
        return text
    if ai["deploy_distance"] == 0:
        return f"{text}, its guns where the scenario puts them"
    return f"{text}, its guns {ai['deploy_distance']} sheets behind its edge"


def _pct(rate: dict[str, Any]) -> str:
    lo, hi = rate["ci95"]
    return f"{100 * rate['rate']:.0f}% ({100 * lo:.0f}-{100 * hi:.0f})"


def _cell_name(report: dict[str, Any], cell: dict[str, Any]) -> str:
    axes = report["axes"]
    return ", ".join(f"{a['label']} {_plain(v)}" for a, v in zip(axes, cell["values"], strict=True))


def _blocks(report: dict[str, Any], images: list[Path]) -> list[Block]:
    st = report["settings"]
    sides = report["sides"]
    first, second = sides
    ai = ", ".join(_ai_text(side, a) for side, a in st["ai"].items())
    blocks = [
        Block(f"Sweep: {st['name']}", level=1),
        Block(
            f"Scenario {st['scenario_name']} ({st['scenario']}), {st['games_per_cell']} games "
            f"per cell, {len(report['cells'])} cells, seed {st['seed']}; AI {ai}"
            + ("; levels swap sides every other game" if st["swap_sides"] else "")
            + f". Sweep file: {st['spec']}. Every cell plays the same game seeds."
        ),
    ]
    axes_rows = [("parameter", "key path", "values")]
    for a in report["axes"]:
        axes_rows.append(
            (a["label"], ", ".join(a["keys"]), ", ".join(show(v) for v in a["values"]))
        )
    blocks.append(Block(rows=tuple(axes_rows)))
    if st["fixed"]:
        fixed = "; ".join(f"{k} = {show(v)}" for k, v in st["fixed"].items())
        blocks.append(Block(f"Every cell also sets {fixed}."))
    blocks += [Block("Nearest to 50/50", level=2), Block(_even_text(report))]
    blocks.append(
        Block(
            "Win rates and draws are shares of a cell's games with Wilson 95% intervals in "
            f"brackets; balance is {first}'s share of the games that were won (draws left "
            "out). Other figures: mean ± 95% CI per game."
        )
    )
    label_cols = tuple(a["label"] for a in report["axes"])
    cells = [(*label_cols, "games", f"{first} wins", f"{second} wins", "draws", "balance", "turns")]
    for c in report["cells"]:
        cells.append(
            (
                *(_plain(v) for v in c["values"]),
                str(c["games"]),
                _pct(c["wins"][first]),
                _pct(c["wins"][second]),
                _pct(c["draws"]),
                _pct(c["balance"]) if c["balance"]["games"] else "no game won",
                show_mean(c["turns"]),
            )
        )
    blocks += [Block("Cells", level=2), Block(rows=tuple(cells))]
    by_name = {p.name: p for p in images}
    for n, axis in enumerate(report["axes"]):
        blocks.append(Block(f"By {axis['label']}", level=3))
        rows = [(axis["label"], "games", f"{first} wins", f"{second} wins", "draws", "turns")]
        for p in axis["per_value"]:
            rows.append(
                (
                    _plain(p["value"]),
                    str(p["games"]),
                    _pct(p["wins"][first]),
                    _pct(p["wins"][second]),
                    _pct(p["draws"]),
                    show_mean(p["turns"]),
                )
            )
        blocks.append(Block(rows=tuple(rows)))
        if f"win_rate_{n}.png" in by_name:
            blocks.append(
                Block(f"Win rate against {axis['label']}", image=by_name[f"win_rate_{n}.png"])
            )
    if "heatmap.png" in by_name:
        blocks += [Block("Balance map", level=2)]
        blocks.append(Block(f"{first}'s share of the games won", image=by_name["heatmap.png"]))
    endings = sorted({e for c in report["cells"] for e in c["endings"]})
    rows = [(*label_cols, *endings)]
    for c in report["cells"]:
        rows.append(
            (*(_plain(v) for v in c["values"]), *(str(c["endings"].get(e, 0)) for e in endings))
        )
    blocks += [Block("How games ended", level=2), Block(rows=tuple(rows))]
    header = [f"{s} {source}" for s in sides for source in ("artillery", "direct")]
    rows = [(*label_cols, *header)]
    for c in report["cells"]:
        rows.append(
            (
                *(_plain(v) for v in c["values"]),
                *(show_mean(c["damage"][s][src]) for s in sides for src in ("artillery", "direct")),
            )
        )
    blocks += [
        Block("Damage by source", level=2),
        Block(
            "Damage each side dealt to enemy units per game, by its artillery and by direct "
            "fire (mean ± 95% CI)."
        ),
        Block(rows=tuple(rows)),
    ]
    return blocks


def even_summary(report: dict[str, Any]) -> str:
    """The cell nearest 50/50 with its interval, in one sentence."""
    first = report["sides"][0]
    best = report["nearest_even"]
    if best is None:
        return "no game of any cell was won: every game was a draw."
    cell = report["cells"][best]
    lo, hi = cell["balance"]["ci95"]
    return (
        f"cell {best} ({_cell_name(report, cell)}): {first} won {cell['balance']['wins']} of "
        f"the {cell['balance']['games']} games that were won, "
        f"{100 * cell['balance']['rate']:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%); "
        f"draws {cell['draws']['wins']} of {cell['games']}."
    )


def _even_text(report: dict[str, Any]) -> str:
    text = even_summary(report)
    text = text[0].upper() + text[1:]
    best = report["nearest_even"]
    if best is None:
        return text
    others = [c for c in report["even_cells"] if c != best]
    if others:
        names = "; ".join(_cell_name(report, report["cells"][c]) for c in others)
        text += f" The intervals of {len(others)} more cells hold 50% too: {names}."
    elif best not in report["even_cells"]:
        text += " Its interval does not hold 50%: no cell of this grid is even."
    return text


def report_markdown(report: dict[str, Any], images: list[str]) -> str:
    """``report.md``: the blocks as Markdown, images by file name beside it."""
    lines: list[str] = []
    for b in _blocks(report, [Path(name) for name in images]):
        if b.level:
            lines += ["#" * b.level + " " + b.text, ""]
        elif b.rows:
            header, *body = b.rows
            lines.append("| " + " | ".join(header) + " |")
            lines.append("|" + " --- |" * len(header))
            lines += ["| " + " | ".join(row) + " |" for row in body]
            lines.append("")
        elif b.image is not None:
            lines += [f"![{b.text}]({b.image.name})", ""]
        else:
            lines += [b.text, ""]
    return "\n".join(lines)


_STYLE = """
body { font-family: sans-serif; max-width: 72em; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: right; }
th { background: #eee; }
td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; display: block; margin: 0.5em 0 1.5em; }
"""


def report_html(report: dict[str, Any], images: list[Path]) -> str:
    """``report.html``: one page with no outside files: the plots are inside as PNG data."""
    title = html.escape(f"Sweep: {report['settings']['name']}")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{title}</title><style>{_STYLE}</style></head><body>",
    ]
    for b in _blocks(report, images):
        if b.level:
            parts.append(f"<h{b.level}>{html.escape(b.text)}</h{b.level}>")
        elif b.rows:
            header, *body = b.rows
            cols = "".join(f"<th>{html.escape(h)}</th>" for h in header)
            parts.append(f"<table><tr>{cols}</tr>")
            for row in body:
                parts.append("<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in row) + "</tr>")
            parts.append("</table>")
        elif b.image is not None:
            data = base64.b64encode(b.image.read_bytes()).decode("ascii")
            alt = html.escape(b.text)
            parts.append(f'<img alt="{alt}" src="data:image/png;base64,{data}">')
        else:
            parts.append(f"<p>{html.escape(b.text)}</p>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
