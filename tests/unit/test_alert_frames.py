"""The Alerts page's pure parts: the store's alert rows in words, the filters, the rules as rows with
thresholds people read, which settings a form changed; and that the links alerts carry open the History
page on the right subject and tab (the store's names equal the page's)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pandas as pd
import pytest

from analysis import links
from analysis.links import chart_query
from components.alerts.frames import (
    alert_frame,
    alert_words,
    change_words,
    count_words,
    filter_alerts,
    person_words,
    rule_choices,
    rule_rows,
    rules_frame,
    setting_changes,
    setting_words,
    subject_choices,
    threshold_words,
)
from components.history.widgets.pieces import (
    CHURN_TAB,
    DOMAIN_TAB,
    KEYWORD_TAB,
    LINK_PARAM,
    TAB_KEY,
)
from store.alerts import ALERT_COLUMNS, RULES, RuleSetting


def _rows(*alerts: dict) -> pd.DataFrame:
    base = dict.fromkeys(ALERT_COLUMNS)
    return pd.DataFrame([{**base, **alert} for alert in alerts], columns=list(ALERT_COLUMNS))


def test_the_links_alerts_carry_are_the_ones_the_history_page_reads() -> None:
    assert links.HISTORY_PATH == "history"
    assert chart_query("domain", "a.com") == {LINK_PARAM["domain"]: "a.com", TAB_KEY: DOMAIN_TAB}
    assert chart_query("keyword", "crm") == {LINK_PARAM["keyword"]: "crm", TAB_KEY: KEYWORD_TAB}
    assert chart_query("trust_map", "a.com") == {LINK_PARAM["domain"]: "a.com", TAB_KEY: CHURN_TAB}


def test_an_alerts_evidence_reads_before_to_after() -> None:
    assert change_words("45", "41") == "45 → 41"
    assert change_words("live", None) == "was live"
    assert change_words(None, "85") == "85"
    assert change_words(None, float("nan")) is None
    assert person_words("local") == "Local user" and person_words("ann@acme.com") == "ann@acme.com"
    assert count_words(1) == "1 open alert" and count_words(3) == "3 open alerts"


def test_an_alert_is_named_by_its_rule_subject_and_day() -> None:
    named = alert_words("DR or TrueDR dropped", "semrush.com", date(2025, 1, 6))
    assert named == "DR or TrueDR dropped · semrush.com · 6 Jan 2025"
    assert (
        alert_words("Keyword moved", "crm", pd.Timestamp("2026-06-03")) == "Keyword moved · crm · 3 Jun 2026"
    )


def test_the_store_rows_become_the_pages_columns_newest_first_kept() -> None:
    frame = alert_frame(
        _rows(
            {"id": 2, "rule_name": "Keyword moved", "subject": "crm", "day": date(2026, 6, 3),
             "before": "4", "after": "12"},
            {"id": 1, "rule_name": "DR or TrueDR dropped", "subject": "a.com", "day": date(2026, 6, 1),
             "before": "45", "after": "41", "acknowledged_by": "local",
             "acknowledged_at": datetime(2026, 6, 2, tzinfo=UTC)},
        )
    )  # fmt: skip
    assert frame["id"].tolist() == [2, 1]
    assert frame["change"].tolist() == ["4 → 12", "45 → 41"]
    assert frame["acknowledged_by"].tolist()[1] == "Local user"
    assert pd.Timestamp(frame["day"].iloc[0]) == pd.Timestamp(2026, 6, 3)
    assert alert_frame(_rows()).empty  # no alerts: an empty table, not an error


def test_filters_keep_the_alerts_of_the_chosen_rules_and_subjects() -> None:
    frame = alert_frame(
        _rows(
            {"id": 3, "rule_name": "Keyword moved", "subject": "crm"},
            {"id": 2, "rule_name": "DR or TrueDR dropped", "subject": "b.com"},
            {"id": 1, "rule_name": "DR or TrueDR dropped", "subject": "a.com"},
        )
    )
    assert rule_choices(frame) == ["DR or TrueDR dropped", "Keyword moved"]  # the catalog's order
    assert subject_choices(frame) == ["a.com", "b.com", "crm"]
    assert filter_alerts(frame, rules=["DR or TrueDR dropped"])["id"].tolist() == [2, 1]
    assert filter_alerts(frame, subjects=["crm", "a.com"])["id"].tolist() == [3, 1]
    assert filter_alerts(frame, rules=["Keyword moved"], subjects=["a.com"]).empty
    assert len(filter_alerts(frame)) == 3


@pytest.mark.parametrize(
    ("threshold", "unit", "words"),
    [
        (2.0, "points", "at least 2 points"),
        (5.0, "%", "at least 5 %"),
        (50.0, "spam score", "at least spam score 50"),
        (2.5, "DR", "at least DR 2.5"),
        (None, None, None),
    ],
)
def test_thresholds_read_as_words(threshold: float | None, unit: str | None, words: str | None) -> None:
    assert threshold_words(threshold, unit) == words


def test_every_rule_is_a_row_with_its_setting_or_its_default() -> None:
    rows = rule_rows({"keyword_moved": RuleSetting("keyword_moved", 8.0, False)})
    assert [row.rule for row in rows] == list(RULES)
    moved = next(row for row in rows if row.rule == "keyword_moved")
    assert (moved.enabled, moved.threshold, moved.threshold_words) == (False, 8.0, "at least 8 positions")
    drop = next(row for row in rows if row.rule == "authority_drop")
    assert (drop.enabled, drop.threshold) == (True, RULES["authority_drop"].default_threshold)
    lost = next(row for row in rows if row.rule == "verification_lost")
    assert not lost.has_threshold and lost.threshold_words is None
    table = rules_frame(rows)
    assert table["name"].tolist() == [spec.name for spec in RULES.values()]
    assert table.loc[table["rule"] == "keyword_moved", "enabled"].item() is False


def test_only_the_settings_a_form_changed_are_saved() -> None:
    rows = rule_rows({})
    same = {row.rule: (row.enabled, row.threshold) for row in rows}
    assert setting_changes(rows, same) == []
    changed = {**same, "authority_drop": (True, 3), "verification_lost": (False, None)}
    assert setting_changes(rows, changed) == [
        RuleSetting("authority_drop", 3.0, True),
        RuleSetting("verification_lost", None, False),
    ]
    assert setting_changes(rows, {"verification_lost": (True, 7.0)}) == []  # no threshold to change
    assert setting_words(RuleSetting("authority_drop", 3.0, True), "points") == "on, at least 3 points"
    assert setting_words(RuleSetting("verification_lost", None, False)) == "off"
