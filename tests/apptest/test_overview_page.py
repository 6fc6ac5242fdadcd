"""The Domain overview page in Streamlit's AppTest: what a user sees for good input, bad input and faults."""

from __future__ import annotations

import pytest

from client import ApiClient
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from tests.apptest.app_pages import empty_caches, metric, open_page, shown_text

DEMO_SITE = ACCOUNTS[DEMO_KEY].sites[0]


def test_happy_path_shows_the_lookup(live_env: SandboxServer) -> None:
    at = open_page()
    assert not at.exception
    at.text_input(key="domain").input(f"https://www.{DEMO_SITE}/about").run()
    assert not at.exception
    with ApiClient(live_env.base_url, DEMO_KEY) as client:
        expected = client.lookup(DEMO_SITE)
    assert metric(at, "DR") == str(expected.authority.dr)
    assert metric(at, "TrueDR") == str(expected.authority.true_dr)
    assert len(at.get("plotly_chart")) >= 1


def test_domain_is_read_from_the_url(live_env: SandboxServer) -> None:
    at = open_page(domain=DEMO_SITE)
    assert not at.exception
    assert at.text_input(key="domain").value == DEMO_SITE
    assert metric(at, "DR") != "not available"


def test_reruns_spend_no_api_call(live_env: SandboxServer) -> None:
    at = open_page(domain=DEMO_SITE)
    served = live_env.state.total_requests()
    at.run()
    at.toggle(key="compare").set_value(True).run()
    at.toggle(key="compare").set_value(False).run()
    assert not at.exception
    assert live_env.state.total_requests() == served


def test_bad_input_is_explained_and_kept(live_env: SandboxServer) -> None:
    at = open_page()
    served = live_env.state.total_requests()
    at.text_input(key="domain").input("not a domain!").run()
    assert not at.exception
    assert at.warning and "Check what you typed" in at.warning[0].value
    assert at.text_input(key="domain").value == "not a domain!"
    assert live_env.state.total_requests() == served  # refused before any request


def test_401_says_the_key_was_not_accepted(live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch) -> None:
    marker = "vdr_wrong_key_marker"
    monkeypatch.setenv("VERIFIEDDR_API_KEY", marker)
    at = open_page(domain=DEMO_SITE)
    assert not at.exception
    assert at.error and "key was not accepted" in at.error[0].value
    assert marker not in shown_text(at)


def test_402_gate_shows_its_upgrade_link(live_env: SandboxServer) -> None:
    live_env.state.add_fault("lookup", "402-gate")
    at = open_page(domain=DEMO_SITE)
    assert not at.exception
    assert at.warning and "needs" in at.warning[0].value
    assert len(at.get("link_button")) >= 1


def test_503_says_the_data_is_being_refreshed_and_recovers(live_env: SandboxServer) -> None:
    live_env.state.add_fault("lookup", 503)
    at = open_page(domain=DEMO_SITE)
    assert not at.exception
    assert at.info and "being refreshed" in at.info[0].value
    live_env.state.clear_faults()
    at.run()  # a transient error is not cached: the next run asks again and recovers
    assert not at.exception
    assert metric(at, "DR") != "not available"


def test_compare_mode_lists_each_domain_and_its_problem(live_env: SandboxServer) -> None:
    at = open_page(compare="true")
    assert not at.exception
    at.text_area(key="domains").input(f"{DEMO_SITE}, stripe.com\nnot-a-domain\nstripe.com").run()
    assert not at.exception
    frames = at.dataframe
    assert frames, "no comparison table"
    table = frames[0].value
    # De-duplicated, in the order typed; the entry that is no domain keeps its row (it was a warning).
    assert list(table["domain"]) == [DEMO_SITE, "stripe.com", "not-a-domain"]
    assert table["error"].isna().tolist()[:2] == [True, True]
    assert table.loc[2, "error"].startswith("Skipped: ")
    assert not at.warning
    assert "Merged 1 duplicate" in shown_text(at)  # the second stripe.com is named, not dropped
    assert len(at.get("download_button")) >= 1
    assert len(at.get("plotly_chart")) >= 1


def test_without_a_key_the_embedded_sandbox_serves_demo_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIEDDR_API_KEY", "")
    empty_caches()
    at = open_page(domain="stripe.com")
    assert not at.exception
    assert any("Demo data" in i.value for i in at.sidebar.info)
    assert metric(at, "DR") != "not available"


def test_a_hung_service_leaves_a_message_within_the_timeout(
    live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFIEDDR_TIMEOUT", "1")
    live_env.state.add_fault("lookup", "timeout")
    at = open_page(domain=DEMO_SITE)
    assert not at.exception
    assert at.error and "did not answer in time" in at.error[0].value
    assert at.text_input(key="domain").value == DEMO_SITE
    # Counted, not timed (a busy machine can't make this fail): the read that ran out of time was
    # asked once, not retried, so a person waits one timeout, not minutes.
    assert live_env.state.count("GET", f"/api/v1/lookup/{DEMO_SITE}") == 1


def test_a_demo_domain_is_one_click_away_on_the_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIEDDR_API_KEY", "")
    empty_caches()
    at = open_page()
    at.text_input(key="domain").input("").run()  # the start page opened on the demo's own site
    demo_buttons = [b for b in at.button if b.key and b.key.startswith("demo_")]
    assert demo_buttons, "no demo domains offered on the sandbox"
    chosen = demo_buttons[0]
    chosen.click().run()
    assert not at.exception
    assert at.text_input(key="domain").value == chosen.label
    assert metric(at, "DR") != "not available"


def test_the_first_page_opens_on_the_demos_own_site_on_the_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's first command promises demo data: with no key and no domain chosen yet, the start
    page shows the demo account's first own site (and says so in its address), not an empty field."""
    monkeypatch.setenv("VERIFIEDDR_API_KEY", "")
    empty_caches()
    at = open_page()
    assert not at.exception
    assert at.text_input(key="domain").value == DEMO_SITE
    assert at.query_params["domain"] == DEMO_SITE
    assert metric(at, "DR") != "not available"
    # Emptied by the person, the field stays empty (the demo buttons show), also after another page.
    at.text_input(key="domain").input("").run()
    assert not at.exception
    assert any(b.key and b.key.startswith("demo_") for b in at.button)
    at.switch_page("views/trust-map.py").run()
    at.switch_page("views/overview.py").run()
    assert not at.exception
    assert at.text_input(key="domain").value == ""


def test_a_domain_in_the_address_wins_over_the_demo_site(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIEDDR_API_KEY", "")
    empty_caches()
    at = open_page(domain="stripe.com")
    assert at.text_input(key="domain").value == "stripe.com"


def test_live_mode_opens_on_an_empty_field(live_env: SandboxServer) -> None:
    at = open_page()
    assert not at.exception
    assert not at.text_input(key="domain").value  # no demo to promise on a real account
