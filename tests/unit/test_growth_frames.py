"""The pure shaping behind the growth pages: answers → frames → figures, no Streamlit, no network."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pandas as pd

from analysis.growth.charts import discovery_chart
from analysis.growth.frames import default_proposal_text, discovery_frame, quota_text
from analysis.sites.charts import ratings_bars, trends_chart, truedr_waterfall
from analysis.sites.frames.export import (
    FIELD_LABELS,
    SECTION_LABELS,
    export_frame,
    export_json,
    field_label,
)
from analysis.sites.frames.sites import (
    monitor_alerts,
    monitor_frame,
    sites_frame,
    trend_moves,
    trends_frame,
    trends_note,
)
from analysis.sites.frames.visibility import (
    MetricDelta,
    answered_text,
    delta_change_text,
    delta_value_text,
    inspected_frame,
    next_run_text,
    outreach_frame,
    rows_frame,
    score_change_text,
    score_text,
    totals_deltas,
    when_text,
)
from client.growth_inputs import MAX_MESSAGE_CHARS, MAX_SUBJECT_CHARS
from client.growth_models import (
    ContactQuota,
    Discovery,
    ExchangeCandidate,
    ExchangeContact,
    Monitor,
    SiteDetail,
    SiteExport,
    SiteList,
    SiteRecord,
    TrueDrReport,
    TrueDrSignal,
)
from client.inputs import MAX_RAW_INPUT_LENGTH
from client.models import Lookup
from client.visibility_models import (
    AiSnapshot,
    AiVisibility,
    GscAudit,
    GscPerformance,
    InspectedPage,
    PageOutreach,
)
from sandbox import DEMO_KEY
from sandbox.accounts import ACCOUNTS
from sandbox.sites import SiteStore
from sandbox.sites import export as sandbox_export


def test_a_pending_site_keeps_its_missing_ratings_missing() -> None:
    listing = SiteList(sites=[SiteRecord(slug="new-com", domain="new.com", status="pending", dr=12)])
    frame = sites_frame(listing)
    assert frame.loc[0, "dr"] == 12
    assert pd.isna(frame.loc[0, "true_dr"]) and pd.isna(frame.loc[0, "traffic"])  # unknown, not 0
    fig = ratings_bars(frame, title="t")
    true_dr_bar = next(trace for trace in fig.data if trace.name == "TrueDR")
    assert all(pd.isna(v) for v in true_dr_bar.y)  # no bar at 0 either


def test_trends_draw_ratings_on_their_whole_scale_and_traffic_in_its_own_panel() -> None:
    detail = SiteDetail.model_validate(
        {
            "slug": "x-com",
            "trends": [
                {"date": "2024-10-21", "dr": 41, "trueDr": 37, "traffic": 452},
                {"date": "2024-10-28", "dr": 41, "trueDr": 42, "traffic": 611},
            ],
        }
    )
    frame = trends_frame(detail)
    fig = trends_chart(frame)
    axis_of = {trace.name: trace.yaxis for trace in fig.data}
    assert axis_of["DR"] == axis_of["TrueDR"] == "y" and axis_of["Traffic"] == "y2"  # a panel each
    assert tuple(fig.layout.yaxis.range) == (0, 100)  # a 5-point move is not drawn as the whole height
    assert fig.layout.yaxis2.overlaying is None and fig.layout.yaxis2.rangemode == "tozero"
    assert fig.layout.yaxis2.domain[1] < fig.layout.yaxis.domain[0]  # below the ratings, not on top
    assert trend_moves(frame) == (
        "DR 41 → 41 (no change) · TrueDR 37 → 42 (+5) · traffic 452 → 611 visits (+159)"
    )
    assert trends_note(detail, frame) == f"Weekly points since 2024-10-21: {trend_moves(frame)}."
    no_trend = SiteDetail.model_validate({"slug": "a-com", "trends": []})
    assert trends_note(no_trend, trends_frame(no_trend)) == "Weekly points since not available."


def test_waterfall_steps_from_dr_to_true_dr() -> None:
    report = TrueDrReport(
        dr=40,
        true_dr=35,
        breakdown=[TrueDrSignal(signal="a", impact=-7.5), TrueDrSignal(signal="b", impact=2.5)],
    )
    trace = truedr_waterfall(report).data[0]
    assert list(trace.measure) == ["absolute", "relative", "relative", "total"]
    assert trace.y[0] + sum(trace.y[1:-1]) == trace.y[-1] == 35


def test_waterfall_without_a_breakdown_says_why() -> None:
    fig = truedr_waterfall(TrueDrReport(dr=40, true_dr=None))
    assert not fig.data and "reviewed" in fig.layout.annotations[0].text


def test_alerts_come_most_urgent_first_and_text_alerts_are_accepted() -> None:
    report = Monitor.model_validate(
        {
            "sites": [
                {"domain": "a.com", "alerts": ["plain text", {"level": "warning", "message": "w"}]},
                {"domain": "b.com", "alerts": [{"level": "critical", "message": "c"}]},
            ]
        }
    )
    assert [level for level, _, _ in monitor_alerts(report)] == ["critical", "warning", "info"]
    frame = monitor_frame(report)
    assert list(frame["worst_alert"]) == ["warning", "critical"]
    assert list(frame["alerts"]) == [2, 1]


def test_export_reads_in_words_and_keeps_the_wire_shape_for_json() -> None:
    exported = SiteExport.model_validate(
        {
            "site": {"slug": "x-com", "categories": ["saas", "finance"], "xHandle": "@x", "verified": True},
            "authority": {"trueDr": 30, "trafficValidated": False},
            "extra": 1,
        }
    )
    frame = export_frame(exported)
    shown = {(p, f): v for p, f, v in zip(frame["section"], frame["field"], frame["value"], strict=True)}
    assert shown[("Site record", "Categories")] == "saas, finance"
    assert shown[("Site record", "X (Twitter) handle")] == "@x"  # was the raw "site.xHandle"
    assert shown[("Site record", "Badge verified")] == "yes"  # was "True"
    assert shown[("Ratings", "TrueDR")] == "30"
    assert shown[("Ratings", "Traffic validated")] == "no"  # was "False"
    assert shown[("Other", "Extra")] == "1"  # a field nobody labelled yet is still shown, in words
    wire = json.loads(export_json(exported))["export"]  # the download for scripts is as the service sent it
    assert wire["extra"] == 1 and wire["site"]["xHandle"] == "@x" and wire["site"]["verified"] is True


def test_every_field_of_the_sandbox_export_has_a_plain_label() -> None:
    for domain in ACCOUNTS[DEMO_KEY].sites:
        exported = sandbox_export(domain, SiteStore()).to_json_dict()
        for part, fields in exported.items():
            assert part in SECTION_LABELS, part
            for name in fields or {}:
                assert name in FIELD_LABELS[part], f"{part}.{name} has no plain label"
        frame = export_frame(SiteExport.model_validate(exported))
        wire_names = {f"{part}.{name}" for part, fields in exported.items() for name in fields or {}}
        wire_names |= {name.split(".")[1] for name in wire_names}
        assert not set(frame["field"]) & wire_names  # a person reads words, not the API's field names
        assert not frame["value"].isin(["True", "False"]).any()


def test_an_unknown_export_field_is_named_in_words() -> None:
    assert field_label("site.trueDrMonthlyChange") == ("Site record", "TrueDR monthly change")
    assert field_label("snippets.ogImageUrl") == ("Badge and snippets", "Open Graph image URL")
    assert field_label("newPart.someField") == ("New part", "Some field")


def test_only_http_links_become_links() -> None:
    view = AiVisibility(
        page_outreach=[PageOutreach(url="javascript:alert(1)"), PageOutreach(url="https://a.com/x")]
    )
    assert list(outreach_frame(view)["url"].isna()) == [True, False]
    pages = [InspectedPage(url="data:text/html,hi"), InspectedPage(url="https://a.com/")]
    assert list(inspected_frame(pages)["url"].isna()) == [True, False]
    perf = GscPerformance.model_validate(
        {"performance": {"snapshot": {"pages": [{"page": "javascript:x"}, {"page": "https://a.com/p"}]}}}
    )
    assert perf.performance.snapshot is not None
    names = rows_frame(perf.performance.snapshot.pages, links=True)["name"]
    assert list(names.isna()) == [True, False]


def test_the_ai_summary_reads_not_available_before_the_first_run() -> None:
    before = AiVisibility()
    assert (score_text(before), score_change_text(before), answered_text(before)) == (
        "not available",
        None,
        "not available",
    )
    ran = AiVisibility(
        snapshot=AiSnapshot(score=41.26, total_answers=1200, mentioned_answers=495), delta=-2.0
    )
    assert (score_text(ran), score_change_text(ran), answered_text(ran)) == ("41.3", "-2.0", "495 of 1,200")


def test_the_next_ai_run_is_due_now_once_its_time_has_come() -> None:
    due = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
    assert next_run_text(due, due - timedelta(days=1)) == "2026-11-30"
    assert next_run_text(due, due) == "due now"
    assert next_run_text(None, due) == "not available"


def test_search_console_totals_read_in_their_own_units() -> None:
    shown = {
        label: (
            delta_value_text(MetricDelta(label, value, change, None)),
            delta_change_text(MetricDelta(label, value, change, None)),
        )
        for label, value, change in (
            ("Clicks", 12345.0, 1200.0),
            ("CTR", 0.0342, -0.0051),
            ("Average position", 8.25, 1.5),
            ("Impressions", None, None),
        )
    }
    assert shown == {
        "Clicks": ("12,345", "+1,200"),
        "CTR": ("3.42%", "-0.51 pts"),
        "Average position": ("8.2", "+1.5"),
        "Impressions": ("not available", None),
    }
    moment = datetime(2026, 11, 27, 23, 5, tzinfo=timezone(timedelta(hours=2)))
    assert when_text(moment) == "2026-11-27 21:05 UTC"
    assert when_text(None) == "not available"


def test_position_going_up_is_bad_news() -> None:
    perf = GscPerformance.model_validate(
        {
            "performance": {
                "totals": {"clicks": 10, "impressions": 100, "ctr": 0.1, "position": 12.0},
                "previousTotals": {"clicks": 8, "impressions": 100, "ctr": 0.08, "position": 10.0},
            }
        }
    )
    better = {d.label: d.better for d in totals_deltas(perf)}
    assert better == {"Clicks": True, "Impressions": None, "CTR": True, "Average position": False}


def test_discovery_chart_spans_the_data_and_leaves_out_unrated_sites() -> None:
    found = Discovery.model_validate(
        {
            "sites": [
                {"domain": "a.com", "authority": {"dr": 50, "trueDr": 55, "trafficValidated": True}},
                {"domain": "b.com", "authority": {"dr": None, "trueDr": 40}},
            ]
        }
    )
    frame = discovery_frame(found)
    fig = discovery_chart(frame)
    plotted = [name for trace in fig.data if trace.mode == "markers" for name in trace.text]
    assert plotted == ["a.com"]
    low, high = fig.layout.xaxis.range
    assert low < 50 < high and high <= 101


def test_an_empty_audit_frame_still_has_its_columns() -> None:
    assert list(inspected_frame(GscAudit().indexed).columns) == [
        "url",
        "coverage",
        "last_crawl",
        "impressions",
    ]


def test_the_default_proposal_names_both_sites_and_fits_the_service_limits() -> None:
    you = Lookup(domain="acme.com", title="Acme tools")
    partner = ExchangeCandidate.model_validate({"domain": "b.com", "opportunity": {"type": "link_exchange"}})
    subject, message = default_proposal_text(you, partner)
    assert subject == "Link exchange: acme.com and b.com"
    assert message.startswith("Hi b.com team,\n\nI run acme.com (Acme tools). We write for the same audience")
    assert message.endswith("Best regards,\nacme.com")
    other = ExchangeCandidate(domain="c.com")
    assert "Our audiences overlap" in default_proposal_text(Lookup(domain="acme.com"), other)[1]
    long = Lookup(domain="acme.com", title="x" * MAX_RAW_INPUT_LENGTH)
    subject, message = default_proposal_text(long, other)
    assert len(subject) <= MAX_SUBJECT_CHARS and len(message) <= MAX_MESSAGE_CHARS


def test_the_proposal_quota_reads_only_what_the_service_gave() -> None:
    assert quota_text(None) is None
    assert quota_text(ExchangeContact(quota=ContactQuota(plan="pro"))) is None
    full = ExchangeContact(quota=ContactQuota(used=3, limit=1000, plan="pro_*"))
    assert quota_text(full) == "Exchange proposals used this month: 3 of 1,000 (plan pro\\_\\*)."
    assert quota_text(ExchangeContact(quota=ContactQuota(limit=5))) == (
        "Exchange proposals used this month: unknown of 5."
    )
