"""Where an alert's evidence is drawn: the History page's query parameters for a chart and subject.

The History page reads exactly these names (``history_domain``, ``history_keyword``, ``history_tab``)
and tab titles; the app has a test that they agree with its own constants. Pure, no Streamlit.
"""

from __future__ import annotations

from urllib.parse import urlencode

HISTORY_PATH = "history"
DOMAIN_PARAM = "history_domain"
KEYWORD_PARAM = "history_keyword"
TAB_PARAM = "history_tab"
#: Chart kind -> (the parameter naming the subject, the History tab that draws it).
CHARTS: dict[str, tuple[str, str]] = {
    "domain": (DOMAIN_PARAM, "Domain trends"),
    "keyword": (KEYWORD_PARAM, "Keyword positions"),
    "trust_map": (DOMAIN_PARAM, "Trust Map churn"),
}


def chart_query(chart: str, subject: str) -> dict[str, str]:
    """The History page's query parameters that open ``chart`` on ``subject``."""
    if chart not in CHARTS:
        raise ValueError(f"an alert's chart is one of {', '.join(CHARTS)}, not {chart!r}")
    param, tab = CHARTS[chart]
    return {param: subject, TAB_PARAM: tab}


def chart_url(dashboard_url: str, chart: str, subject: str) -> str:
    """The full link to the chart, e.g. ``http://localhost:8501/history?history_domain=a.com&…``."""
    return f"{dashboard_url.rstrip('/')}/{HISTORY_PATH}?{urlencode(chart_query(chart, subject))}"
