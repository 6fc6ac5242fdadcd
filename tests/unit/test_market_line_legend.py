"""The legend of the Market page's and the report's visibility and share-of-voice lines: a domain at 0 %
all period lies on the axis under the others, so the legend names such domains in one entry rather
than listing colours nobody can find on the chart."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from analysis.figures.market_charts import share_over_time_chart, visibility_chart

DAYS = pd.date_range("2026-10-01", periods=5)


def _lines(shares: dict[str, list[float]]) -> pd.DataFrame:
    rows = [
        (day, domain, value, value)
        for domain, values in shares.items()
        for day, value in zip(DAYS, values, strict=True)
    ]
    return pd.DataFrame(rows, columns=["day", "domain", "visibility", "share_of_voice"])


def _legend(fig: go.Figure) -> list[str]:
    return [trace.name for trace in fig.data if trace.showlegend is not False]


def test_domains_at_zero_all_period_share_one_legend_entry_and_keep_their_hover() -> None:
    lines = _lines(
        {
            "own.com": [20, 20, 25, 25, 20],
            "rises.com": [0, 0, 0, 5, 5],
            "a.com": [0, 0, 0, 0, 0],
            "b.com": [0, 0, 0, 0, 0],
        }
    )
    domains = ["own.com", "rises.com", "a.com", "b.com"]
    for fig in (visibility_chart(lines, domains), share_over_time_chart(lines, domains)):
        assert _legend(fig) == ["own.com", "rises.com", "0 % all period: a.com, b.com"]
        drawn = {trace.name: trace for trace in fig.data}
        assert "a.com" in drawn["a.com"].hovertemplate and list(drawn["b.com"].y) == [0.0] * 5


def test_without_a_domain_at_zero_the_legend_lists_every_domain() -> None:
    lines = _lines({"own.com": [20, 20, 25, 25, 20], "rises.com": [0, 0, 0, 5, 5]})
    assert _legend(visibility_chart(lines, ["own.com", "rises.com"])) == ["own.com", "rises.com"]
