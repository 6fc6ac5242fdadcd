"""Pure: the store's alerts (``HistoryStore.alerts.entries``) and rule settings → what the Alerts page shows.

An alert row names its rule by id (``authority_drop``) and its evidence as two stored strings; people
read "DR or TrueDR dropped" and "45 → 41". A rule setting is a threshold and a switch; people read
"at least 2 points". The words live here, once, so the cards, the tables and their CSV say the same
thing. No Streamlit.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from analysis.wording import say_day
from store.alerts import ALERT_COLUMNS, RULES, RuleSetting, RuleSpec

#: The columns of the open alerts' table (and its readable CSV), in order.
OPEN_COLUMNS: tuple[str, ...] = ("day", "title", "change", "rule_name", "subject", "delivery")
#: The columns of the acknowledged alerts' table, in order (its readable CSV adds the evidence and the
#: rest: the table leaves them off only to fit a laptop's page).
ACKNOWLEDGED_COLUMNS: tuple[str, ...] = ("day", "title", "rule_name", "acknowledged_by", "acknowledged_at")
#: The person the app acts as when sign-in is off, as the store keeps them, and as people read it.
LOCAL_PERSON = "local"
LOCAL_WORDS = "Local user"
#: Units written before the number ("DR 50"); the others follow it ("2 points", "5 %").
UNIT_FIRST = frozenset({"DR", "spam score"})
#: The columns of the rules' table (and its CSV), in order.
RULE_COLUMNS: tuple[str, ...] = ("name", "enabled", "threshold_words", "describes")


def change_words(before: Any, after: Any) -> str | None:
    """The evidence of an alert: "45 → 41", or the one side the rule recorded, or None."""
    was = None if _missing(before) else str(before)
    now = None if _missing(after) else str(after)
    if was is not None and now is not None:
        return f"{was} → {now}"
    if was is not None:
        return f"was {was}"
    return now


def person_words(person: Any) -> str | None:
    """Who acknowledged: their address, or "Local user" when sign-in is off."""
    if _missing(person):
        return None
    return LOCAL_WORDS if person == LOCAL_PERSON else str(person)


def alert_words(rule_name: Any, subject: Any, day: Any) -> str:
    """One alert named for the Activity log, so two acknowledged alerts can be told apart there:
    "DR or TrueDR dropped · semrush.com · 6 Jan 2025" (its rule, what it is about, its day)."""
    return " · ".join([str(rule_name), str(subject), say_day(day)])


def _missing(value: Any) -> bool:
    return value is None or (not isinstance(value, str) and bool(pd.isna(value))) or value == ""


def alert_frame(rows: pd.DataFrame) -> pd.DataFrame:
    """The store's alert rows with what the page adds: the evidence in words (``change``) and the person
    who acknowledged in words; the day as a date without a time. Newest first, as the store gives them."""
    frame = rows.reindex(columns=list(ALERT_COLUMNS)).copy()
    frame["day"] = pd.to_datetime(frame["day"]).astype("datetime64[ns]")
    frame["change"] = [
        change_words(before, after) for before, after in zip(frame["before"], frame["after"], strict=True)
    ]
    frame["acknowledged_by"] = frame["acknowledged_by"].map(person_words).astype("object")
    frame["change"] = frame["change"].astype("object")
    return frame.reset_index(drop=True)


def filter_alerts(
    frame: pd.DataFrame, *, rules: Collection[str] = (), subjects: Collection[str] = ()
) -> pd.DataFrame:
    """The alerts of these rules (their plain names) about these subjects; an empty choice keeps all."""
    keep = pd.Series(True, index=frame.index)
    if rules:
        keep &= frame["rule_name"].isin(list(rules))
    if subjects:
        keep &= frame["subject"].isin(list(subjects))
    return frame[keep].reset_index(drop=True)


def rule_choices(frame: pd.DataFrame) -> list[str]:
    """The rules these alerts come from, by name, in the catalog's order (unknown ones after)."""
    present = set(frame["rule_name"].dropna())
    known = [spec.name for spec in RULES.values() if spec.name in present]
    return known + sorted(present - set(known))


def subject_choices(frame: pd.DataFrame) -> list[str]:
    """The domains and keywords these alerts are about, alphabetically."""
    return sorted(set(frame["subject"].dropna().astype(str)))


# --- rule settings -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleRow:
    """One rule as the Rules tab shows it: what it watches, whether it is on, its threshold."""

    rule: str
    name: str
    describes: str
    enabled: bool
    threshold: float | None
    default_threshold: float | None
    unit: str | None
    max_threshold: float | None

    @property
    def has_threshold(self) -> bool:
        return self.default_threshold is not None

    @property
    def threshold_words(self) -> str | None:
        return threshold_words(self.threshold, self.unit)


def threshold_words(threshold: float | None, unit: str | None) -> str | None:
    """A threshold as people read it: "at least 2 points", "at least 5 %", "at least DR 50"."""
    if threshold is None:
        return None
    number = f"{threshold:g}"
    if not unit:
        return f"at least {number}"
    if unit in UNIT_FIRST:
        return f"at least {unit} {number}"
    return f"at least {number} {unit}"


def rule_rows(settings: Mapping[str, RuleSetting], catalog: Mapping[str, RuleSpec] = RULES) -> list[RuleRow]:
    """Every rule of the catalog, in its order, with the account's setting (the default where it has none)."""
    rows = []
    for rule, spec in catalog.items():
        setting = settings.get(rule) or RuleSetting(rule, spec.default_threshold, True)
        rows.append(
            RuleRow(
                rule=rule,
                name=spec.name,
                describes=spec.describes,
                enabled=setting.enabled,
                threshold=setting.threshold if spec.default_threshold is not None else None,
                default_threshold=spec.default_threshold,
                unit=spec.unit,
                max_threshold=spec.max_threshold,
            )
        )
    return rows


def rules_frame(rows: list[RuleRow]) -> pd.DataFrame:
    """The rules as a table (and its CSV): name, on or off, threshold in words, what it watches."""
    return pd.DataFrame(
        {
            "rule": [row.rule for row in rows],
            "name": [row.name for row in rows],
            "enabled": [row.enabled for row in rows],
            "threshold": [row.threshold for row in rows],
            "unit": [row.unit for row in rows],
            "threshold_words": [row.threshold_words for row in rows],
            "describes": [row.describes for row in rows],
        }
    )


def setting_changes(
    rows: list[RuleRow], wanted: Mapping[str, tuple[bool, float | None]]
) -> list[RuleSetting]:
    """The settings that differ from ``rows``: ``wanted`` maps a rule to (on, threshold) as the form holds
    them; a rule it leaves out, or one with no threshold, keeps what it has there."""
    changes = []
    for row in rows:
        if row.rule not in wanted:
            continue
        enabled, threshold = wanted[row.rule]
        threshold = float(threshold) if row.has_threshold and threshold is not None else row.threshold
        if bool(enabled) != row.enabled or threshold != row.threshold:
            changes.append(RuleSetting(row.rule, threshold, bool(enabled)))
    return changes


def setting_words(setting: RuleSetting, unit: str | None = None) -> str:
    """A saved setting in words, for the page's confirmation: "on, at least 3 points" / "off"."""
    if not setting.enabled:
        return "off"
    words = threshold_words(setting.threshold, unit)
    return f"on, {words}" if words else "on"
