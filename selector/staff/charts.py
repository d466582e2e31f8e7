"""Server-side SVG bar charts: geometry computed here, markup in
templates/staff/_bar_chart.svg.html (presentation attributes and CSS classes only, no
inline styles, no scripts, no external hosts). Every chart has its numbers in a table
beside it, so the SVG is aria-hidden decoration."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 480
BAR_GAP = 6


@dataclass(frozen=True)
class Bar:
    label: str
    value: int
    x: float
    y: float
    width: float
    height: float
    text_x: float
    text_y: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    bars: tuple[Bar, ...]
    horizontal: bool


def horizontal_bars(items: list[tuple[str, int]], *, row: int = 26,
                    label_width: int = 130) -> Chart:
    """One bar per row, label on the left, value at the end of the bar."""
    top = max((v for _l, v in items), default=0) or 1
    span = WIDTH - label_width - 60
    bars = []
    for i, (label, value) in enumerate(items):
        width = span * value / top
        y = i * row + BAR_GAP / 2
        bars.append(Bar(str(label), value, label_width, y, round(width, 1), row - BAR_GAP,
                        round(label_width + width + 4, 1), y + (row - BAR_GAP) * 0.75))
    return Chart(WIDTH, max(row * len(items), row), tuple(bars), True)


def vertical_bars(items: list[tuple[str, int]], *, height: int = 160) -> Chart:
    """Columns (e.g. leads per week); labels are in the table beside the chart."""
    top = max((v for _l, v in items), default=0) or 1
    count = max(len(items), 1)
    slot = WIDTH / count
    bars = []
    for i, (label, value) in enumerate(items):
        h = (height - 16) * value / top
        x = i * slot + 1
        bars.append(Bar(str(label), value, round(x, 1), round(height - h, 1),
                        round(max(slot - 2, 1), 1), round(h, 1), round(x + slot / 2, 1),
                        round(height - h - 3, 1)))
    return Chart(WIDTH, height, tuple(bars), False)
