"""The one link schema: the paths of the pages other places link to (History, Market, Alerts,
Opportunities), the History, Market and Opportunities pages' query parameter names and linked tab
titles, and the builder of a chart's link with its subject and an alert's evidence (behind the Alerts
page's Chart link, the webhook, the digest, the reports and every "History of …" link on the pages).

A link opens the chart on the alert's window, from the day before the rule's earlier snapshot (the
"before" point) to the alert's day (the "after" point), with the metric of a domain chart, the
referring domain of a Trust Map alert or the site a keyword is measured for. The pages (the page
registry, the History and Market tabs, the code that reads a link) import these names; none spells them.
Alerts found before the store kept the earlier day (revision 0006) get the rule's usual comparison.
Pure, no Streamlit.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any
from urllib.parse import urlencode

import pandas as pd

HISTORY_PATH = "history"
MARKET_PATH = "market"
ALERTS_PATH = "alerts"
DOMAIN_PARAM = "history_domain"
KEYWORD_PARAM = "history_keyword"
TAB_PARAM = "history_tab"
SITE_PARAM = "history_site"
METRIC_PARAM = "history_metric"
REFERRING_PARAM = "history_referring_domain"
FROM_PARAM = "history_from"
TO_PARAM = "history_to"
BEFORE_PARAM = "history_before"
#: The parameters a link's subject travels under, and those carrying an alert's evidence.
SUBJECT_PARAMS = (DOMAIN_PARAM, KEYWORD_PARAM, SITE_PARAM)
EVIDENCE_PARAMS = (FROM_PARAM, TO_PARAM, BEFORE_PARAM, METRIC_PARAM, REFERRING_PARAM)
#: The History tabs a link opens (the History page names its tabs with these).
DOMAIN_TAB = "Domain trends"
KEYWORD_TAB = "Keyword positions"
CHURN_TAB = "Trust Map churn"
#: Chart kind -> (the parameter naming the subject, the History tab that draws it).
CHARTS: dict[str, tuple[str, str]] = {
    "domain": (DOMAIN_PARAM, DOMAIN_TAB),
    "keyword": (KEYWORD_PARAM, KEYWORD_TAB),
    "trust_map": (DOMAIN_PARAM, CHURN_TAB),
}
#: The Market page's charts: kind -> its tab. The subject is the own site; the evidence's ``metric``
#: is the keyword group, and the window the two days compared.
MARKET_SITE_PARAM = "market_site"
MARKET_TAB_PARAM = "market_tab"
MARKET_GROUP_PARAM = "market_group"
MARKET_FROM_PARAM = "market_from"
MARKET_TO_PARAM = "market_to"
MARKET_CHARTS: dict[str, str] = {"market": "Visibility", "market_churn": "Top-10 churn"}
#: The Opportunities page: the own site its list is for and the target position its clicks are counted
#: at, kept in its address (``/opportunities?site=example.com&target=3``).
OPPORTUNITIES_PATH = "opportunities"
OPPORTUNITIES_SITE_PARAM = "site"
OPPORTUNITIES_TARGET_PARAM = "target"
#: How far back an alert stored without its earlier day usually compared (the weekly rules a week, the
#: others the day before); a Trust Map rule is left to the page, which takes the map before the day.
USUAL_SINCE: dict[str, timedelta] = {
    "authority_drop": timedelta(days=7),
    "referring_domains_fell": timedelta(days=7),
    "traffic_validation_lost": timedelta(days=1),
    "verification_lost": timedelta(days=1),
    "keyword_left_top10": timedelta(days=1),
    "keyword_moved": timedelta(days=1),
}
#: The metric of a domain rule's alert stored without one.
USUAL_METRIC: dict[str, str] = {
    "authority_drop": "dr",
    "referring_domains_fell": "referring_domains",
    "traffic_validation_lost": "traffic_validated",
    "verification_lost": "verified",
}


@dataclass(frozen=True)
class Evidence:
    """What a chart link marks: ``day``, the alert's (the "after" point and the window's last day);
    ``since``, the earlier snapshot it was compared with (the "before" point; the window starts the day
    before it); the domain chart's ``metric``, a Trust Map alert's ``referring_domain``, and the
    ``site`` a keyword is measured for (a tracked site's slug or a watched keyword's domain)."""

    day: date
    since: date | None = None
    metric: str | None = None
    referring_domain: str | None = None
    site: str | None = None

    @property
    def start(self) -> date | None:
        """The window's first day: the day before the comparison's earlier snapshot."""
        return None if self.since is None else self.since - timedelta(days=1)


def chart_path(chart: str) -> str:
    """The page that draws ``chart``: History, or Market for the market view's charts."""
    return MARKET_PATH if chart in MARKET_CHARTS else HISTORY_PATH


