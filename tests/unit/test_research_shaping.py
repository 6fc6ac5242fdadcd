"""Research pages' pure parts: model → frame → figure, filters, uploads, snippets, the CSV sanitiser."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.error_wording import describe_error
from analysis.research.charts import (
    MAX_BARS,
    breakdown_chart,
    bulk_dr_chart,
    dr_band_chart,
    importance_scatter,
)
from analysis.research.frames.categories import categories_frame, max_per_site_text
from analysis.research.frames.site_check import (
    missing_signals,
    signal_groups,
    signals,
    signals_frame,
    verdict_style,
)
from analysis.research.frames.snippets import (
    badge_variants,
    img_src,
    loaded_from,
    og_image,
    snippets_frame,
)
from analysis.research.frames.trust_map import (
    DR_BANDS,
    MapFilters,
    breakdown,
    choices,
    dr_band,
    dr_band_counts,
    filter_map,
    map_frame,
    map_note,
    sample_note,
)
from analysis.spreadsheet import FORMULA_START, defuse_cell
from client import errors
from client.bulk import ItemResult
from client.inputs import parse_domain_list
from client.models import Categories, DomainRating, SiteCheck, Snippets, TrustMap
from components.core.ui.tables import safe_csv
from components.research.frames.bulk import (
    MAX_UPLOAD_BYTES,
    QuotaPlan,
    UploadError,
    bulk_frame,
    bulk_summary,
    domains_from_upload,
    duplicates_frame,
    finished_run,
    list_summary,
    quota_plan,
    run_figures,
    skipped_frame,
    start_label,
)


def _map(*rows: dict[str, object], total: int | None = 500) -> TrustMap:
    return TrustMap.model_validate(
        {
            "site": {"domain": "example.com", "dr": 41, "verified": True},
            "totalDomains": total,
            "domains": rows,
        }
    )


ROWS = (
    {"domain": "strong.com", "dr": 80, "backlinks": 40, "linkType": "dofollow", "status": "live",
     "importance": 90.5, "spamScore": 3},
    {"domain": "spammy.net", "dr": 12, "backlinks": 900, "linkType": "nofollow", "status": "lost",
     "importance": 10, "spamScore": 72},
    {"domain": "unknown.org", "dr": None, "backlinks": None, "linkType": None, "status": "pending",
     "importance": None, "spamScore": None},
    {"domain": "=HYPERLINK(\"x\")", "dr": 100, "backlinks": 1, "linkType": "ugc", "status": "live",
     "importance": 50, "spamScore": 50},
)  # fmt: skip


# --- Trust Map -----------------------------------------------------------------------------------


def test_map_frame_keeps_unknowns_missing_and_flags_spam_from_50() -> None:
    frame = map_frame(_map(*ROWS))
    assert list(frame["domain"]) == [r["domain"] for r in ROWS]  # the service's order
    assert frame.loc[1, "spam_risk"] and not frame.loc[0, "spam_risk"] and frame.loc[3, "spam_risk"]
    assert pd.isna(frame.loc[2, "dr"]) and pd.isna(frame.loc[2, "spam_risk"])  # unknown is not 0
    assert frame.loc[0, "url"] == "https://strong.com"
    assert pd.isna(frame.loc[3, "url"])  # a name that is not a domain never becomes a link


def test_filters_reshape_without_inventing_values() -> None:
    frame = map_frame(_map(*ROWS))
    assert len(filter_map(frame, MapFilters())) == len(ROWS)  # no filter: every row, unknowns too
    followed = filter_map(frame, MapFilters(link_types=("dofollow",)))
    assert list(followed["domain"]) == ["strong.com"]
    strong = filter_map(frame, MapFilters(min_dr=50))
    assert set(strong["domain"]) == {"strong.com", ROWS[3]["domain"]}  # unknown DR cannot meet a floor
    clean = filter_map(frame, MapFilters(max_spam=49))
    assert list(clean["domain"]) == ["strong.com"]
    assert filter_map(frame, MapFilters(statuses=("lost",), min_dr=50)).empty
    assert MapFilters(min_dr=1).active and not MapFilters().active


def test_filter_choices_list_known_values_first_then_what_the_service_sent() -> None:
    frame = map_frame(_map(*ROWS))
    assert choices(frame, "link_type", ("dofollow", "nofollow")) == ["dofollow", "nofollow", "ugc"]


@pytest.mark.parametrize(
    ("dr", "band"), [(0, "0–9"), (9, "0–9"), (10, "10–19"), (89, "80–89"), (100, "90–100")]
)
def test_dr_bands(dr: int, band: str) -> None:
    assert dr_band(dr) == band


def test_band_counts_cover_every_band_and_leave_out_unknown_dr() -> None:
    counts = dr_band_counts(map_frame(_map(*ROWS)))
    assert list(counts["band"]) == list(DR_BANDS)
    assert int(counts["count"].sum()) == 3  # the row without a DR is not counted as DR 0
    assert int(counts.loc[counts["band"] == "0–9", "count"].iloc[0]) == 0


def test_breakdown_names_missing_values() -> None:
    counts = breakdown(map_frame(_map(*ROWS)), "link_type")
    assert dict(zip(counts["value"], counts["count"], strict=True)) == {
        "dofollow": 1, "nofollow": 1, "ugc": 1, "not given": 1
    }  # fmt: skip


def test_map_charts_draw_what_the_frame_holds() -> None:
    frame = map_frame(_map(*ROWS))
    bands = dr_band_chart(dr_band_counts(frame), title="DR")
    assert list(bands.data[0].y) == [int(c) for c in dr_band_counts(frame)["count"]]
    scatter = importance_scatter(frame)
    *bubbles, rings = scatter.data
    assert sum(len(trace.x) for trace in bubbles) == 3  # the row without DR or importance cannot be placed
    assert {t.name for t in bubbles} == {"dofollow", "nofollow", "ugc"}
    # Spam-risky domains stand out: a thick red ring, drawn last (over every bubble), wider than the
    # domain's own bubble, named and counted in the legend. (Before: small x's half hidden under bubbles.)
    assert rings.name.startswith("Spam risk") and "(2)" in rings.name
    assert sorted(rings.x) == [12, 100] and rings.marker.line.width >= 3
    bubble_size = {x: size for trace in bubbles for x, size in zip(trace.x, trace.marker.size, strict=True)}
    assert all(size > bubble_size[x] for x, size in zip(rings.x, rings.marker.size, strict=True))
    status = breakdown_chart(breakdown(frame, "status"), title="Status")
    assert sorted(status.data[0].x) == [1, 1, 2]


def test_map_charts_say_so_when_there_is_nothing_to_draw() -> None:
    frame = map_frame(_map(ROWS[2]))
    assert not importance_scatter(frame).data
    assert "known DR" in dr_band_chart(dr_band_counts(frame), title="DR").layout.annotations[0].text


def test_sample_note_names_the_total_or_says_it_is_unknown() -> None:
    assert "60 of 19,854" in sample_note(60, 19854)
    assert "did not give the total" in sample_note(12, None)


def test_the_map_note_adds_what_the_filters_leave_only_when_they_are_on() -> None:
    assert map_note(60, 19854) == sample_note(60, 19854)
    assert map_note(60, 19854, 7) == sample_note(60, 19854) + " Filters show 7 of them."
    assert map_note(60, None, 0).endswith(" Filters show 0 of them.")


# --- Bulk DR ---------------------------------------------------------------------------------------


def test_csv_upload_takes_the_domain_column_and_ignores_the_rest() -> None:
    data = b"\xef\xbb\xbfName,Website,Notes\nAcme,acme.com,=cmd\nStripe,https://stripe.com/x,ok\n,,\n"
    assert domains_from_upload("list.CSV", data).split("\n") == ["acme.com", "https://stripe.com/x"]


def test_csv_upload_without_a_known_header_takes_the_first_column() -> None:
    assert domains_from_upload("l.csv", b"a.com;1\nb.org;2\n").split("\n") == ["a.com", "b.org"]


def test_txt_upload_is_taken_as_typed_and_binary_or_huge_files_are_refused() -> None:
    assert domains_from_upload("l.txt", b"a.com, b.com\nc.com") == "a.com, b.com\nc.com"
    with pytest.raises(UploadError):
        domains_from_upload("x.txt", b"\x00\x01PNG")
    with pytest.raises(UploadError):
        domains_from_upload("x.txt", b"a" * (MAX_UPLOAD_BYTES + 1))


def test_quota_plan_counts_only_domains_not_cached() -> None:
    plan = quota_plan(("a.com", "b.com", "c.com"), lambda d: d == "b.com")
    assert plan.to_ask == ("a.com", "c.com") and plan.cached == ("b.com",) and plan.units == 2


def test_bulk_frame_keeps_every_domain_with_its_error() -> None:
    results = [
        ItemResult("a.com", value=DomainRating(domain="a.com", dr=40, listed=True, slug="a-com", source="x")),
        ItemResult("b.com", value=DomainRating(domain="b.com", dr=None, listed=False)),
        ItemResult("c.com", error=errors.ServerError("Internal server error.", status=500), attempts=1),
        ItemResult("d.com", error=errors.PaymentRequiredError("Quota used up"), skipped=True),
    ]
    frame = bulk_frame(results)
    assert list(frame["domain"]) == ["a.com", "b.com", "c.com", "d.com"]
    assert frame.loc[0, "dr"] == 40 and pd.isna(frame.loc[1, "dr"])
    # The app's own words for the error, then the service's message.
    assert frame.loc[2, "error"] == f"{describe_error(results[2].error).title} (Internal server error.)"
    assert frame.loc[3, "error"].startswith("Not checked")
    assert bulk_summary(frame) == {"domains": 4, "rated": 1, "failed": 2, "listed": 1}


def test_bulk_frame_shows_who_rated_in_plain_names_and_no_slug() -> None:
    rating = DomainRating(domain="a.com", dr=40, listed=True, slug="a-com", source="verifieddr")
    frame = bulk_frame([ItemResult("a.com", value=rating)])
    assert "slug" not in frame.columns
    assert frame.loc[0, "source"] == "VerifiedDR"
    other = bulk_frame([ItemResult("b.com", value=DomainRating(domain="b.com", dr=3, source="ahrefs"))])
    assert other.loc[0, "source"] == "Ahrefs"


def test_list_summary_accounts_for_every_line() -> None:
    parsed = parse_domain_list("a.com\nwww.a.com\nnot a domain!!\nb.com, c.com\n\nA.COM")
    assert list_summary(parsed) == "6 entries on 5 lines: 3 domains to check, 2 duplicates merged, 1 skipped."
    assert list_summary(parse_domain_list("a.com")) == "1 line: 1 domain to check."


def test_duplicates_and_skipped_frames_list_the_entries_as_typed() -> None:
    parsed = parse_domain_list("a.com\nhttps://www.a.com/x\nnot a domain!!\n" + "x" * 300)
    merged = duplicates_frame(parsed)
    assert merged.to_dict("records") == [
        {"entry": "https://www.a.com/x", "same_as": "a.com", "domain": "a.com"}
    ]
    skipped = skipped_frame(parsed)
    assert list(skipped["entry"]) == ["not a domain!!", "x" * 200]
    assert skipped["reason"].notna().all()


def test_run_figures_add_up_and_agree_with_what_was_cached() -> None:
    rating = DomainRating(domain="x.com", dr=1)
    results = [
        ItemResult("a.com", value=rating),
        ItemResult("b.com", value=rating),  # cached: free
        ItemResult("c.com", error=errors.ServerError("boom", status=500)),
        ItemResult("d.com", error=errors.PaymentRequiredError("Quota used up"), skipped=True),
    ]
    figures = run_figures(results, {"b.com"}, total=5)
    assert (figures.rated, figures.spent, figures.from_cache) == (2, 1, 1)
    assert (figures.failed, figures.not_checked, figures.checked) == (1, 1, 3)
    assert figures.checked == figures.spent + figures.from_cache + figures.failed
    assert figures.progress_text() == "Checked 3 of 5: 1 quota unit spent, 1 from the cache"


def test_a_finished_run_keeps_the_order_given_and_says_what_ended_it() -> None:
    rating = DomainRating(domain="x.com", dr=1)
    quota = errors.PaymentRequiredError("Quota used up")
    completed = [  # as they completed, not as typed
        ItemResult("c.com", error=quota, skipped=True),
        ItemResult("b.com", value=rating),
        ItemResult("a.com", value=rating),
    ]
    run = finished_run(("a.com", "b.com", "c.com"), completed, {"b.com"})
    assert run.domains == ("a.com", "b.com", "c.com")
    assert list(run.frame["domain"]) == ["a.com", "b.com", "c.com"]
    assert run.figures == run_figures(completed, {"b.com"}, total=3)
    assert run.ended_by is quota
    assert finished_run(("a.com",), completed[2:], ()).ended_by is None


def test_the_start_button_says_what_a_run_costs_now() -> None:
    assert start_label(3, QuotaPlan(("a.com", "b.com"), ("c.com",)), again=False) == (
        "Check 3 domains (spends 2 quota units)"
    )
    assert start_label(1, QuotaPlan(("a.com",), ()), again=False) == "Check 1 domain (spends 1 quota unit)"
    assert (
        start_label(2, QuotaPlan((), ("a.com", "b.com")), again=True)
        == "Check 2 domains again (all cached: free)"
    )


def test_bulk_chart_bars_per_domain_then_bands_when_many() -> None:
    few = bulk_frame(
        [ItemResult(f"s{i}.com", value=DomainRating(domain=f"s{i}.com", dr=i)) for i in range(5)]
    )
    fig = bulk_dr_chart(few, dr_band_counts(few))
    assert list(fig.data[0].y) == [f"s{i}.com" for i in range(5)]
    many = bulk_frame(
        [ItemResult(f"s{i}.com", value=DomainRating(domain=f"s{i}.com", dr=i)) for i in range(MAX_BARS + 1)]
    )
    fig = bulk_dr_chart(many, dr_band_counts(many))
    assert sum(fig.data[0].y) == MAX_BARS + 1 and fig.data[0].x[0] == "0–9"


# --- Site check ----------------------------------------------------------------------------------


def test_missing_site_check_signals_are_named_and_never_zero() -> None:
    check = SiteCheck.model_validate(
        {
            "domain": "x.com",
            "verdict": "unreachable",
            "reachable": False,
            "shell": None,
            "rankedKeywords": None,
            "referringDomains": 0,
            "backlinks": 12,
            "spamScore": None,
        }
    )
    missing = missing_signals(check)
    assert "Ranked keywords" in missing and "Spam score (0–100)" in missing and "Text ratio" in missing
    assert "Referring domains" not in missing  # a real 0 is a value
    frame = signals_frame(check)
    shown = dict(zip(frame["signal"], frame["value"], strict=True))
    assert shown["Ranked keywords"] == "not available" and shown["Referring domains"] == "0"
    groups = signal_groups(check)
    assert list(groups) == ["Site", "Shell check", "Footprint"]
    assert [s for group in groups.values() for s in group] == signals(check)  # each once, in order


def test_unknown_verdicts_are_shown_as_they_came() -> None:
    assert verdict_style("real").colour == "green"
    assert verdict_style("parked").label == "parked" and verdict_style(None).label == "No verdict"


# --- Snippets and categories ---------------------------------------------------------------------


def test_only_http_image_urls_are_taken_from_snippet_html() -> None:
    assert img_src('<a href="x"><img alt="b" src="https://b.test/badge.svg?style=dark"></a>') == (
        "https://b.test/badge.svg?style=dark"
    )
    assert img_src('<img src="javascript:alert(1)">') is None
    assert img_src("<script>alert(1)</script>") is None and img_src(None) is None


def test_badge_variants_and_og_image() -> None:
    snippets = Snippets.model_validate(
        {
            "page": "https://v.test/site/a-com",
            "badge": "https://v.test/badge/a-com.svg",
            "html": '<img src="https://v.test/badge/a-com.svg">',
            "htmlDark": '<img src="data:image/svg+xml;base64,AAAA">',
            "ogImage": "https://v.test/og/a-com.svg",
        }
    )
    variants = {v.name: v for v in badge_variants(snippets)}
    assert variants["Light"].image_url == "https://v.test/badge/a-com.svg"
    assert variants["Dark"].image_url is None and variants["Dark"].html  # code shown, no preview
    assert "TrueDR" not in variants  # not given, not invented
    assert og_image(snippets) == "https://v.test/og/a-com.svg"
    assert list(snippets_frame(snippets)["snippet"])[:2] == ["Public page", "Badge image"]


def test_public_addresses_load_from_the_connected_service_and_others_stay() -> None:
    public, sandbox = "https://verifieddr.com", "http://127.0.0.1:8765/"

    def load(url: str | None, service: str = sandbox) -> str | None:
        return loaded_from(url, public_root=public, service_root=service)

    badge = "https://verifieddr.com/badge/a-com.svg?style=dark"
    assert load(badge) == "http://127.0.0.1:8765/badge/a-com.svg?style=dark"  # the demo copy, offline too
    assert load(badge, service=public) == badge  # on the real service, the address itself
    assert load("https://verifieddr.com.evil.test/x.svg") == "https://verifieddr.com.evil.test/x.svg"
    assert load("https://cdn.test/badge.svg") == "https://cdn.test/badge.svg"
    assert load("javascript:alert(1)") is None and load(None) is None  # never a link that is not http(s)


def test_categories_frame_and_limit_words() -> None:
    cats = Categories.model_validate({"categories": [{"value": "saas", "label": "SaaS"}, {"value": "x"}]})
    frame = categories_frame(cats)
    assert list(frame["value"]) == ["saas", "x"] and pd.isna(frame.loc[1, "label"])
    assert "did not say" in max_per_site_text(cats)
    assert "up to 3 categories" in max_per_site_text(Categories(categories=[], max_per_site=3))


# --- CSV sanitiser properties --------------------------------------------------------------------


def _cells(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=30), min_size=1, max_size=8))
def test_no_csv_cell_starts_a_formula(texts: list[str]) -> None:
    frame = pd.DataFrame({"text": texts, "obj": pd.Series(texts, dtype=object)})
    rows = _cells(safe_csv(frame))[1:]
    assert len(rows) == len(texts)  # a CR or LF inside a cell never starts a new row
    for row, text in zip(rows, texts, strict=True):
        assert row == [defuse_cell(text)] * 2
        for cell in row:
            assert not cell.startswith(FORMULA_START)


def test_a_carriage_return_cannot_smuggle_a_formula_into_a_new_row() -> None:
    data = safe_csv(pd.DataFrame({"anchor": ['ok\r=HYPERLINK("http://x")']}))
    assert b'"ok\r=HYPERLINK' in data  # quoted: spreadsheets keep it one cell


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.integers(-(10**12), 10**12), st.none()), min_size=1, max_size=8))
def test_numbers_are_left_as_numbers(values: list[int | None]) -> None:
    frame = pd.DataFrame({"n": pd.array(values, dtype="Int64")})
    written = [row[0] for row in _cells(safe_csv(frame))[1:]]
    assert written == ["" if v is None else str(v) for v in values]  # -3 stays -3, not '-3


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40).filter(lambda t: not t.startswith(FORMULA_START)))
def test_safe_text_round_trips_unchanged(text: str) -> None:
    assert defuse_cell(text) == text
    frame = pd.DataFrame({"t": pd.array([text], dtype="string"), "n": [1]})
    assert _cells(safe_csv(frame))[1] == [text, "1"]
