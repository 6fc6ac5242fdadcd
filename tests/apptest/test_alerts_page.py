"""The Alerts page in AppTest, in Live mode against the session sandbox, its store a temporary SQLite file
holding a constructed history (two Trust Map samples of your site: a strong link lost, a spam-risky
domain appeared) that the store's rules turn into alerts. The page lists them with a link to each chart,
acknowledging moves one to the Acknowledged tab and lowers the sidebar's count, a viewer's acknowledge
is refused and audited, an editor's rule change is audited, "Check now" says how many are new, and an
unreachable database is said in plain words. An alert's chart link opens the History page on its
subject: the Trust Map churn of that site, the positions of that tracked keyword on the site tracking it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

import pandas as pd
import pytest
from sqlalchemy import text
from streamlit.testing.v1 import AppTest

from analysis.links import alert_query, chart_query
from client.models import TrustMap
from client.settings import key_fingerprint
from components.alerts.frames import alert_words
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from sandbox.demo_history import tracked_on
from services.alerts.evaluate import evaluate_alerts
from store import HistoryStore
from tests.apptest.app_pages import as_read, open_page, shown_text, signed_in
from tests.store.samples import dofollow_map

ACCOUNT = key_fingerprint(DEMO_KEY)
MINE = ACCOUNTS[DEMO_KEY].sites[0]
TODAY = datetime.now(UTC).date()
PAGE = "views/alerts.py"
ACCESS = {"editors": ["ann@acme.com"], "viewers": ["@acme.com"], "contact": "it@acme.com"}
UNREACHABLE = "postgresql+psycopg://u:secret@127.0.0.1:1/x"


def _sample(*links: tuple[str, str, int, float]) -> TrustMap:
    return dofollow_map(MINE, links)


def _history(store: HistoryStore) -> None:
    """Your site's Trust Map a week ago and today: a DR 70 link went from live to lost, and a domain with
    a spam score of 85 appeared; the rest held still."""
    store.watchlist.watch(ACCOUNT, "domain", MINE, origin="own")
    steady = [(f"steady{n}.com", "live", 30, 5.0) for n in range(5)]
    before = _sample(("strong-partner.com", "live", 70, 2.0), *steady)
    after = _sample(("strong-partner.com", "lost", 70, 2.0), ("spammy-links.biz", "live", 12, 85.0), *steady)
    store.snapshots.record_trust_map(ACCOUNT, before, TODAY - timedelta(days=7), "job")
    store.snapshots.record_trust_map(ACCOUNT, after, TODAY, "job")


@pytest.fixture
def store(own_store: HistoryStore) -> HistoryStore:
    """A store of this test's own (the one the app opens) with the history's alerts found."""
    _history(own_store)
    found = evaluate_alerts(own_store, ACCOUNT, days=7)
    assert found.new >= 2, found  # the lost strong link and the spam-risky domain at least
    return own_store


def _open(email: str | None = None, **query: str) -> AppTest:
    at = open_page(PAGE, email=email, access=ACCESS, **query)
    assert not at.exception, [e.value for e in at.exception]
    return at


def _links(at: AppTest, page: str) -> list[tuple[str, str]]:
    links = [link.proto for link in at.get("page_link")]
    return [(link.label, link.query_string) for link in links if link.page == page]


def _sidebar_count(at: AppTest) -> str | None:
    counts = [label for label, _ in _links(at, "alerts")]
    return counts[0] if counts else None


def _count_words(open_alerts: int) -> str | None:
    """The sidebar's link for this many open alerts (None: it shows no count)."""
    return f"{open_alerts} open alert{'s' if open_alerts != 1 else ''}" if open_alerts else None


def _audit(store: HistoryStore) -> list[list[str]]:
    rows = store.audit.events(ACCOUNT)
    return rows[["person", "operation", "outcome"]].values.tolist()


def test_the_page_lists_the_open_alerts_newest_first_each_with_its_chart(store: HistoryStore) -> None:
    expected = store.alerts.entries(ACCOUNT)
    at = _open()
    titles = [m.value for m in at.markdown if m.value.startswith("**")]
    assert [as_read(t.strip("*")) for t in titles] == expected["title"].tolist()
    assert _links(at, "history") == [("Chart", urlencode(alert_query(row))) for row in expected.itertuples()]
    assert {"strong_link_lost", "spam_risky_link"} <= set(expected["rule"])
    assert _sidebar_count(at) == f"{len(expected)} open alerts"
    said = as_read(shown_text(at))  # as read, unescaped
    assert "Strong link lost" in said and "New spam-risky link" in said  # which rule, in words
    assert "live → lost" in said  # the evidence
    table = [frame.value for frame in at.dataframe if "title" in frame.value.columns]
    assert table and table[0]["title"].tolist() == expected["title"].tolist()  # the table has its CSV
    assert any("CSV" in str(d.proto.label) for d in at.get("download_button"))


