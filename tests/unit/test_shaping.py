"""Pure data shaping and wording: model → frame → figure, error → words, frame → safe CSV."""

from __future__ import annotations

import csv
import io
from datetime import date

import pandas as pd
import pytest

from analysis.error_wording import describe_error
from analysis.overview.charts import changes_chart, compare_chart
from analysis.overview.frames import (
    backlinks_frame,
    changes_frame,
    compare_frame,
    compare_order,
    merged_note,
    problems_note,
    true_dr_gap,
)
from analysis.shaping import over_period
from analysis.text import escape_md, safe_http_url
from analysis.wording import whole_number
from client import errors
from client.inputs import parse_domain_list
from client.models import Lookup
from components.core.ui.tables import csv_file_name, safe_csv


def _lookup(**authority: object) -> Lookup:
    return Lookup.model_validate(
        {
            "domain": "example.com",
            "authority": authority,
            "changes": {"drWeeklyChange": 2, "trueDrWeeklyChange": -1.5, "trafficChange": None},
            "evidence": {
                "traffic": None,
                "referringDomains": 120,
                "topBacklinks": [
                    {"sourceDomain": "a.com", "dr": 70, "follow": True, "anchor": "=HYPERLINK()"}
                ],
            },
        }
    )


def test_gap_is_true_dr_minus_dr_and_unknown_when_either_is() -> None:
    assert true_dr_gap(_lookup(dr=60, trueDr=48)) == -12
    assert true_dr_gap(_lookup(dr=60, trueDr=None)) is None


def test_changes_frame_keeps_signs_and_leaves_out_unknown_changes() -> None:
    frame = changes_frame(_lookup(dr=50))
    assert list(frame["metric"]) == ["DR", "TrueDR"]
    assert list(frame["change"]) == [2.0, -1.5]
    fig = changes_chart(frame)
    bars = [t for t in fig.data if t.type == "bar"]
    assert list(bars[0].y) == [2.0, -1.5]
    assert bars[0].marker.color[0] != bars[0].marker.color[1]  # up and down look different


def test_changes_chart_says_so_when_nothing_changed() -> None:
    fig = changes_chart(changes_frame(Lookup.model_validate({"domain": "x.com"})))
    assert not fig.data
    assert "no changes" in fig.layout.annotations[0].text


def test_compare_frame_keeps_failures_and_unknowns() -> None:
    ok = _lookup(dr=60, trueDr=50, trustScore=70)
    frame = compare_frame(
        [("example.com", ok), ("gone.com", errors.NotFoundError("Unknown site", status=404))]
    )
    assert list(frame["domain"]) == ["example.com", "gone.com"]
    assert frame.loc[0, "gap"] == -10
    assert pd.isna(frame.loc[0, "traffic"])  # unknown traffic is not 0
    assert frame.loc[1, "error"] == "Unknown site"
    fig = compare_chart(frame)
    assert [t.name for t in fig.data] == ["DR", "TrueDR"]
    assert list(fig.data[0].x) == ["example.com"]  # the failed lookup is not drawn as 0


def test_compare_frame_keeps_an_entry_that_is_no_domain_as_typed_and_skipped() -> None:
    reason = "Enter one domain like example.com: it contains spaces."
    frame = compare_frame([("not a domain!!", errors.InvalidInputError(reason))])
    assert list(frame["domain"]) == ["not a domain!!"]
    assert frame.loc[0, "error"] == f"Skipped: {reason}"
    assert pd.isna(frame.loc[0, "dr"])


def test_merged_note_names_each_duplicate_and_the_entry_it_repeats() -> None:
    parsed = parse_domain_list("stripe.com\nwww.stripe.com\nexample.com\nEXAMPLE.com")
    note = merged_note(parsed.duplicates)
    assert note.startswith("Merged 2 duplicates")
    assert "`www.stripe.com` is the same site as `stripe.com`" in note
    assert "`EXAMPLE.com` is the same site as `example.com`" in note
    assert merged_note(()) == ""
    # A typed backtick cannot end the code span and let the rest be read as Markdown.
    hostile = merged_note(parse_domain_list("a.com\nhttps://a.com/`[x](http://evil)`").duplicates)
    assert hostile.count("`") == 4 and "[x](http://evil)" in hostile


def test_a_comparison_with_problems_shows_them_next_to_the_domain() -> None:
    shown = ["domain", "dr", "true_dr", "gap", "trust_score", "traffic", "referring_domains"]
    assert compare_order(0) == shown
    assert compare_order(2) == ["domain", "error", *shown[1:]]
    assert compare_order(0) == shown  # the order with problems was a copy
    assert problems_note(1, 3) == "1 of 3 entries has a problem; the Problem column says which and why."
    assert problems_note(2, 3).startswith("2 of 3 entries have a problem")


