"""A report's charts drawn once for the whole deployment: looked up in the history store by the digest
of what they are drawn from, drawn by the process's renderer only when no process drew them before.

A browser takes seconds to start, in each app process and each command; a share link opened on a
replica that never drew that report, or the Reports page after a restart, would otherwise wait for one.
The digest covers the figure (its data, layout and text) and its size, so a changed history is a new
chart, never a stale one. When the store cannot be read or written, the chart is drawn as if nothing
were kept: a report never fails for its keeping.
"""

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from store.engine import StoreUnavailable

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from store.reports.charts import ReportCharts
    from store.reports.period import Period


class DrawsCharts(Protocol):
    def svg(self, figure: go.Figure, width: int, height: int) -> str: ...


def drawing_digest(figure: go.Figure, width: int, height: int) -> str:
    """What a chart is kept under: the same figure at the same size is the same chart."""
    return hashlib.sha256(f"{width}x{height}:{figure.to_json()}".encode()).hexdigest()


@dataclass(frozen=True)
class KeptDrawings:
    """``renderer``, behind the account's charts kept in the store."""

    renderer: DrawsCharts
    kept: ReportCharts
    account: str
    site: str
    period: Period

    def svg(self, figure: go.Figure, width: int, height: int) -> str:
        digest = drawing_digest(figure, width, height)
        try:
            found = self.kept.drawn(self.account, digest)
        except StoreUnavailable:
            found = None
        if found is not None:
            return found
        drawn = self.renderer.svg(figure, width, height)
        with contextlib.suppress(StoreUnavailable):
            self.kept.keep(self.account, self.site, self.period, digest, drawn)
        return drawn
