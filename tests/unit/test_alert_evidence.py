"""Every rule's finding carries its evidence and its link carries it to the History page (pure): the
window from the day before the rule's earlier snapshot to the alert's day, the metric, the referring
domain, the keyword's site; the History page reads the same names, marks the two points on the chart
the link opens, and puts the alert's referring domain first in the churn table."""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd
import pytest

from analysis.figures import history_evidence as evidence
from analysis.figures.history_frames import largest_moves
from analysis.links import alert_query
from components.history.widgets.churn import compared_days
from components.history.widgets.keywords import asked_site
from schema.history import DOMAIN_COLUMNS, KEYWORD_COLUMNS
from services.alerts.link_rules import Partner, partner_findings, trust_map_findings
from services.alerts.rules import domain_findings, keyword_findings
from store.alerts import RuleSetting
from store.alerts.catalog import RULES
from tests.unit.test_purity import first_to_load_streamlit

D0 = date(2025, 3, 3)
SETTINGS = {rule: RuleSetting(rule, spec.default_threshold, True) for rule, spec in RULES.items()}


def day(n: int) -> date:
    return D0 + timedelta(days=n)


def _window(since: int, after: int) -> dict[str, str]:
    return {
        "history_from": str(day(since - 1)),
        "history_before": str(day(since)),
        "history_to": str(day(after)),
    }


def _domains(values: dict[str, list[dict[str, object]]]) -> pd.DataFrame:
    rows = [
        {name: None for name in DOMAIN_COLUMNS} | {"domain": domain, "day": pd.Timestamp(day(n))} | value
        for domain, days in values.items()
        for n, value in enumerate(days)
    ]
    return pd.DataFrame(rows, columns=list(DOMAIN_COLUMNS))


def test_the_domain_rules_link_to_their_comparison_window_and_metric() -> None:
    normal = {"dr": 50, "true_dr": 45, "referring_domains": 1000, "traffic_validated": True, "verified": True}
    frame = _domains(
        {
            "drop.com": [normal] * 8 + [normal | {"true_dr": 42}],
            "fell.com": [normal] * 8 + [normal | {"referring_domains": 900}],
            "lapsed.com": [normal] * 5 + [normal | {"traffic_validated": False, "verified": False}],
        }
    )
    found = {(f.rule, f.subject): f for f in domain_findings(frame, [day(n) for n in range(9)], SETTINGS)}
    assert set(found) == {
        ("authority_drop", "drop.com"),
        ("referring_domains_fell", "fell.com"),
        ("traffic_validation_lost", "lapsed.com"),
        ("verification_lost", "lapsed.com"),
    }
    tab = {"history_tab": "Domain trends"}
    assert alert_query(found["authority_drop", "drop.com"]) == {
        "history_domain": "drop.com", **tab, **_window(1, 8), "history_metric": "true_dr"
    }  # fmt: skip
    assert alert_query(found["referring_domains_fell", "fell.com"]) == {
        "history_domain": "fell.com", **tab, **_window(1, 8), "history_metric": "referring_domains"
    }  # fmt: skip
    assert (
        alert_query(found["traffic_validation_lost", "lapsed.com"])["history_metric"] == "traffic_validated"
    )
    assert alert_query(found["verification_lost", "lapsed.com"]) == {
        "history_domain": "lapsed.com", **tab, **_window(4, 5), "history_metric": "verified"
    }  # fmt: skip


def _keywords(site: str, positions: dict[str, list[int | None]]) -> pd.DataFrame:
    rows = [
        {name: None for name in KEYWORD_COLUMNS}
        | {"site": site, "keyword": keyword, "day": pd.Timestamp(day(n)), "position": p, "median_dr": 60.0}
        | {"user_dr": 50}
        for keyword, days in positions.items()
        for n, p in enumerate(days)
    ]
    return pd.DataFrame(rows, columns=list(KEYWORD_COLUMNS))


@pytest.mark.parametrize(("site", "named"), [("example-com", "example-com"), ("example.com", "example.com")])
def test_the_keyword_rules_link_to_the_site_the_keyword_is_measured_for(site: str, named: str) -> None:
    frame = _keywords(site, {"crm tools": [7, 7, 14], "crm software": [20, 20, 20, 14]})
    found = {f.rule: f for f in keyword_findings(frame, [day(n) for n in range(4)], SETTINGS)}
    tab = {"history_tab": "Keyword positions", "history_site": named}
    assert alert_query(found["keyword_left_top10"]) == {
        "history_keyword": "crm tools", "history_tab": tab["history_tab"], **_window(1, 2),
        "history_site": named,
    }  # fmt: skip
    assert alert_query(found["keyword_moved"]) == {"history_keyword": "crm software", **tab, **_window(2, 3)}