def test_acknowledging_moves_an_alert_to_the_acknowledged_tab_and_lowers_the_sidebar_count(
    store: HistoryStore,
) -> None:
    before = store.alerts.entries(ACCOUNT)
    first = before.iloc[0]
    at = _open()
    at.button(key=f"alert_ack_{first['id']}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Acknowledged" in s.value for s in at.success)
    left = len(before) - 1
    assert _sidebar_count(at) == (f"{left} open alert{'s' if left != 1 else ''}" if left else None)
    assert first["id"] not in set(store.alerts.entries(ACCOUNT)["id"])
    assert not [b for b in at.button if b.key == f"alert_ack_{first['id']}"]

    done = _open(alerts_tab="Acknowledged")
    table = next(frame.value for frame in done.dataframe if "acknowledged_by" in frame.value.columns)
    assert table["title"].tolist() == [first["title"]]
    assert table["acknowledged_by"].tolist() == ["Local user"]  # sign-in is off
    assert pd.notna(table["acknowledged_at"].iloc[0])
    assert _audit(store) == [["local", "acknowledge_alert", "done"]]
    row = store.audit.events(ACCOUNT).iloc[0]  # which alert, in words: its rule, subject and day
    assert row["target"] == alert_words(first["rule_name"], first["subject"], first["day"])
    assert row["detail"] == first["title"]


