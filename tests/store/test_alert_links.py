"""Every rule's alert links to its evidence, on SQLite and PostgreSQL: the stored alert keeps the day it
compared with, its metric, referring domain and keyword site, and its link (the Alerts page's, the
webhook's, the digest's: one builder) carries the window from the day before that comparison to the
alert's day, the metric and the subject. An alert stored before revision 0006 still gets a sensible
link: the upgrade reads its metric, referring domain or site back from its fingerprint."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from urllib.parse import parse_qs, urlsplit

import pandas as pd
from sqlalchemy import text

from analysis.links import alert_query, alert_url
from services.alerts.digest import digest_alert_url
from services.alerts.messages import alert_link, outgoing
from store import HistoryStore
from store.engine import make_engine
from store.migrations import HEAD_REVISION, upgrade
from store.models import AlertRow
from tests.store.evidence_history import WATCHED, Expected, every_rule_history, expected
from tests.store.samples import ACCOUNT

OWN, SLUG = "example.com", "example-com"
START = date(2025, 3, 3)
TABS = {"domain": "Domain trends", "keyword": "Keyword positions", "trust_map": "Trust Map churn"}
MARKET_TABS = {"market": "Visibility", "market_churn": "Top-10 churn"}


def _day(n: int) -> date:
    return START + timedelta(days=n)


def _wanted(rule: str, chart: str, want: Expected) -> dict[str, str]:
    before, after = want.days
    if chart in MARKET_TABS:  # the Market page: the site, the tab, the group and the two days
        market = {"market_site": want.chart_subject, "market_tab": MARKET_TABS[chart]}
        market |= {"market_group": want.metric} if want.metric else {}
        return market | {"market_from": str(_day(before)), "market_to": str(_day(after))}
    subject_param = "history_keyword" if chart == "keyword" else "history_domain"
    query = {
        subject_param: want.chart_subject,
        "history_tab": TABS[chart],
        "history_from": str(_day(before - 1)),
        "history_before": str(_day(before)),
        "history_to": str(_day(after)),
    }
    if want.metric:
        query["history_metric"] = want.metric
    if want.referring_domain:
        query["history_referring_domain"] = want.referring_domain
    if want.site:
        query["history_site"] = want.site
    return query


def _alerts(store: HistoryStore) -> pd.DataFrame:
    every_rule_history(store, ACCOUNT, OWN, SLUG, START)
    return store.alerts.entries(ACCOUNT, state="all")


def test_each_rules_alert_links_to_its_window_metric_and_subject(store: HistoryStore) -> None:
    alerts = _alerts(store)
    wanted = expected(OWN, SLUG)
    assert set(alerts["rule"]) == set(wanted), alerts[["rule", "title"]]
    for rule, want in wanted.items():
        rows = alerts[(alerts["rule"] == rule) & (alerts["subject"] == want.subject)]
        assert len(rows) == 1, (rule, rows[["rule", "subject", "title"]])
        row = next(rows.itertuples())
        assert pd.Timestamp(row.day).date() == _day(want.days[1]), rule
        assert alert_query(row) == _wanted(rule, row.chart, want), rule


def test_a_watched_keywords_alert_links_to_the_site_it_is_measured_for(store: HistoryStore) -> None:
    alerts = _alerts(store)
    row = next(
        alerts[(alerts["subject"] == WATCHED.subject) & (alerts["rule"] == "keyword_left_top10")].itertuples()
    )
    assert alert_query(row) == _wanted(row.rule, "keyword", Expected(**{**WATCHED.__dict__, "site": OWN}))


def test_the_webhook_and_the_digest_link_where_the_alerts_page_does(store: HistoryStore) -> None:
    alerts = _alerts(store)
    dashboard = "https://dashboard.example.com"
    with store.engine.connect() as conn:
        rows = {row.id: row for row in conn.execute(AlertRow.__table__.select())}
    for row in alerts.itertuples():
        url = alert_url(dashboard, row)
        assert parse_qs(urlsplit(url).query) == {k: [v] for k, v in alert_query(row).items()}
        assert digest_alert_url(dashboard, row) == url  # the digest's
        assert alert_link(outgoing(rows[row.id]), dashboard) == url  # the webhook's


#: Alert rows as revision 0005 stored them (fingerprint "subject|key|day", or "subject|key" told once).
OLD_ROWS = [
    ("authority_drop", "drop.com", "drop.com|true_dr|2025-03-11", "domain", "drop.com"),
    ("referring_domains_fell", "fell.com", "fell.com|2025-03-11", "domain", "fell.com"),
    ("verification_lost", "lapsed.com", "lapsed.com|2025-03-11", "domain", "lapsed.com"),
    ("keyword_moved", "crm software", "crm software|example-com|2025-03-11", "keyword", "crm software"),
    ("keyword_left_top10", "cookie free analytics", "cookie free analytics|watched|2025-03-11", "keyword",
     "cookie free analytics"),
    ("spam_risky_link", OWN, f"{OWN}|localnotebook.com", "trust_map", OWN),
    ("strong_link_lost", OWN, f"{OWN}|wix.com|2025-03-11", "trust_map", OWN),
    ("partner_stopped_linking", "partner.io", f"partner.io|{OWN}|2025-03-11", "trust_map", OWN),
]  # fmt: skip


def test_alerts_stored_before_the_evidence_columns_still_link_sensibly(
    store_url: str, database_at: Callable[..., None]
) -> None:
    database_at(
        "0005",
        "nothing",
        (
            "INSERT INTO alerts (account, rule, fingerprint, subject, day, title, chart, chart_subject, "
            "created_at) VALUES (:account, :rule, :fingerprint, :subject, :day, :title, :chart, "
            ":chart_subject, :created_at)",
            [
                {
                    "account": ACCOUNT,
                    "rule": rule,
                    "fingerprint": fingerprint,
                    "subject": subject,
                    "day": "2025-03-11",
                    "title": f"{rule} of {subject}",
                    "chart": chart,
                    "chart_subject": chart_subject,
                    "created_at": "2025-03-11 06:00:00+00:00",
                }
                for rule, subject, fingerprint, chart, chart_subject in OLD_ROWS
            ],
        ),
    )
    engine = make_engine(store_url)
    upgrade(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD_REVISION
    engine.dispose()
    with HistoryStore.open(store_url) as opened:
        links = {row.rule: alert_query(row) for row in opened.alerts.entries(ACCOUNT).itertuples()}
    week = {"history_from": "2025-03-03", "history_before": "2025-03-04", "history_to": "2025-03-11"}
    day = {"history_from": "2025-03-09", "history_before": "2025-03-10", "history_to": "2025-03-11"}
    assert links["authority_drop"] == {
        "history_domain": "drop.com", "history_tab": "Domain trends", **week, "history_metric": "true_dr"
    }  # fmt: skip
    assert links["referring_domains_fell"]["history_metric"] == "referring_domains"
    assert links["referring_domains_fell"]["history_from"] == week["history_from"]
    assert links["verification_lost"] == {
        "history_domain": "lapsed.com", "history_tab": "Domain trends", **day, "history_metric": "verified"
    }  # fmt: skip
    assert links["keyword_moved"] == {
        "history_keyword": "crm software", "history_tab": "Keyword positions", **day, "history_site": SLUG
    }  # fmt: skip
    # A watched keyword of before sites were kept: no site to name, the page looks for the keyword.
    assert "history_site" not in links["keyword_left_top10"]
    # Trust Map alerts: the page takes the map before the alert's day; the referring domain is named.
    for rule, referring in (
        ("spam_risky_link", "localnotebook.com"),
        ("strong_link_lost", "wix.com"),
        ("partner_stopped_linking", "partner.io"),
    ):
        assert links[rule] == {
            "history_domain": OWN,
            "history_tab": "Trust Map churn",
            "history_to": "2025-03-11",
            "history_referring_domain": referring,
        }, rule
