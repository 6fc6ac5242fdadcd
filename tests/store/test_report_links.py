"""Share links in the history database (SQLite and PostgreSQL): a link opens while valid, and says
plainly why not once expired, revoked, altered or unknown; two store handles (two replicas, or the app
and the cron job) sign with the same key; opening is audited by "someone with the link"."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from store import HistoryStore
from store.reports.links import ANYONE, EXPIRED, NOT_VALID, REVOKED, LinkRefused
from store.reports.period import parse_month
from tests.store.samples import ACCOUNT, OTHER_ACCOUNT

PERIOD = parse_month("2026-10")
NOW = datetime(2026, 11, 3, 9, 30, tzinfo=UTC)


def _refusal(store: HistoryStore, token: str, **kwargs: object) -> str:
    with pytest.raises(LinkRefused) as refused:
        store.report_links.open_report_link(token, **kwargs)  # type: ignore[arg-type]
    return refused.value.reason


def test_a_valid_link_opens_its_report_and_the_opening_is_audited(store: HistoryStore) -> None:
    link, token = store.report_links.create_report_link(
        ACCOUNT, "Example.com", PERIOD, "ann@team.example", now=NOW
    )
    assert (link.site, link.period, link.expires_at) == ("example.com", PERIOD, NOW + timedelta(days=30))

    opened = store.report_links.open_report_link(token, now=NOW + timedelta(days=29, hours=23))
    assert (opened.id, opened.account, opened.site, opened.period) == (
        link.id,
        ACCOUNT,
        "example.com",
        PERIOD,
    )
    assert opened.period.start == date(2026, 10, 1) and opened.period.end == date(2026, 10, 31)

    events = store.audit.events(ACCOUNT)
    assert events["person"].tolist() == [ANYONE]
    assert events["operation"].tolist() == ["open_share_link"]
    assert events["target"].tolist() == ["example.com, October 2026"]
    assert events["outcome"].tolist() == ["done"]
    store.report_links.open_report_link(token, now=NOW, audit=False)
    assert len(store.audit.events(ACCOUNT)) == 1


def test_an_expired_link_says_so(store: HistoryStore) -> None:
    _, token = store.report_links.create_report_link(
        ACCOUNT, "example.com", PERIOD, "ann@team.example", days=7, now=NOW
    )
    assert _refusal(store, token, now=NOW + timedelta(days=7)) == EXPIRED
    assert _refusal(store, token) == EXPIRED  # today, long after
    assert store.audit.events(ACCOUNT).empty


def test_a_revoked_link_says_so_and_stays_revoked(store: HistoryStore) -> None:
    link, token = store.report_links.create_report_link(ACCOUNT, "example.com", PERIOD, "ann@team.example")
    assert store.report_links.revoke_report_link(OTHER_ACCOUNT, link.id, "mallory@else.example") is False
    store.report_links.open_report_link(token)
    assert store.report_links.revoke_report_link(ACCOUNT, link.id, "bob@team.example") is True
    assert store.report_links.revoke_report_link(ACCOUNT, link.id, "bob@team.example") is False
    assert _refusal(store, token) == REVOKED
    (listed,) = store.report_links.entries(ACCOUNT, "example.com")
    assert (listed.state(), listed.revoked_by) == ("revoked", "bob@team.example")


@pytest.mark.parametrize(
    "alter",
    [
        lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),  # the signature
        lambda t: t.split(".")[0] + ".eyJsaWQiOjEsImV4cCI6NDEwMjQ0NDgwMH0." + t.split(".")[2],  # the claims
        lambda t: t + "x",
        lambda t: "not a token at all",
        lambda t: "",
    ],
    ids=["signature", "claims", "appended", "garbage", "empty"],
)
def test_an_altered_link_is_not_valid(store: HistoryStore, alter: object) -> None:
    _, token = store.report_links.create_report_link(ACCOUNT, "example.com", PERIOD, "ann@team.example")
    assert _refusal(store, alter(token)) == NOT_VALID  # type: ignore[operator]


def test_a_link_signed_with_another_key_or_naming_no_link_is_not_valid(store: HistoryStore) -> None:
    link, token = store.report_links.create_report_link(
        ACCOUNT, "example.com", PERIOD, "ann@team.example", secret="one key"
    )
    assert store.report_links.open_report_link(token, secret="one key").id == link.id
    assert _refusal(store, token) == NOT_VALID  # the database's key, not the configured one
    assert _refusal(store, token, secret="another key") == NOT_VALID
    with store.engine.begin() as conn:  # the row gone (a restored older backup): the id names nothing
        conn.exec_driver_sql("DELETE FROM report_links")
    assert _refusal(store, token, secret="one key") == NOT_VALID


def test_two_store_handles_share_one_signing_key(store_url: str) -> None:
    """Two replicas (or the app and the cron job) on one database: a link made by one opens on the other."""
    with HistoryStore.open(store_url) as first, HistoryStore.open(store_url) as second:
        assert first.report_links.link_secret() == second.report_links.link_secret()
        _, token = first.report_links.create_report_link(ACCOUNT, "example.com", PERIOD, "ann@team.example")
        assert second.report_links.open_report_link(token).site == "example.com"
        with first.engine.connect() as conn:
            kept = conn.exec_driver_sql("SELECT count(*) FROM store_secrets").scalar()
        assert kept == 1


def test_a_site_lists_its_links_newest_first_with_their_state(store: HistoryStore) -> None:
    old, _ = store.report_links.create_report_link(
        ACCOUNT, "example.com", PERIOD, "ann@team.example", days=1, now=NOW
    )
    new, _ = store.report_links.create_report_link(ACCOUNT, "example.com", PERIOD, "bob@team.example")
    store.report_links.create_report_link(ACCOUNT, "acme-widgets.com", PERIOD, "ann@team.example")
    store.report_links.create_report_link(OTHER_ACCOUNT, "example.com", PERIOD, "zoe@else.example")
    listed = store.report_links.entries(ACCOUNT, "example.com")
    assert [link.id for link in listed] == [new.id, old.id]
    assert [link.state() for link in listed] == ["active", "expired"]
    assert [link.created_by for link in listed] == ["bob@team.example", "ann@team.example"]


@pytest.mark.parametrize("days", [0, 366])
def test_a_link_lasts_one_day_to_a_year(store: HistoryStore, days: int) -> None:
    with pytest.raises(ValueError, match="from 1 to 365 days"):
        store.report_links.create_report_link(ACCOUNT, "example.com", PERIOD, "ann@team.example", days=days)
