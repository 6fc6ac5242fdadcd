"""A chart renderer for the report tests that counts the charts it is asked to draw (the process's own
renderer draws them), so a test can tell a chart drawn from one read back."""

from __future__ import annotations

import plotly.graph_objects as go

from services.reports.render import shared_renderer


class CountingRenderer:
    """The process's renderer, its charts counted."""

    def __init__(self) -> None:
        self.drawn = 0

    def svg(self, figure: go.Figure, width: int, height: int) -> str:
        self.drawn += 1
        return shared_renderer().svg(figure, width, height)
