"""The research pages in Streamlit's AppTest: happy paths, empty results, error statuses and filters."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from analysis.research.frames.site_check import missing_signals
from analysis.research.frames.trust_map import SPAM_RISK_FROM
from client import ApiClient
from components.core.cache.connection import MODE_KEY, embedded_sandbox
from components.core.nav.browser_history import SCRIPT_MARK
from sandbox import DEMO_KEY, SandboxConfig, SandboxServer
from sandbox.data import SHELL_SITE, SUSPICIOUS_SITE, UNREACHABLE_SITE, dr_for, is_listed, is_map_cold
from sandbox.site_checks import SEEDED_SITE_CHECKS
from tests.apptest.app_pages import APP, as_read, empty_caches, metric, open_page, shown_text
from tests.hostile_map import map_in_front

QUOTA = 1000
#: Deterministic sandbox domains for each situation, found through the sandbox's own rules.
CANDIDATES = [f"research{i}.com" for i in range(400)]
UNLISTED = next(d for d in CANDIDATES if not is_listed(d))
COLD_MAP = next(d for d in CANDIDATES if is_map_cold(d))
NO_REPORT = next(d for d in ("hubspot.com", "moz.com") if d not in SEEDED_SITE_CHECKS)


def _requests(server: SandboxServer, fragment: str) -> int:
    return sum(1 for _, path, _, _ in server.state.request_log if fragment in path)


def _spent(server: SandboxServer) -> int:
    return QUOTA - server.state.quota_remaining(DEMO_KEY, QUOTA)


# --- Trust Map -----------------------------------------------------------------------------------


def test_trust_map_shows_header_charts_and_every_referring_domain(live_env: SandboxServer) -> None:
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        expected = client.trust_map("stripe.com")
    at = open_page("views/trust-map.py", domain="stripe.com")
    assert not at.exception
    assert metric(at, "DR") == str(expected.site.dr)
    assert metric(at, "Referring domains") == f"{expected.total_domains:,}"
    table = at.dataframe[0].value
    assert list(table["domain"]) == [d.domain for d in expected.domains]
    assert len(at.get("plotly_chart")) == 4
    assert [b.proto.label for b in at.download_button] == ["Download CSV", "Raw CSV"]  # as shown, and raw
    assert f"of {expected.total_domains:,} referring domains" in shown_text(at)  # labelled as a sample


def test_a_trust_map_with_an_unusable_row_shows_the_usable_ones_and_names_the_other(
    live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer's fourth referring "domain" is a spreadsheet formula (``tests.hostile_map``): the page
    shows the three usable rows and one plain note naming the fourth, as text."""
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        expected = client.trust_map("stripe.com")
    with map_in_front(live_env.base_url) as base:
        monkeypatch.setenv("VERIFIEDDR_API_BASE", base)
        at = open_page("views/trust-map.py", domain="stripe.com")
    assert not at.exception, [e.value for e in at.exception]
    assert list(at.dataframe[0].value["domain"]) == [d.domain for d in expected.domains[:3]]
    assert metric(at, "In this map") == "3"
    notes = [w.value for w in at.warning]
    assert len(notes) == 1
    assert as_read(notes[0]) == (
        "1 referring domain in the answer could not be used: row 4 (\"=cmd|' /C calc'!A0\"): "
        "its name is not a domain name."
    )
    assert "\\|" in notes[0]  # the answer's text is shown escaped, as characters, never as Markdown
    assert "=cmd" not in "".join(at.dataframe[0].value["domain"].astype(str))


def test_trust_map_filters_reshape_the_table_without_asking_again(live_env: SandboxServer) -> None:
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        rows = client.trust_map("example.com").domains
    at = open_page("views/trust-map.py", domain="example.com")
    served = live_env.state.total_requests()
    at.slider(key="map_min_dr").set_value(50).run()
    assert not at.exception
    assert sorted(at.dataframe[0].value["domain"]) == sorted(r.domain for r in rows if (r.dr or 0) >= 50)
    at.multiselect(key="map_link_type").set_value(["nofollow"]).run()
    shown = at.dataframe[0].value
    assert sorted(shown["domain"]) == sorted(
        r.domain for r in rows if (r.dr or 0) >= 50 and r.link_type == "nofollow"
    )
    at.slider(key="map_min_dr").set_value(0).run()
    at.multiselect(key="map_link_type").set_value([]).run()
    at.slider(key="map_max_spam").set_value(SPAM_RISK_FROM - 1).run()
    assert not at.dataframe[0].value["spam_risk"].any()
    assert live_env.state.total_requests() == served  # filters never call the API


