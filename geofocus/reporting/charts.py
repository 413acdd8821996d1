"""The report's charts, drawn with matplotlib's Agg backend into PNG files.

Each function takes plain data (labels, points, counts) and a path, and writes one PNG; no
network, no fonts beyond matplotlib's bundled ones.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # before pyplot: no display, no GUI toolkit
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

Series = Sequence[tuple[float, float]]

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#7f7f7f", "#bcbd22"]


def colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


def _save(fig, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def line_chart(curves: Sequence[tuple[str, Series]], path: Path, title: str, xlabel: str,
               ylabel: str, percent: bool = False) -> Path:
    """One line per (label, points), all on one chart."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for i, (label, points) in enumerate(curves):
        if not points:
            continue
        xs = [p[0] for p in points]
        ys = [p[1] * (100 if percent else 1) for p in points]
        ax.plot(xs, ys, label=label, color=colour(i), linewidth=1.8)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel + (" (%)" if percent else ""))
    ax.grid(True, alpha=0.3)
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    if any(points for _, points in curves):
        ax.legend(loc="best", fontsize=9)
    else:
        ax.text(0.5, 0.5, "no pages", ha="center", va="center", transform=ax.transAxes)
    return _save(fig, path)


def distance_charts(panels: Sequence[tuple[str, str, Sequence[tuple[str, Mapping[int, int]]]]],
                    path: Path, max_value: int = 15) -> Path:
    """Grouped bar charts side by side: (title, xlabel, [(run label, {value: count})]).

    Values above ``max_value`` are gathered in one last bar labelled ">max".
    """
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4), squeeze=False)
    for ax, (title, xlabel, groups) in zip(axes[0], panels, strict=True):
        n = max(len(groups), 1)
        width = 0.8 / n
        top = 0
        for i, (label, counts) in enumerate(groups):
            folded: dict[int, int] = {}
            for value, count in counts.items():
                key = min(int(value), max_value + 1)
                folded[key] = folded.get(key, 0) + count
            top = max([top, *folded])
            xs = sorted(folded)
            ax.bar([x - 0.4 + width * (i + 0.5) for x in xs], [folded[x] for x in xs],
                   width=width, color=colour(i), label=label)
        ticks = list(range(0, top + 1))
        ax.set_xticks(ticks)
        ax.set_xticklabels([f">{max_value}" if t > max_value else str(t) for t in ticks],
                           fontsize=8)
        ax.set_title(title, fontsize=11)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("pages")
        ax.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.grid(True, axis="y", alpha=0.3)
        if not any(counts for _, counts in groups):
            ax.text(0.5, 0.5, "none", ha="center", va="center", transform=ax.transAxes)
        elif len(groups) > 1:
            ax.legend(fontsize=8)
    return _save(fig, path)


