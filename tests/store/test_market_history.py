"""The market view's history: every watched keyword's whole top 10 kept per day (SQLite and PostgreSQL),
and ``python -m store visibility`` matching visibility and share of voice recomputed straight from the
sandbox's own keyword reports, with the formulas written out here independently of ``analysis.market``."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from datetime import date, timedelta

import pytest

from analysis.market import DEFAULT_CTR
from client.models import KeywordReport, SerpResult
from client.settings import key_fingerprint
from sandbox import DEMO_KEY
from sandbox.demo_history import keyword_report_on
from store import HistoryStore
from store.rows import Unusable
from tests.store.commands import run_command

ACCOUNT = key_fingerprint(DEMO_KEY)
SITE = "example.com"
KEYWORDS = ("cookie free analytics", "privacy analytics", "web analytics tool", "website heatmap tool")
LAST_DAY = date(2026, 11, 20)
DAYS = 5


def _days() -> list[date]:
    return [LAST_DAY - timedelta(days=back) for back in range(DAYS - 1, -1, -1)]


def _report(*domains: str, dr: int | None = 40) -> KeywordReport:
    results = [SerpResult(position=i, domain=d, dr=dr) for i, d in enumerate(domains, 1)]
    return KeywordReport(keyword="kw", results=results, median_dr=40.0, min_dr=40.0)


def test_a_watched_keywords_report_keeps_its_whole_top_10_once_per_day(store: HistoryStore) -> None:
    day = LAST_DAY
    report = keyword_report_on("cookie free analytics", day, SITE)
    assert store.snapshots.record_keyword_report(ACCOUNT, report, day, "job", SITE) == "recorded"
    assert store.snapshots.record_keyword_report(ACCOUNT, report, day, "job", SITE) == "unchanged"
    rows = store.queries.serp_history(ACCOUNT, SITE)
    assert rows["position"].tolist() == list(range(1, 11))
    assert rows["domain"].tolist() == [r.domain for r in report.results]
    unresolved = [r.position for r in report.results if r.dr is None]
    assert rows.loc[rows["position"].isin(unresolved), "dr"].isna().all()  # never 0


def test_a_days_new_top_10_replaces_the_old_one_whole(store: HistoryStore) -> None:
    store.snapshots.record_keyword_report(
        ACCOUNT, _report("a.com", "b.com", SITE), LAST_DAY, "job", SITE, "kw"
    )
    assert (
        store.snapshots.record_keyword_report(ACCOUNT, _report(SITE, "c.com"), LAST_DAY, "job", SITE, "kw")
        == "recorded"
    )
    rows = store.queries.serp_history(ACCOUNT, SITE)
    assert list(zip(rows["position"], rows["domain"], strict=True)) == [(1, SITE), (2, "c.com")]


def test_a_top_10_that_gives_a_position_twice_is_not_kept(store: HistoryStore) -> None:
    garbled = _report("a.com", "b.com")
    garbled.results[1].position = 1
    with pytest.raises(Unusable):
        store.snapshots.record_keyword_report(ACCOUNT, garbled, LAST_DAY, "job", SITE, "kw")
    assert store.queries.serp_history(ACCOUNT).empty
    assert store.queries.keyword_history(ACCOUNT, SITE).empty


def _independent_figures(
    reports: dict[date, list[KeywordReport]],
) -> dict[tuple[str, str], tuple[float, float]]:
    """(day, domain) → (visibility %, share of voice %), written out from the issue's formulas."""
    figures: dict[tuple[str, str], tuple[float, float]] = {}
    curve = DEFAULT_CTR
    for day, day_reports in reports.items():
        clicks: dict[str, float] = defaultdict(float)
        for report in day_reports:
            best: dict[str, int] = {}
            for result in report.results:
                if 1 <= result.position <= 10:
                    best[result.domain] = min(best.get(result.domain, 99), result.position)
            for domain, position in best.items():
                clicks[domain] += curve[position - 1]
        total = sum(clicks.values())
        for domain, value in clicks.items():
            visibility = sum(
                curve[min(r.position for r in report.results if r.domain == domain) - 1] / curve[0]
                for report in day_reports
                if any(r.domain == domain for r in report.results)
            ) / len(day_reports)
            figures[(day.isoformat(), domain)] = (round(visibility * 100, 1), round(value / total * 100, 1))
    return figures


