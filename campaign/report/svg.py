"""A report's chart as SVG text: a step line per series over the campaign's moments, its legend beside it.

Drawn here rather than by matplotlib (which ``campaign chart`` uses for its files) because a report embeds its
charts in Markdown and HTML and the page serves it: a few kilobytes of plain SVG with no fonts or ids of its own,
the same bytes for the same campaign, drawn in milliseconds and without loading a plotting library into the
server. Colours are told apart in print too (each series also has its own dash pattern).
"""

from __future__ import annotations

from html import escape

from campaign.report.story import Chart

COLOURS = ("#1f5f8b", "#b5471b", "#2e7d32", "#7b3f98", "#b8860b", "#00838f", "#ad1457", "#5d4037")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "4 4", "1 2", "10 4", "3 1")
WIDTH, HEIGHT = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 190, 30, 78


def chart_svg(chart: Chart) -> str:
    """``chart`` as a standalone ``<svg>`` element (scales to its container's width)."""
    values = [v for _, series in chart.series for v in series if v is not None]
    low, high = (min(values), max(values)) if values else (0, 1)
    if chart.levels:
        low, high = 1, max(len(chart.levels), high)
    if low == high:
        low, high = low - 1, high + 1
    steps = max(1, len(chart.labels) - 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / steps

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(chart.title)}" font-family="sans-serif" font-size="11">',
        f"<title>{escape(chart.title)}</title>",
        f'<text x="{LEFT}" y="18" font-size="13" font-weight="bold">{escape(chart.title)} '
        f'<tspan font-weight="normal" fill="#555">({escape(chart.axis)})</tspan></text>',
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#999"/>',
    ]
    for tick, label in _ticks(low, high, chart.levels):
        out.append(f'<line x1="{LEFT}" y1="{y(tick):.1f}" x2="{LEFT + plot_w}" y2="{y(tick):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 4}" y="{y(tick) + 4:.1f}" text-anchor="end">{escape(label)}</text>')
    shown = _labelled(chart.labels)
    for i, label in enumerate(chart.labels):
        if i in shown:
            out.append(
                f'<text transform="translate({x(i):.1f} {TOP + plot_h + 12}) rotate(35)" font-size="10">'
                f"{escape(label)}</text>"
            )
    for n, (name, series) in enumerate(chart.series):
        colour, dash = COLOURS[n % len(COLOURS)], DASHES[(n // len(COLOURS) + n) % len(DASHES)]
        for run in _runs(series):
            points: list[str] = []
            previous: int | None = None
            for i in run:
                value = series[i]
                assert value is not None
                if previous is not None:
                    points.append(f"{x(i):.1f},{y(previous):.1f}")  # a step: level to here, then up or down
                points.append(f"{x(i):.1f},{y(value):.1f}")
                previous = value
            if len(run) == 1:
                i = run[0]
                out.append(f'<circle cx="{x(i):.1f}" cy="{y(series[i] or 0):.1f}" r="3" fill="{colour}"/>')
            else:
                dashed = f' stroke-dasharray="{dash}"' if dash else ""
                out.append(
                    f'<polyline points="{" ".join(points)}" fill="none" stroke="{colour}" stroke-width="2"{dashed}/>'
                )
        ly = TOP + 14 * n + 8
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<line x1="{WIDTH - RIGHT + 12}" y1="{ly}" x2="{WIDTH - RIGHT + 36}" y2="{ly}" stroke="{colour}" '
            f'stroke-width="2"{dashed}/>'
        )
        out.append(f'<text x="{WIDTH - RIGHT + 42}" y="{ly + 4}">{escape(_cut(name, 24))}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _ticks(low: float, high: float, levels: tuple[str, ...]) -> list[tuple[float, str]]:
    if levels:
        return [(i + 1, level) for i, level in enumerate(levels)]
    span = high - low
    # the finest of 1, 2, 5 × 10ⁿ that draws six lines at most
    step = next(float(c * 10**k) for k in range(12) for c in (1, 2, 5) if span / (c * 10**k) <= 6)
    first = (low // step) * step
    ticks = []
    value = first
    while value <= high + 1e-9:
        if value >= low - 1e-9:
            ticks.append((value, f"{int(value):,}"))
        value += step
    return ticks


def _labelled(labels: tuple[str, ...]) -> set[int]:
    """Which steps get their label under the axis: each new label (a battle's end, a new day), at most ~14."""
    picked = [i for i, label in enumerate(labels) if label and (i == 0 or label != labels[i - 1])]
    if len(picked) > 14:
        ends = [i for i in picked if labels[i].startswith("end of")]
        every = max(1, len(picked) // 14)
        picked = sorted(set(ends) | set(picked[::every]))
    return set(picked)


def _runs(series: tuple[int | None, ...]) -> list[list[int]]:
    """The stretches of steps at which a series has values (a unit mustered later, or gone, leaves gaps)."""
    runs: list[list[int]] = []
    for i, v in enumerate(series):
        if v is None:
            continue
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