def series_chart(runs: Sequence[tuple[str, Sequence[Mapping]]], path: Path) -> Path:
    """Pages per second and frontier size over pages fetched, from series.jsonl lines."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 3.8))
    for i, (label, lines) in enumerate(runs):
        pts = [(x.get("fetched"), x.get("pages_per_second")) for x in lines]
        pts = [(a, b) for a, b in pts if isinstance(a, (int, float)) and isinstance(b, (int, float))]
        if pts:
            left.plot([a for a, _ in pts], [b for _, b in pts], color=colour(i), label=label)
        pts = [(x.get("fetched"), x.get("frontier_size")) for x in lines]
        pts = [(a, b) for a, b in pts if isinstance(a, (int, float)) and isinstance(b, (int, float))]
        if pts:
            right.plot([a for a, _ in pts], [b for _, b in pts], color=colour(i), label=label)
    for ax, title, ylabel in ((left, "Throughput", "pages per second"),
                              (right, "Frontier", "queued URLs")):
        ax.set_title(title)
        ax.set_xlabel("pages fetched")
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        if ax.lines:
            ax.legend(fontsize=8)
        else:
            ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes)
    return _save(fig, path)


def address_map(
    layers: Sequence[tuple[str, Sequence[tuple[float, float]]]],
    path: Path,
    bbox: tuple[float, float, float, float] | None,
    landmarks: Sequence[tuple[str, float, float]] = (),
    reference: Sequence[tuple[str, float, float]] = (),
    title: str = "",
    max_labels: int = 15,
) -> Path:
    """A map of address points without any tile server.

    ``layers``: (label, [(lon, lat)]) drawn in turn, later layers smaller so that points
    found by several runs stay visible. ``bbox`` (min_lon, min_lat, max_lon, max_lat), from
    the region pack, frames the map (widened to include every point); ``landmarks`` are
    labelled places (cities, the most important first: only the first ``max_labels`` get a
    label), ``reference`` faint points (postcode centres), labelled when there are few.
    """
    points = [p for _, pts in layers for p in pts]
    if bbox is None and points:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        bbox = (min(xs), min(ys), max(xs), max(ys))
    if bbox is None:
        bbox = (0.0, 0.0, 1.0, 1.0)
    min_lon, min_lat, max_lon, max_lat = bbox
    for lon, lat in points:
        min_lon, max_lon = min(min_lon, lon), max(max_lon, lon)
        min_lat, max_lat = min(min_lat, lat), max(max_lat, lat)
    pad_x = (max_lon - min_lon) * 0.05 or 0.01
    pad_y = (max_lat - min_lat) * 0.05 or 0.01
    fig, ax = plt.subplots(figsize=(10, 8))
    ax.set_facecolor("#f3f1ea")
    ax.add_patch(matplotlib.patches.Rectangle(
        (bbox[0], bbox[1]), bbox[2] - bbox[0], bbox[3] - bbox[1], fill=False,
        edgecolor="#999999", linestyle="--", linewidth=1, label="region"))
    if reference:
        few = len(reference) <= max_labels * 3
        ax.scatter([r[1] for r in reference], [r[2] for r in reference], marker="+",
                   color="#aaaaaa", s=40 if few else 4, linewidths=0.8, zorder=1)
        for name, lon, lat in reference if few else ():
            ax.annotate(name, (lon, lat), xytext=(3, 3), textcoords="offset points", fontsize=7,
                        color="#888888")
    if landmarks:
        # A few places are landmarks; many (a region set) are background for the addresses.
        few = len(landmarks) <= max_labels
        ax.scatter([m[1] for m in landmarks], [m[2] for m in landmarks], marker="s",
                   color="#333333" if few else "#999999", s=30 if few else 6, zorder=2)
        for name, lon, lat in landmarks[: max_labels if few else max_labels // 2]:
            ax.annotate(name, (lon, lat), xytext=(6, 6), textcoords="offset points",
                        fontsize=10 if few else 7, fontweight="bold" if few else "normal",
                        color="#333333" if few else "#777777", alpha=0.8, zorder=2)
    n = len(layers)
    for i, (label, pts) in enumerate(layers):
        if not pts:
            continue
        size = 60 - 40 * i / max(n - 1, 1) if n > 1 else 40
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=size, color=colour(i),
                   alpha=0.75, edgecolors="white", linewidths=0.5,
                   label=f"{label} ({len(pts)})", zorder=3 + i)
    ax.set_xlim(min_lon - pad_x, max_lon + pad_x)
    ax.set_ylim(min_lat - pad_y, max_lat + pad_y)
    # Equirectangular with the right aspect at this latitude, so the region is not squashed.
    mid_lat = (min_lat + max_lat) / 2
    ax.set_aspect(1 / max(math.cos(math.radians(mid_lat)), 0.05))
    ax.set_xlabel("longitude")
    ax.set_ylabel("latitude")
    ax.grid(True, alpha=0.2)
    if title:
        ax.set_title(title)
    if points:
        ax.legend(loc="upper right", fontsize=8)
    else:
        ax.text(0.5, 0.5, "no located addresses", ha="center", va="center",
                transform=ax.transAxes)
    return _save(fig, path)