def test_the_visibility_command_matches_the_formulas_on_the_sandboxs_own_reports(
    store_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    reports = _record_reports(store_url)
    monkeypatch.setenv("VERIFIEDDR_API_KEY", DEMO_KEY)
    code, lines, err = _visibility_csv(store_url, capsys)
    assert code == 0, err
    assert list(lines[0]) == ["day", "group", "domain", "visibility", "share_of_voice"]
    printed = {
        (row["day"], row["domain"]): (float(row["visibility"]), float(row["share_of_voice"])) for row in lines
    }
    assert printed == _independent_figures(reports)
    assert {row["group"] for row in lines} == {"all"}
    assert {row["day"] for row in lines} == {day.isoformat() for day in _days()}


def test_the_visibility_command_says_when_nothing_is_recorded_and_exits_2(
    store_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("VERIFIEDDR_API_KEY", DEMO_KEY)
    code, out, err = run_command(capsys, "visibility", "--database-url", store_url)
    assert code == 2
    assert out == ""
    assert err.strip().startswith("No top 10 of the watched keywords is recorded yet")


def _record_reports(store_url: str) -> dict[date, list[KeywordReport]]:
    reports: dict[date, list[KeywordReport]] = {day: [] for day in _days()}
    with HistoryStore.open(store_url) as store:
        for keyword in KEYWORDS:
            store.watchlist.watch(ACCOUNT, "keyword", keyword, site=SITE)
            for day in _days():
                report = keyword_report_on(keyword, day, SITE)
                reports[day].append(report)
                store.snapshots.record_keyword_report(ACCOUNT, report, day, "job", SITE, keyword)
    return reports


def _visibility_csv(
    store_url: str, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, list[dict[str, str]], str]:
    code, out, err = run_command(
        capsys, "visibility", "--csv", "--days", str(DAYS), "--database-url", store_url, *args
    )
    return code, list(csv.DictReader(io.StringIO(out))), err


def test_a_tag_and_the_brand_split_are_groups_of_the_visibility_command(
    store_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    reports = _record_reports(store_url)
    with HistoryStore.open(store_url) as store:
        for keyword in KEYWORDS[:2]:
            store.groups.set_keyword_tags(ACCOUNT, keyword, ["Pricing"])
        store.groups.set_brand_terms(ACCOUNT, SITE, ["privacy"])
    monkeypatch.setenv("VERIFIEDDR_API_KEY", DEMO_KEY)
    for group, keywords in (("pricing", KEYWORDS[:2]), ("brand", ("privacy analytics",))):
        code, lines, err = _visibility_csv(store_url, capsys, "--group", group)
        assert code == 0, err
        only = {
            day: [r for r in day_reports if r.keyword in keywords] for day, day_reports in reports.items()
        }
        printed = {
            (row["day"], row["domain"]): (float(row["visibility"]), float(row["share_of_voice"]))
            for row in lines
        }
        assert printed == _independent_figures(only)
        assert {row["group"] for row in lines} == {group}
    code, lines, err = _visibility_csv(store_url, capsys, "--group", "blog")
    assert code == 2 and not lines
    assert err.strip() == "No keyword is tagged 'blog'. The groups are: all, brand, non-brand, pricing."


def test_the_visibility_csv_defuses_a_group_a_spreadsheet_would_run_and_keeps_the_figures_numbers(
    store_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    reports = _record_reports(store_url)
    with HistoryStore.open(store_url) as store:
        store.groups.set_keyword_tags(ACCOUNT, KEYWORDS[0], ["-crm"])  # a tag may start with a hyphen
    monkeypatch.setenv("VERIFIEDDR_API_KEY", DEMO_KEY)
    code, lines, err = _visibility_csv(store_url, capsys, "--group=-crm")
    assert code == 0, err
    assert {row["group"] for row in lines} == {"'-crm"}  # "-crm" would be a formula in a spreadsheet
    only = {day: [r for r in day_reports if r.keyword == KEYWORDS[0]] for day, day_reports in reports.items()}
    printed = {
        (row["day"], row["domain"]): (float(row["visibility"]), float(row["share_of_voice"])) for row in lines
    }
    assert printed == _independent_figures(only)