def test_backlinks_frame_has_a_row_per_backlink() -> None:
    frame = backlinks_frame(_lookup(dr=1).evidence.top_backlinks)
    assert frame.loc[0, "source_domain"] == "a.com" and frame.loc[0, "dr"] == 70


def test_csv_defuses_spreadsheet_formulas_but_keeps_numbers() -> None:
    frame = pd.DataFrame(
        {"anchor": ['=HYPERLINK("x")', "+1", "@cmd", "fine", None], "change": [-3, 1, 2, 3, 4]}
    )
    text = safe_csv(frame).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["anchor"] for r in rows] == ['\'=HYPERLINK("x")', "'+1", "'@cmd", "fine", ""]
    assert rows[0]["change"] == "-3"


@pytest.mark.parametrize("subject", ["../../etc/passwd", "a b/c?d", "", "ünïcode.com", None])
def test_csv_file_names_are_safe(subject: str | None) -> None:
    name = csv_file_name("trust-map", subject)
    assert name.endswith(".csv") and "/" not in name and " " not in name and ".." not in name


def test_csv_file_name_says_what_and_when() -> None:
    name = csv_file_name("trust-map", "stripe.com", day=date(2026, 11, 22))
    assert name == "trust-map_stripe.com_2026-11-22.csv"


def test_untrusted_text_cannot_become_markdown() -> None:
    escaped = escape_md("[click](javascript:alert(1)) **bold**")
    assert "[click]" not in escaped and "**" not in escaped


@pytest.mark.parametrize(
    ("url", "ok"),
    [("https://x.test/a", True), ("javascript:alert(1)", False), ("//x.test", False), (None, False)],
)
def test_only_http_links_are_made_clickable(url: str | None, ok: bool) -> None:
    assert (safe_http_url(url) is not None) is ok


def test_missing_numbers_say_not_available() -> None:
    assert whole_number(None) == "not available" and whole_number(12345) == "12,345"


def test_gate_error_names_the_feature_and_carries_the_link() -> None:
    err = errors.PaymentRequiredError(
        "Keyword research needs a growth program",
        upgrade_url="https://verifieddr.test/pricing",
        required_plan="growth",
        blocked_feature="keyword_research",
    )
    view = describe_error(err)
    assert "Keyword research" in view.title and "growth" in view.title
    assert view.link_url == "https://verifieddr.test/pricing"


def test_quota_error_is_not_mistaken_for_a_gate() -> None:
    view = describe_error(errors.PaymentRequiredError("Monthly quota used up"))
    assert "quota" in view.title.lower() and view.link_url is None


def test_rate_limit_says_when_to_retry() -> None:
    assert "in 7 seconds" in describe_error(errors.RateLimitedError("slow", retry_after=6.2)).advice


def test_gate_link_must_be_http() -> None:
    err = errors.PaymentRequiredError("gate", upgrade_url="javascript:alert(1)", blocked_feature="x")
    assert describe_error(err).link_url is None


@pytest.mark.parametrize(
    "err",
    [
        errors.InvalidInputError("Enter a domain"),
        errors.BadRequestError("bad", status=400),
        errors.AuthError("no key", status=401),
        errors.NotFoundError("nope", status=404),
        errors.ConflictError("dup", status=409),
        errors.UnavailableError("later"),
        errors.ApiTimeoutError("slow"),
        errors.TransportError("down"),
        errors.CertificateError("untrusted"),
        errors.InvalidResponseError("junk"),
        errors.ServerError("boom", status=500),
    ],
)
def test_every_error_kind_gets_its_own_words(err: errors.ApiError) -> None:
    view = describe_error(err)
    assert view.title and view.advice
    others = {describe_error(e).title for e in (errors.ServerError("boom", status=500),)}
    if not isinstance(err, errors.ServerError):
        assert view.title not in others


def test_a_change_over_a_period_runs_from_its_first_recorded_day_to_its_last() -> None:
    rows = pd.DataFrame(
        {
            "day": ["2025-03-02", "2025-03-01", "2025-03-03", "2025-03-01", "2025-03-03"],
            "keyword": ["a", "a", "a", "b", "b"],
            "position": [5, 8, None, 3, 4],
        }
    )
    skipped = over_period(rows, "position", "keyword").set_index("keyword")
    assert skipped.loc["a", ["first", "last", "change"]].tolist() == [
        8.0,
        5.0,
        -3.0,
    ]  # a failed read: skipped
    assert skipped.loc["a", "last_day"] == date(2025, 3, 2)
    kept = over_period(rows, "position", "keyword", skip_missing=False).set_index("keyword")
    assert pd.isna(kept.loc["a", "change"]) and kept.loc["b", "change"] == 1.0  # not ranking: no change
    whole = over_period(rows, "position")
    assert whole[["first", "last", "change"]].iloc[0].tolist() == [8.0, 4.0, -4.0]
    assert over_period(rows.iloc[:0], "position").empty