def test_trust_map_filters_that_match_nothing_say_so(live_env: SandboxServer) -> None:
    at = open_page("views/trust-map.py", domain="example.com", map_min_dr="100", map_max_spam="0")
    assert not at.exception
    assert not at.dataframe
    assert any("matches these filters" in i.value for i in at.info)


def test_cold_trust_map_says_it_is_being_built_not_an_error(live_env: SandboxServer) -> None:
    at = open_page("views/trust-map.py", domain=COLD_MAP)
    assert not at.exception
    assert not at.error
    assert any("is being built" in i.value and "next refresh" in i.value for i in at.info)
    assert any(b.label == "Try again" for b in at.button)
    assert [b.label for b in at.get("link_button")] == ["Open on VerifiedDR"]


def test_cold_map_is_asked_again_on_retry(live_env: SandboxServer) -> None:
    live_env.state.add_fault("trust_map", 503, times=3)  # the first ask and the client's two retries
    at = open_page("views/trust-map.py", domain="example.com")
    assert any("is being built" in i.value for i in at.info)
    at.button(key="map_retry").click().run()  # a 503 is not cached: the retry asks again
    assert not at.exception
    assert at.dataframe


@pytest.mark.parametrize(
    ("domain", "fault", "words"),
    [
        (UNLISTED, None, "Not found"),
        ("example.com", 500, "reported a problem"),
        ("example.com", "badtypes", "something unexpected"),
        ("example.com", 401, "key was not accepted"),
    ],
)
def test_trust_map_errors_are_explained(
    live_env: SandboxServer, domain: str, fault: int | str | None, words: str
) -> None:
    if fault is not None:
        live_env.state.add_fault("trust_map", fault)
    at = open_page("views/trust-map.py", domain=domain)
    assert not at.exception
    assert words in shown_text(at)
    assert at.text_input(key="domain").value == domain  # what was typed is kept


# --- Site check ----------------------------------------------------------------------------------


def test_site_check_asks_before_spending_a_unit(live_env: SandboxServer) -> None:
    at = open_page("views/site-check.py", domain=SUSPICIOUS_SITE)
    assert not at.exception
    assert any("1 quota unit" in i.value for i in at.info)
    assert _requests(live_env, "/site-check/") == 0 and _spent(live_env) == 0
    at.button(key=f"check_read_{SUSPICIOUS_SITE}").click().run()
    assert not at.exception
    assert _spent(live_env) == 1
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        report = client.site_check(SUSPICIOUS_SITE)
    assert any("Suspicious" in s.value for s in at.subheader)
    text = shown_text(at)
    assert report.reasons and all(reason.split(" ")[1] in text for reason in report.reasons)
    at.run()  # a rerun reads the cache: no unit, no button
    assert _requests(live_env, "/site-check/") == 2  # the page's one read and the test's own
    assert not [b for b in at.button if b.key and b.key.startswith("check_read_")]


def test_a_clean_report_says_nothing_wrong_was_found(live_env: SandboxServer) -> None:
    at = open_page("views/site-check.py", domain="example.com")
    at.button(key="check_read_example.com").click().run()
    assert not at.exception
    assert any("Nothing wrong found" in s.value for s in at.success)
    assert any("Real site" in s.value for s in at.subheader)


@pytest.mark.parametrize("domain", [UNREACHABLE_SITE, "northwind-coffee.com", SHELL_SITE])
def test_missing_signals_are_not_available_and_weaken_the_evidence(
    live_env: SandboxServer, domain: str
) -> None:
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        report = client.site_check(domain)
    at = open_page("views/site-check.py", domain=domain)
    at.button(key=f"check_read_{domain}").click().run()
    assert not at.exception
    missing = missing_signals(report)
    if missing:
        assert any(f"{len(missing)} of" in w.value and "weaken the evidence" in w.value for w in at.warning)
        assert sum(m.value == "not available" for m in at.metric) >= len(missing) - 1  # title is not a card
    else:
        assert not at.warning