def _market_query(chart: str, site: str, evidence: Evidence | None) -> dict[str, str]:
    query = {MARKET_SITE_PARAM: site, MARKET_TAB_PARAM: MARKET_CHARTS[chart]}
    if evidence is not None:
        if evidence.metric:
            query[MARKET_GROUP_PARAM] = evidence.metric
        if evidence.since is not None and evidence.since < evidence.day:
            query[MARKET_FROM_PARAM] = evidence.since.isoformat()
        query[MARKET_TO_PARAM] = evidence.day.isoformat()
    return query


def subject_param(chart: str) -> str:
    """The query parameter naming the subject of a History ``chart`` ("domain", "keyword", …)."""
    return CHARTS[chart][0]


def history_query(chart: str, subject: str, *, site: str | None = None) -> dict[str, str]:
    """The query parameters of a link to the History page on ``subject`` (a keyword with its ``site``)."""
    query = chart_query(chart, subject)
    if chart == "keyword" and site:
        query[SITE_PARAM] = site
    return query


def chart_query(chart: str, subject: str, evidence: Evidence | None = None) -> dict[str, str]:
    """The query parameters that open ``chart`` on ``subject`` (and on the evidence), on its page."""
    if chart in MARKET_CHARTS:
        return _market_query(chart, subject, evidence)
    if chart not in CHARTS:
        raise ValueError(f"an alert's chart is one of {', '.join([*CHARTS, *MARKET_CHARTS])}, not {chart!r}")
    param, tab = CHARTS[chart]
    query = {param: subject, TAB_PARAM: tab}
    if evidence is None:
        return query
    if evidence.since is not None and evidence.since < evidence.day:
        query[FROM_PARAM] = str(evidence.start)
        query[BEFORE_PARAM] = evidence.since.isoformat()
    query[TO_PARAM] = evidence.day.isoformat()
    if chart == "domain" and evidence.metric:
        query[METRIC_PARAM] = evidence.metric
    if chart == "trust_map" and evidence.referring_domain:
        query[REFERRING_PARAM] = evidence.referring_domain
    if chart == "keyword" and evidence.site:
        query[SITE_PARAM] = evidence.site
    return query


def opportunities_query(site: str, target: int | None = None) -> dict[str, str]:
    """The query parameters of a link to the Opportunities page on ``site`` (and a target position)."""
    query = {OPPORTUNITIES_SITE_PARAM: site}
    if target is not None:
        query[OPPORTUNITIES_TARGET_PARAM] = str(target)
    return query


def chart_url(dashboard_url: str, chart: str, subject: str, evidence: Evidence | None = None) -> str:
    """The full link to the chart, e.g. ``http://localhost:8501/history?history_domain=a.com&…``."""
    query = chart_query(chart, subject, evidence)
    return f"{dashboard_url.rstrip('/')}/{chart_path(chart)}?{urlencode(query)}"


def _present(value: Any) -> Any:
    """The value, or None for a missing one (None, "", NaN, NaT)."""
    if value is None or isinstance(value, str):
        return value or None
    return None if pd.isna(value) else value


def _value(alert: Any, name: str) -> Any:
    return _present(getattr(alert, name, None))


def _day(value: Any) -> date | None:
    value = _present(value)
    return None if value is None else pd.Timestamp(value).date()


def alert_evidence(alert: Any) -> Evidence | None:
    """The evidence of an alert row (a ``HistoryStore.alerts.entries`` frame row, a webhook's alert, a
    ``Finding``): what it stored, or for an older row the rule's usual comparison; None without a day."""
    day = _day(getattr(alert, "day", None))
    if day is None:
        return None
    rule = str(getattr(alert, "rule", ""))
    since = _day(getattr(alert, "since", None))
    if since is None and rule in USUAL_SINCE:
        since = day - USUAL_SINCE[rule]
    referring = _value(alert, "referring_domain")
    if referring is None and rule == "partner_stopped_linking":
        referring = _value(alert, "subject")  # the partner is the alert's subject
    site = _value(alert, "site")
    return Evidence(
        day=day,
        since=since,
        metric=_value(alert, "metric") or USUAL_METRIC.get(rule),
        referring_domain=None if referring is None else str(referring),
        site=None if site is None else str(site),
    )


def alert_query(alert: Any) -> dict[str, str]:
    """The query parameters of an alert's Chart link: its chart, subject and evidence."""
    return chart_query(str(alert.chart), str(alert.chart_subject), alert_evidence(alert))


def alert_url(dashboard_url: str, alert: Any) -> str:
    """The full link to an alert's chart; ValueError for a chart this version does not know."""
    path = chart_path(str(alert.chart))
    return f"{dashboard_url.rstrip('/')}/{path}?{urlencode(alert_query(alert))}"
