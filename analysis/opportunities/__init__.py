"""What to do next, in numbers: the opportunities queue and when each watched keyword becomes winnable.
Pure (frames in, frames, typed answers and figures out), backtested by ``bench/winnable_backtest.py``.

- ``score``: per keyword the position, volume, the top 10's DR against the site's, the clicks reaching
  the target position would bring under the team's CTR curve, and the opportunity score with its parts;
  ``labels``: those columns as a page labels them.
- ``winnable``: the site's DR trend against the top 10's (Theil–Sen lines with their bands) and the
  month they cross; ``series``: the series it fits, from the history's frames; ``words``: its
  sentence; ``charts``: its figure; ``outlook``: every watched keyword's projections and their table.
"""

from analysis.opportunities.charts import winnable_chart
from analysis.opportunities.labels import OPPORTUNITY_LABELS, labelled
from analysis.opportunities.outlook import OUTLOOK_COLUMNS, Outlook, outlook_table, outlooks
from analysis.opportunities.score import (
    OPPORTUNITY_COLUMNS,
    STRIKING_DISTANCE,
    TARGET_POSITION,
    filter_opportunities,
    opportunity_rows,
    score_opportunities,
)
from analysis.opportunities.series import site_dr_series, top10_dr_series
from analysis.opportunities.winnable import Projection, Trend, project, theil_sen
from analysis.opportunities.words import answer_words, projection_dates, projection_words

__all__ = [
    "OPPORTUNITY_COLUMNS",
    "OPPORTUNITY_LABELS",
    "OUTLOOK_COLUMNS",
    "STRIKING_DISTANCE",
    "TARGET_POSITION",
    "Outlook",
    "Projection",
    "Trend",
    "answer_words",
    "filter_opportunities",
    "labelled",
    "opportunity_rows",
    "outlook_table",
    "outlooks",
    "project",
    "projection_dates",
    "projection_words",
    "score_opportunities",
    "site_dr_series",
    "theil_sen",
    "top10_dr_series",
    "winnable_chart",
]