def test_no_report_yet_explains_how_one_is_created(live_env: SandboxServer) -> None:
    at = open_page("views/site-check.py", domain=NO_REPORT)
    at.button(key=f"check_read_{NO_REPORT}").click().run()
    assert not at.exception
    assert any("no site-check report" in i.value and "site check" in i.value for i in at.info)
    assert [p.label for p in at.get("page_link")] == ["Submit a site with a site check"]


def test_site_check_with_a_spent_quota_says_so(live_env: SandboxServer) -> None:
    live_env.state.add_fault("site_check", 402)
    at = open_page("views/site-check.py", domain="example.com")
    at.button(key="check_read_example.com").click().run()
    assert not at.exception
    assert any("quota is used up" in w.value for w in at.warning)


# --- Bulk DR checker -----------------------------------------------------------------------------


def _bulk(at: AppTest, text: str) -> AppTest:
    return at.text_area(key="bulk_domains").input(text).run()


def test_bulk_shows_rejects_and_cost_then_rates_every_domain(live_env: SandboxServer) -> None:
    at = open_page("views/bulk-dr.py")
    _bulk(at, "stripe.com\nhttps://WWW.Stripe.com/pricing, example.com\nlocalhost\nblog.acme-widgets.com")
    assert not at.exception
    domains = ["stripe.com", "example.com", "acme-widgets.com"]
    rejected = next(e for e in at.expander if "skipped" in e.label).dataframe[0].value
    assert list(rejected["entry"]) == ["localhost"]
    assert metric(at, "Domains to check") == "3" and metric(at, "Quota units this run") == "3"
    assert _requests(live_env, "/dr/") == 0  # nothing is spent before the start button
    at.button(key="bulk_start").click().run()
    assert not at.exception
    table = at.dataframe[-1].value
    assert list(table["domain"]) == domains
    assert list(table["dr"]) == [dr_for(d) for d in domains]
    assert _spent(live_env) == 3
    assert len(at.get("plotly_chart")) == 1
    # Each table has its download: skipped entries, merged duplicates (WWW.Stripe), the results.
    keys = {b.key for b in at.download_button}
    assert {"bulk_rejected_csv", "bulk_merged_csv", "bulk_dr_csv"} <= keys
    # After the run the cards say what it did, like its headline (they used to show the next run's cost).
    assert metric(at, "Domains checked") == "3" and metric(at, "Quota units spent") == "3"
    assert metric(at, "Answered from the cache (free)") == "0"
    assert "spent 3 quota units; 0 came from the cache" in shown_text(at)
    # The same run again within the ttl spends nothing and asks nothing, and its button says so.
    assert at.button(key="bulk_start").label == "Check 3 domains again (all cached: free)"
    at.button(key="bulk_start").click().run()
    assert _spent(live_env) == 3 and _requests(live_env, "/dr/") == 3
    assert "spent 0 quota units" in shown_text(at)
    assert metric(at, "Quota units spent") == "0" and metric(at, "Answered from the cache (free)") == "3"


def test_bulk_spends_only_for_domains_not_yet_cached(live_env: SandboxServer) -> None:
    at = open_page("views/bulk-dr.py")
    _bulk(at, "stripe.com, github.com")
    at.button(key="bulk_start").click().run()
    _bulk(at, "stripe.com, github.com, example.com, hubspot.com, moz.com")
    assert metric(at, "Quota units this run") == "3"
    assert metric(at, "Answered from the cache (free)") == "2"
    at.button(key="bulk_start").click().run()
    assert not at.exception
    assert _spent(live_env) == 5  # 2 + 3: cached domains spent nothing the second time
    assert len(at.dataframe[-1].value) == 5