def test_the_trust_map_rules_link_to_the_two_maps_and_name_the_referring_domain() -> None:
    before = {
        "big.com": {"dr": 70, "link_type": "dofollow", "status": "live", "spam_score": 1.0},
        "partner.io": {"dr": 30, "link_type": "dofollow", "status": "live", "spam_score": 1.0},
    }
    after = {
        "big.com": before["big.com"] | {"status": "lost"},
        "spam.biz": {"dr": 5, "link_type": "nofollow", "status": "live", "spam_score": 80.0},
    }
    found = trust_map_findings("example.com", day(7), after, day(0), before, SETTINGS)
    found += partner_findings(
        "example.com", day(7), after, day(0), before, [Partner("partner.io", day(0))], SETTINGS
    )
    queries = {f.rule: alert_query(f) for f in found}
    base = {"history_domain": "example.com", "history_tab": "Trust Map churn", **_window(0, 7)}
    assert queries == {
        "spam_risky_link": base | {"history_referring_domain": "spam.biz"},
        "strong_link_lost": base | {"history_referring_domain": "big.com"},
        "partner_stopped_linking": base | {"history_referring_domain": "partner.io"},
    }


def test_the_history_page_reads_the_evidence_the_links_carry() -> None:
    read = evidence.read_link(alert_query(_finding()))
    assert read == evidence.LinkedEvidence(day(0), day(8), day(1), "true_dr", None)
    assert read.window == (day(0), day(8))
    assert evidence.read_link({"history_to": "yesterday", "history_metric": "<b>"}).window is None


def _finding() -> object:
    frame = _domains({"drop.com": [{"dr": 50, "true_dr": 45}] * 8 + [{"dr": 50, "true_dr": 42}]})
    return domain_findings(frame, [day(8)], SETTINGS)[0]


def test_a_keyword_links_site_opens_the_tracked_site_or_the_keywords_watched_for_a_domain() -> None:
    own = {"example.com": "example-com"}
    assert asked_site("example-com", own) == "example.com"
    assert asked_site("example.com", own) == "Watched for example.com"


def _traces(fig: object) -> dict[str, tuple[pd.Timestamp, float]]:
    return {
        t.name: (pd.Timestamp(t.x[0]), t.y[0])
        for t in fig.data  # type: ignore[attr-defined]
        if t.name in ("Before", "After")
    }


def test_the_chart_marks_the_before_and_after_points_with_their_own_markers() -> None:
    history = _domains(
        {"drop.com": [{"dr": 50, "true_dr": 45, "traffic": 900, "traffic_validated": True}] * 8}
        | {"other.com": [{"dr": 30, "true_dr": 20, "traffic": 90, "traffic_validated": True}] * 8}
    )
    history.loc[(history["domain"] == "drop.com") & (history["day"] == pd.Timestamp(day(7))), "true_dr"] = 42
    marks = evidence.Marks("drop.com", "true_dr", day(1), day(7))
    fig = evidence.ratings_with_evidence(history, largest_moves(history), ["drop.com", "other.com"], marks)
    assert _traces(fig) == {"Before": (pd.Timestamp(day(1)), 45.0), "After": (pd.Timestamp(day(7)), 42.0)}
    symbols = {t.name: t.marker.symbol for t in fig.data if t.name in ("Before", "After")}
    assert symbols["Before"] != symbols["After"]
    assert [t.customdata[0] for t in fig.data if t.name == "Before"] == ["before: TrueDR 45"]
    assert {t.xaxis for t in fig.data if t.name in ("Before", "After")} == {"x2"}  # the TrueDR panel
    flags = evidence.metric_with_evidence(
        history, "traffic", None, marks._replace(metric="traffic_validated")
    )
    assert set(_traces(flags)) == {"Before", "After"}
    assert [t.customdata[0] for t in flags.data if t.name == "Before"] == [
        "before: traffic validated, Traffic 900"
    ]
    assert _traces(evidence.ratings_with_evidence(history, largest_moves(history), None, None)) == {}


def test_a_keyword_out_of_the_results_is_marked_at_the_foot_of_the_rank_chart() -> None:
    rows = _keywords("example.com", {"crm": [4, 4, None]})
    fig = evidence.rank_with_evidence(rows, ["crm"], evidence.Marks("crm", "position", day(1), day(2)))
    traces = _traces(fig)
    assert traces["Before"][1] == 4 and traces["After"][1] == fig.layout.yaxis.range[0] - 0.5  # the foot
    assert [t.customdata[0] for t in fig.data if t.name == "After"] == ["after: not ranking"]


def test_the_alerts_referring_domain_leads_the_churn_table_and_its_maps_are_picked() -> None:
    table = pd.DataFrame({"change": ["appeared", "appeared"], "referring_domain": ["a.com", "spam.biz"]})
    assert evidence.first_named(table, "spam.biz")["referring_domain"].tolist() == ["spam.biz", "a.com"]
    days = [day(0), day(7), day(14), day(21)]
    shown = evidence.LinkedEvidence(day(6), day(14), day(7))
    assert compared_days(days, shown) == (day(7), day(14))
    # An older alert (no earlier day): the map before its day.
    assert compared_days(days, evidence.LinkedEvidence(end=day(14))) == (day(7), day(14))
    assert compared_days(days, evidence.LinkedEvidence(end=day(3))) is None


def test_the_evidence_module_is_pure() -> None:
    assert first_to_load_streamlit(["analysis.figures.history_evidence"]) == ""