def test_acknowledging_an_alert_someone_else_just_acknowledged_is_audited_as_no_change(
    store: HistoryStore,
) -> None:
    first = store.alerts.entries(ACCOUNT).iloc[0]
    at = _open()
    store.alerts.acknowledge_alert(ACCOUNT, int(first["id"]), "bob@acme.com")  # meanwhile, in another session
    at.button(key=f"alert_ack_{first['id']}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("acknowledged already" in s.value for s in at.success)
    assert _audit(store) == [["local", "acknowledge_alert", "no_change"]]


def test_the_activity_page_tells_two_acknowledged_alerts_apart_and_says_done(store: HistoryStore) -> None:
    found = store.alerts.entries(ACCOUNT)
    at = _open()
    for alert in (found.iloc[0], found.iloc[1]):
        at.button(key=f"alert_ack_{alert['id']}").click().run()
    activity = open_page("views/activity.py")
    assert not activity.exception, [e.value for e in activity.exception]
    rows = next(frame.value for frame in activity.dataframe if "outcome" in frame.value.columns)
    assert rows[["operation", "outcome"]].values.tolist() == [["Acknowledge alert", "Done"]] * 2
    assert rows["target"].tolist() == [
        alert_words(alert["rule_name"], alert["subject"], alert["day"])
        for alert in (found.iloc[1], found.iloc[0])
    ]
    assert rows["target"].nunique() == 2  # told apart by their rule, subject and day
    assert rows["message"].tolist() == [found.iloc[1]["title"], found.iloc[0]["title"]]  # what happened


def _webhook_deliveries(store: HistoryStore) -> list[tuple[str, int]]:
    with store.engine.connect() as conn:
        return [tuple(row) for row in conn.execute(text("SELECT state, attempts FROM alert_deliveries"))]


def test_reopening_puts_an_alert_back_among_the_open_ones_without_sending_it_again(
    own_store: HistoryStore,
) -> None:
    _history(own_store)
    evaluate_alerts(own_store, ACCOUNT, days=7, channels=["webhook"])
    with own_store.engine.begin() as conn:  # the webhook job has sent every one of them
        conn.execute(text("UPDATE alert_deliveries SET state = 'delivered', attempts = 1"))
    found = own_store.alerts.entries(ACCOUNT)
    first, second = found.iloc[0], found.iloc[1]
    for alert in (first, second):
        own_store.alerts.acknowledge_alert(ACCOUNT, int(alert["id"]), "ann@acme.com")
    sent = _webhook_deliveries(own_store)
    at = _open(alerts_tab="Acknowledged")
    assert _sidebar_count(at) == _count_words(len(found) - 2)
    at.button(key=f"alert_reopen_{first['id']}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Reopened" in s.value for s in at.success)
    assert _sidebar_count(at) == _count_words(len(found) - 1)  # up by one at once
    assert first["id"] in set(own_store.alerts.entries(ACCOUNT)["id"])
    assert own_store.alerts.entries(ACCOUNT, state="acknowledged")["id"].tolist() == [second["id"]]
    assert not [b for b in at.button if b.key == f"alert_reopen_{first['id']}"]
    assert _webhook_deliveries(own_store) == sent  # nothing waits to be sent again
    assert _audit(own_store) == [["local", "reopen_alert", "done"]]
    row = own_store.audit.events(ACCOUNT).iloc[0]
    assert row["target"] == alert_words(first["rule_name"], first["subject"], first["day"])

    opened = _open()  # it is an open alert again, with its Acknowledge button
    assert [b for b in opened.button if b.key == f"alert_ack_{first['id']}"]


def _forged_reopen(alert_id: int) -> None:
    """A reopen sent by a script as if the (disabled) button had been clicked anyway."""
    from components.alerts.changes import reopen, show_flash
    from components.core.cache.connection import current_connection

    reopen(current_connection(), alert_id, "forged")
    show_flash()


def test_a_viewer_sees_reopen_disabled_with_the_reason_and_a_forced_one_is_refused_and_audited(
    store: HistoryStore,
) -> None:
    first = store.alerts.entries(ACCOUNT).iloc[0]
    store.alerts.acknowledge_alert(ACCOUNT, int(first["id"]), "ann@acme.com")
    at = _open("val@acme.com", alerts_tab="Acknowledged")
    button = at.button(key=f"alert_reopen_{first['id']}")
    assert button.disabled and "Editors only" in str(button.help)
    editor = _open("ann@acme.com", alerts_tab="Acknowledged")
    assert not editor.button(key=f"alert_reopen_{first['id']}").disabled
    forged = AppTest.from_function(_forged_reopen, args=(int(first["id"]),), default_timeout=30)
    signed_in(forged, "val@acme.com", ACCESS).run()
    assert not forged.exception, [e.value for e in forged.exception]
    assert any(w.value.startswith("Editors only") for w in forged.warning)
    assert first["id"] not in set(store.alerts.entries(ACCOUNT)["id"])  # still acknowledged
    assert _audit(store) == [["val@acme.com", "reopen_alert", "refused_by_role"]]


def _forged_acknowledge(alert_id: int) -> None:
    """An acknowledge sent by a script as if the (disabled) button had been clicked anyway."""
    from components.alerts.changes import acknowledge, show_flash
    from components.core.cache.connection import current_connection

    acknowledge(current_connection(), alert_id, "forged")
    show_flash()


def test_a_viewers_acknowledge_is_refused_with_the_reason_and_audited(store: HistoryStore) -> None:
    first = store.alerts.entries(ACCOUNT).iloc[0]
    at = _open("val@acme.com")
    ack = at.button(key=f"alert_ack_{first['id']}")
    assert ack.disabled and "Editors only" in str(ack.help)
    assert at.button(key="alerts_check_now").disabled
    forged = AppTest.from_function(_forged_acknowledge, args=(int(first["id"]),), default_timeout=30)
    signed_in(forged, "val@acme.com", ACCESS).run()
    assert not forged.exception, [e.value for e in forged.exception]
    assert any(w.value.startswith("Editors only") for w in forged.warning)
    assert first["id"] in set(store.alerts.entries(ACCOUNT)["id"])  # still open
    assert _audit(store) == [["val@acme.com", "acknowledge_alert", "refused_by_role"]]


def test_an_editor_changes_a_rule_and_the_change_is_audited(store: HistoryStore) -> None:
    at = _open("ann@acme.com", alerts_tab="Rules")
    at.number_input(key="alerts_rule_threshold_authority_drop").set_value(4.0)
    at.toggle(key="alerts_rule_on_keyword_moved").set_value(False)
    at.button(key="alerts_rules_save").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Saved" in s.value and "at least 4 points" in s.value for s in at.success)
    settings = store.alerts.alert_settings(ACCOUNT)
    assert (settings["authority_drop"].threshold, settings["authority_drop"].enabled) == (4.0, True)
    assert not settings["keyword_moved"].enabled
    assert sorted(_audit(store)) == [["ann@acme.com", "change_alert_rule", "done"]] * 2
    targets = set(store.audit.events(ACCOUNT)["target"])
    assert "DR or TrueDR dropped: on, at least 4 points" in targets and "Keyword moved: off" in targets

    viewer = _open("val@acme.com", alerts_tab="Rules")
    assert viewer.number_input(key="alerts_rule_threshold_authority_drop").value == 4.0
    assert viewer.number_input(key="alerts_rule_threshold_authority_drop").disabled
    assert viewer.toggle(key="alerts_rule_on_keyword_moved").disabled
    assert "Editors only" in shown_text(viewer)


def _switch_tab(at: AppTest, tab: str) -> AppTest:
    """Open another tab, as a click on it does: the tabs' own value and the URL change (which names no
    tab for the first one, as the browser's does not)."""
    at.session_state["alerts_tab"] = tab
    if tab == "Open":
        at.query_params.pop("alerts_tab", None)
    else:
        at.query_params["alerts_tab"] = tab
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_rule_edits_are_kept_across_tabs_with_a_note_until_saved(store: HistoryStore) -> None:
    at = _open("ann@acme.com", alerts_tab="Rules")
    at.number_input(key="alerts_rule_threshold_authority_drop").set_value(4.0).run()
    at.toggle(key="alerts_rule_on_keyword_moved").set_value(False).run()
    assert "Unsaved changes" in shown_text(at)
    _switch_tab(at, "Open")
    assert "Unsaved changes" not in shown_text(at)
    _switch_tab(at, "Rules")
    assert at.number_input(key="alerts_rule_threshold_authority_drop").value == 4.0  # kept
    assert at.toggle(key="alerts_rule_on_keyword_moved").value is False
    said = as_read(shown_text(at))
    assert "Unsaved changes" in said and "DR or TrueDR dropped (on, at least 4 points)" in said
    assert store.alerts.alert_settings(ACCOUNT)["authority_drop"].threshold == 2.0  # not saved yet
    at.button(key="alerts_rules_save").click().run()
    assert any("Saved" in s.value for s in at.success)
    assert "Unsaved changes" not in shown_text(at)
    settings = store.alerts.alert_settings(ACCOUNT)
    assert settings["authority_drop"].threshold == 4.0 and not settings["keyword_moved"].enabled


def test_discarding_rule_edits_puts_the_saved_rules_back(store: HistoryStore) -> None:
    at = _open("ann@acme.com", alerts_tab="Rules")
    assert at.button(key="alerts_rules_discard").disabled  # nothing to discard yet
    at.number_input(key="alerts_rule_threshold_authority_drop").set_value(7.0).run()
    _switch_tab(_switch_tab(at, "Acknowledged"), "Rules")
    assert at.number_input(key="alerts_rule_threshold_authority_drop").value == 7.0
    at.button(key="alerts_rules_discard").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.number_input(key="alerts_rule_threshold_authority_drop").value == 2.0
    assert "Unsaved changes" not in shown_text(at)
    assert store.alerts.alert_settings(ACCOUNT)["authority_drop"].threshold == 2.0
    assert _audit(store) == []  # nothing was changed, so nothing to audit


def test_saving_the_rules_unchanged_is_audited_as_no_change(store: HistoryStore) -> None:
    at = _open("ann@acme.com", alerts_tab="Rules")
    at.button(key="alerts_rules_save").click().run()
    assert any("Nothing to save" in s.value for s in at.success)
    assert _audit(store) == [["ann@acme.com", "change_alert_rule", "no_change"]]


def test_check_now_says_how_many_alerts_are_new(own_store: HistoryStore) -> None:
    _history(own_store)
    at = _open()
    assert "No open alerts" in shown_text(at)
    at.button(key="alerts_check_now").click().run()
    found = len(own_store.alerts.entries(ACCOUNT))
    assert found >= 2
    assert any(f"{found} new alerts" in s.value for s in at.success)
    assert _sidebar_count(at) == f"{found} open alerts"
    at.button(key="alerts_check_now").click().run()
    assert any("0 new alerts" in s.value and "listed already" in s.value for s in at.success)
    assert _audit(own_store) == [["local", "check_alerts", "no_change"], ["local", "check_alerts", "done"]]


def test_an_unreachable_database_is_said_in_plain_words(
    live_env: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DASHBOARD_DATABASE_URL", UNREACHABLE)
    at = _open()
    said = shown_text(at)
    assert "History is unavailable" in said and ":secret@" not in as_read(said)  # no password
    assert _sidebar_count(at) is None


def test_a_trust_map_alerts_link_opens_the_churn_of_its_site(own_store: HistoryStore) -> None:
    other = ACCOUNTS[DEMO_KEY].sites[1]  # not the site the tab opens on by default
    at = open_page("views/history.py", **chart_query("trust_map", other))
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="history_churn_domain").value == other


def test_a_keyword_alerts_link_opens_the_site_that_tracks_it_with_that_keyword_charted(
    own_store: HistoryStore,
) -> None:
    other = ACCOUNTS[DEMO_KEY].sites[1]
    for back in range(3):
        day = TODAY - timedelta(days=back)
        own_store.snapshots.record_tracked(ACCOUNT, tracked_on(DEMO_KEY, other, day), day, "job")
    keyword = tracked_on(DEMO_KEY, other, TODAY).keywords[-1].keyword
    at = open_page("views/history.py", **chart_query("keyword", keyword))
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="history_kw_site").value == other
    assert at.multiselect(key="history_kw_chosen").value == [keyword]