def test_bulk_keeps_a_failed_domain_in_the_table_and_counts_it_again(live_env: SandboxServer) -> None:
    live_env.state.add_fault("dr", 500, times=1)
    at = open_page("views/bulk-dr.py")
    _bulk(at, "stripe.com, github.com, example.com, hubspot.com")
    at.button(key="bulk_start").click().run()
    assert not at.exception
    table = at.dataframe[-1].value
    assert len(table) == 4 and table["error"].notna().sum() == 1
    assert table["dr"].notna().sum() == 3
    assert metric(at, "Quota units spent") == "3"
    # The failure was not cached: checking again costs a unit (was read from the cards, which now
    # show what the run did).
    assert at.button(key="bulk_start").label == "Check 4 domains again (spends 1 quota unit)"


def test_bulk_says_what_became_of_every_line(live_env: SandboxServer) -> None:
    at = open_page("views/bulk-dr.py")
    _bulk(at, "stripe.com\nhttps://www.stripe.com/pricing\nnot a domain!!\nexample.com, STRIPE.COM")
    assert not at.exception
    assert "5 entries on 4 lines: 2 domains to check, 2 duplicates merged, 1 skipped." in shown_text(at)
    merged = next(e for e in at.expander if "duplicates merged" in e.label)
    table = merged.dataframe[0].value
    assert list(table["entry"]) == ["https://www.stripe.com/pricing", "STRIPE.COM"]
    assert list(table["same_as"]) == ["stripe.com", "stripe.com"]
    skipped = next(e for e in at.expander if "skipped" in e.label)
    assert list(skipped.dataframe[0].value["entry"]) == ["not a domain!!"]  # once, as typed
    assert metric(at, "Domains to check") == "2"


def test_bulk_reads_an_uploaded_csv(live_env: SandboxServer) -> None:
    at = open_page("views/bulk-dr.py")
    data = (
        b"Name,Website\nStripe,https://stripe.com\nAcme,acme-widgets.com\nAcme again,www.acme-widgets.com\n"
    )
    at.file_uploader(key="bulk_upload").set_value(("sites.csv", data, "text/csv")).run()
    assert not at.exception
    assert metric(at, "Domains to check") == "2"
    assert not [e for e in at.expander if "skipped" in e.label]  # the header is not a bad domain


def test_bulk_with_a_spent_quota_stops_and_says_so(live_env: SandboxServer) -> None:
    live_env.state.add_fault("dr", 402)
    at = open_page("views/bulk-dr.py")
    _bulk(at, "stripe.com, github.com, example.com, hubspot.com, moz.com, ahrefs.com")
    at.button(key="bulk_start").click().run()
    assert not at.exception
    assert any("quota is used up" in w.value for w in at.warning)
    table = at.dataframe[-1].value
    assert len(table) == 6 and table["error"].notna().all()


@pytest.fixture
def limited_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[SandboxServer]:
    """The app against a sandbox that allows 20 requests per second per key."""
    with SandboxServer(SandboxConfig(rate_limit=20, quota=QUOTA), host="127.0.0.1", port=0) as server:
        monkeypatch.setenv("VERIFIEDDR_API_BASE", server.base_url)
        monkeypatch.setenv("VERIFIEDDR_API_KEY", DEMO_KEY)
        empty_caches()
        yield server
        empty_caches()


def test_bulk_under_a_rate_limit_loses_no_domain(limited_env: SandboxServer) -> None:
    domains = [f"ratelimited{i}.com" for i in range(24)]
    at = open_page("views/bulk-dr.py")
    limited_env.state.reset()  # the page's own first calls (sidebar quota) must not eat the burst
    limited_env.state.add_fault("dr", 429, times=1, retry_after=1)  # the limit is met for sure
    _bulk(at, "\n".join(domains))
    at.button(key="bulk_start").click().run()
    assert not at.exception
    table = at.dataframe[-1].value
    assert list(table["domain"]) == domains  # none lost, in the order given
    assert table["error"].isna().all()
    assert list(table["dr"]) == [dr_for(d) for d in domains]
    # The 429 was asked again (after its Retry-After) and spent nothing; each domain spent one unit.
    assert _requests(limited_env, "/dr/") == len(domains) + 1
    assert _spent(limited_env) == len(domains)
    assert f"spent {len(domains)} quota units" in shown_text(at)


# --- Badges & snippets ---------------------------------------------------------------------------


