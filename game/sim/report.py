"""The summary of a run (JSON and Markdown) and its plots (PNG).

Win rates carry Wilson 95% intervals; every other figure is a mean with its
95% confidence interval. Plots use matplotlib's Agg backend, imported only
when a plot is drawn; the impact heatmap is drawn over the scenario's starting
play area through ``game.lattice``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from game.sim.stats import mean_interval, wilson_interval

SUMMARY_VERSION = 1


def rate_of(wins: int, games: int) -> dict[str, Any]:
    """A share of games with its Wilson 95% interval, as the summaries write it."""
    lo, hi = wilson_interval(wins, games)
    return {
        "wins": wins,
        "games": games,
        "rate": wins / games if games else 0.0,
        "ci95": [round(lo, 6), round(hi, 6)],
    }


def mean_of(values: list[float]) -> dict[str, float]:
    """A mean with the half-width of its 95% confidence interval."""
    m, half = mean_interval(values)
    return {"mean": round(m, 6), "ci95": round(half, 6), "n": len(values)}


def summarize(records: list[dict[str, Any]], settings: dict[str, Any]) -> dict[str, Any]:
    """Summary figures of a run's game records (sorted by game index)."""
    n = len(records)
    sides = list(records[0]["levels"]) if records else []
    by_side = {s: rate_of(sum(1 for r in records if r["winner"] == s), n) for s in sides}
    draws = rate_of(sum(1 for r in records if r["winner"] is None), n)
    levels = sorted({lv for r in records for lv in r["levels"].values()})
    by_level = {}
    for lv in levels:
        played = [r for r in records if lv in r["levels"].values()]
        mirror = [r for r in played if set(r["levels"].values()) == {lv}]
        wins = sum(1 for r in played if r["winner_level"] == lv and r not in mirror)
        by_level[lv] = rate_of(wins, len(played) - len(mirror))
    reasons = Counter(r["reason"] for r in records)
    figures: dict[str, Any] = {"turns": mean_of([r["turns"] for r in records])}
    figures["commands"] = mean_of([r["commands"] for r in records])
    figures["sheets_added"] = mean_of([r["sheets_added"] for r in records])
    for s in sides:
        per = {
            "damage_artillery": [r["damage"][s]["artillery"] for r in records],
            "damage_direct": [r["damage"][s]["direct"] for r in records],
            "shells_fired": [r["shells"][s]["fired"] for r in records],
            "shells_hit": [r["shells"][s]["hit"] for r in records],
            "shells_scattered": [r["shells"][s]["scattered"] for r in records],
            "shells_lost": [r["shells"][s]["lost"] for r in records],
            "detections": [r["detections"][s] for r in records],
            "batteries_found": [r["batteries"][s]["found"] for r in records],
            "batteries_destroyed": [r["batteries"][s]["destroyed"] for r in records],
            "units_lost": [r["units_lost"][s] for r in records],
        }
        figures[s] = {k: mean_of([float(v) for v in vals]) for k, vals in per.items()}
    return {
        "version": SUMMARY_VERSION,
        "settings": settings,
        "games": n,
        "wins_by_side": by_side,
        "wins_by_level": by_level,
        "draws": draws,
        "reasons": dict(sorted(reasons.items())),
        "figures": figures,
    }


def show_rate(rate: dict[str, Any]) -> str:
    """``80.0% (8/10; 95% CI 49.0-94.3%)``."""
    lo, hi = rate["ci95"]
    share = f"{100 * rate['rate']:.1f}% ({rate['wins']}/{rate['games']}"
    return f"{share}; 95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"


def show_mean(f: dict[str, float]) -> str:
    """``12.30 ± 1.05``."""
    return f"{f['mean']:.2f} ± {f['ci95']:.2f}"


def summary_markdown(summary: dict[str, Any]) -> str:
    """The summary as a Markdown report."""
    st = summary["settings"]
    lines = [
        f"# Simulation: {st.get('scenario_name') or st['scenario']}",
        "",
        f"{summary['games']} games, seed {st['seed']}, "
        + ", ".join(f"{s} {lv}" for s, lv in st["levels"].items())
        + (" (levels swap sides every other game)" if st.get("swap_sides") else ""),
        "",
        "## Results",
        "",
        "| who | wins |",
        "| --- | --- |",
    ]
    for side, rate in summary["wins_by_side"].items():
        lines.append(f"| {side} | {show_rate(rate)} |")
    if st.get("swap_sides"):
        for lv, rate in summary["wins_by_level"].items():
            lines.append(f"| level {lv} | {show_rate(rate)} |")
    lines.append(f"| draws | {show_rate(summary['draws'])} |")
    lines += ["", "Win rates: Wilson 95% intervals. Other figures: mean ± 95% CI.", ""]
    lines += ["## How games ended", "", "| reason | games |", "| --- | --- |"]
    for reason, count in summary["reasons"].items():
        lines.append(f"| {reason} | {count} |")
    figs = summary["figures"]
    lines += [
        "",
        "## Figures",
        "",
        f"- turns: {show_mean(figs['turns'])}",
        f"- commands: {show_mean(figs['commands'])}",
        f"- sheets added: {show_mean(figs['sheets_added'])}",
        "",
    ]
    sides = list(summary["wins_by_side"])
    if sides:
        lines += ["| per game | " + " | ".join(sides) + " |", "| --- |" + " --- |" * len(sides)]
        for key in figs[sides[0]]:
            row = " | ".join(show_mean(figs[s][key]) for s in sides)
            lines.append(f"| {key.replace('_', ' ')} | {row} |")
    lines.append("")
    return "\n".join(lines)


def write_plots(
    records: list[dict[str, Any]], summary: dict[str, Any], scenario: str, out: Path
) -> list[Path]:
    """impacts.png (heatmap over the starting area), win_rates.png, game_length.png."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from game.lattice import overview_png
    from game.scenario import load_scenario

    written: list[Path] = []
    area = load_scenario(scenario).build_area()
    counts = np.zeros(len(area), dtype=np.float64)
    for r in records:
        for q, rr in r["impacts"]:
            i = area.index_of((q, rr))
            if i >= 0:
                counts[i] += 1
    written.append(
        overview_png(
            area,
            out / "impacts.png",
            values=counts,
            title=f"Shell impacts over {len(records)} games (starting area)",
            cmap="inferno",
            value_label="shells landed",
        )
    )
    fig = Figure(figsize=(6, 3.5))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    names = [*summary["wins_by_side"], "draw"]
    rates = [*summary["wins_by_side"].values(), summary["draws"]]
    if summary["settings"].get("swap_sides"):
        names = [f"level {k}" for k in summary["wins_by_level"]] + ["draw"]
        rates = [*summary["wins_by_level"].values(), summary["draws"]]
    mids = [r["rate"] for r in rates]
    errs = np.array(
        [[r["rate"] - r["ci95"][0] for r in rates], [r["ci95"][1] - r["rate"] for r in rates]]
    )
    ax.bar(names, mids, yerr=errs, capsize=6, color="#4c72b0")
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games (Wilson 95% CI)")
    ax.set_title("Win rates")
    fig.tight_layout()
    fig.savefig(out / "win_rates.png", dpi=100)
    written.append(out / "win_rates.png")
    fig = Figure(figsize=(6, 3.5))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    turns = [r["turns"] for r in records]
    ax.hist(turns, bins=range(1, max(turns, default=1) + 2), color="#55a868", align="left")
    ax.set_xlabel("turns played")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    fig.tight_layout()
    fig.savefig(out / "game_length.png", dpi=100)
    written.append(out / "game_length.png")
    return written