def test_badges_show_the_snippets_as_code_and_preview_only_images(live_env: SandboxServer) -> None:
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        snippets = client.snippets("example.com")
    at = open_page("views/badges.py", domain="example.com")
    assert not at.exception
    code = [c.value for c in at.code]
    assert snippets.html in code and snippets.markdown in code and snippets.share_text in code
    assert snippets.html_dark in code and snippets.html_true_dr in code
    assert len(at.image) == 3  # light, dark and TrueDR previews, as images
    # The API's HTML is never rendered (the only HTML is the app's own script: see browser_history.py).
    assert all(SCRIPT_MARK in html.proto.body for html in at.get("html"))
    assert not any("<img" in m.value for m in at.markdown)
    assert {b.label for b in at.get("link_button")} == {"Public page", "Share image"}


def test_the_service_address_is_shown_without_its_password(
    live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A service root with a user and password in it (a proxy in front of the service that asks for
    one): the sidebar names the service, never the password (the page itself may fail: the client
    sends the key, not that password)."""
    base = live_env.base_url.replace("http://", "http://probe:Upass-4410@", 1)
    monkeypatch.setenv("VERIFIEDDR_API_BASE", base)
    at = open_page("views/badges.py", domain="example.com")
    assert not at.exception
    service = [c.value for c in at.sidebar.caption if c.value.startswith("Service:")]
    assert service and "probe:***@127.0.0.1" in as_read(service[0]), service
    assert "Upass" not in shown_text(at) and not any("Upass" in c.value for c in at.sidebar.caption)


def test_badges_in_sandbox_mode_say_they_are_demo_snippets_with_public_addresses(
    live_env: SandboxServer,
) -> None:
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[MODE_KEY] = "sandbox"
    at.query_params["domain"] = "example.com"
    at.switch_page("views/badges.py")
    at = at.run()
    assert not at.exception
    sandbox_root = embedded_sandbox().base_url
    code = "\n".join(c.value for c in at.code)
    assert "https://verifieddr.com/site/example-com" in code  # the public form, as the real service answers
    assert sandbox_root not in code and "127.0.0.1" not in code  # never a dead local link to paste
    assert "Demo snippets" in shown_text(at) and "made up" in shown_text(at)
    previews = [img.proto.imgs[0].url for img in at.image]
    assert previews and all(url.startswith(f"{sandbox_root}/badge/") for url in previews)  # load offline
    buttons = {b.label: b.proto.url for b in at.get("link_button")}
    assert buttons["Public page"] == f"{sandbox_root}/site/example-com"  # the demo copy of the page


def test_badges_for_an_unlisted_site_say_why_there_are_none(live_env: SandboxServer) -> None:
    at = open_page("views/badges.py", domain=UNLISTED)
    assert not at.exception
    assert "Not found" in shown_text(at) and "only for listed sites" in shown_text(at)


def test_badges_survive_an_answer_full_of_nulls(live_env: SandboxServer) -> None:
    live_env.state.add_fault("snippets", "nulls")
    at = open_page("views/badges.py", domain="example.com")
    assert not at.exception
    assert not at.code
    assert "gave no badge" in shown_text(at)


# --- Categories ----------------------------------------------------------------------------------


def test_categories_table_and_limit(live_env: SandboxServer) -> None:
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        expected = client.categories()
    at = open_page("views/categories.py")
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["value"]) == [c.value for c in expected.categories]
    assert metric(at, "Categories per site, at most") == str(expected.max_per_site)
    assert [b.proto.label for b in at.download_button] == ["Download CSV", "Raw CSV"]  # as shown, and raw


def test_categories_without_a_limit_say_it_is_not_stated(live_env: SandboxServer) -> None:
    live_env.state.add_fault("categories", "nulls")
    at = open_page("views/categories.py")
    assert not at.exception
    assert metric(at, "Categories per site, at most") == "not stated"
    assert "did not say how many" in shown_text(at)
    assert at.dataframe[0].value["label"].isna().all()


@pytest.mark.parametrize(("fault", "words"), [(503, "being refreshed"), ("nonjson", "something unexpected")])
def test_categories_errors_are_explained(live_env: SandboxServer, fault: int | str, words: str) -> None:
    live_env.state.add_fault("categories", fault)
    at = open_page("views/categories.py")
    assert not at.exception
    assert words in shown_text(at)
