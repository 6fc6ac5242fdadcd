"""Tracking chosen keywords on the Opportunities page under every fault the sandbox injects on the two
operations it calls (``add_tracked_keyword``, ``tracked_keywords``): words, never a traceback, and
nothing lost. An add that fails is said per keyword in the shared error words, the service's list
holds exactly the keywords the page says it added, each keyword sent has its audit row, a refusal that
would refuse every later keyword stops the click (the rest named as not sent), and a list that cannot be
read keeps the button disabled with the reason until it can, when the click works again."""

from __future__ import annotations

import pytest

from analysis.error_wording import describe_error
from client import ApiClient, ApiError
from sandbox import DEMO_KEY, SandboxServer
from sandbox.faults import NAMED_FAULTS, STATUS_FAULTS, hostile_text
from store import HistoryStore
from tests.apptest.app_pages import as_read, empty_caches, shown_text
from tests.apptest.opportunities_rows import (
    SITE,
    SLUG,
    audit_rows,
    choose_rows,
    fresh_rows,
    open_on_site,
    posts,
    track_button,
    tracked,
)

#: Every fault the sandbox can inject on an operation.
FAULTS: tuple[int | str, ...] = (*STATUS_FAULTS, *NAMED_FAULTS)
#: Faults whose answer is still a usable success (every nullable field null; markup in every string).
ANSWERED = ("nulls", "hostile")
#: Refusals about one keyword: the click goes on to the next.
PER_KEYWORD = (400, 409)


@pytest.fixture
def store(demo_history: HistoryStore) -> HistoryStore:
    return demo_history


def _retry_after(fault: int | str) -> float | None:
    return 60.0 if fault in (429, 503) else None  # past what a read waits for: it reports at once


def _title(server: SandboxServer, fault: int | str) -> str:
    """The shared error words' title for this fault on an add, provoked once through the client."""
    server.state.add_fault(
        "add_tracked_keyword", fault, key=DEMO_KEY, times=1, retry_after=_retry_after(fault)
    )
    with ApiClient(server.base_url, DEMO_KEY, timeout=1.0, max_retries=0) as client:
        with pytest.raises(ApiError) as caught:
            client.add_tracked_keyword(SLUG, "fault probe keyword")
    return describe_error(caught.value).title


@pytest.fixture
def short_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERIFIEDDR_TIMEOUT", "1")


@pytest.mark.parametrize("fault", FAULTS, ids=str)
def test_a_fault_on_the_add_is_said_per_keyword_and_loses_nothing(
    fault: int | str, store: HistoryStore, live_env: SandboxServer, short_timeout: None
) -> None:
    title = None if fault in ANSWERED or fault == 409 else _title(live_env, fault)
    at = open_on_site()
    before = tracked(live_env)
    rows, chosen = fresh_rows(at, live_env)
    choose_rows(at, rows)
    live_env.state.add_fault("add_tracked_keyword", fault, key=DEMO_KEY, retry_after=_retry_after(fault))
    sent_before = posts(live_env)
    track_button(at).click().run()
    assert not at.exception, [e.value for e in at.exception]
    said = as_read(shown_text(at))
    assert "Traceback" not in said
    added = [k for k in chosen if f"“{k}”: added — now tracked for {SITE}." in said]
    live_env.state.clear_faults()
    assert tracked(live_env) == [*before, *added]  # the service holds exactly what the page says it added
    if fault in ANSWERED:
        assert added == chosen
        assert audit_rows(store)["outcome"].tolist() == ["sent", "sent"]
        return
    assert not added
    if fault == 409:
        assert all(f"“{k}”: tracked already, the service has it; nothing added." in said for k in chosen), (
            said
        )
    else:
        assert title is not None and f"“{chosen[0]}”: not added — {title}." in said, said
    rows_written = audit_rows(store)
    if fault in PER_KEYWORD:  # about one keyword: the next one is sent too
        assert posts(live_env) - sent_before == 2
        assert sorted(rows_written["target"]) == sorted(chosen)
        assert (rows_written["outcome"] == "refused_by_service").all()
    else:  # it would refuse every later keyword too: the rest is named, not sent
        assert posts(live_env) - sent_before == 1
        assert rows_written["target"].tolist() == [chosen[0]]
        assert f"Not sent: “{chosen[1]}” — the refusal above would refuse them too." in said, said


@pytest.mark.parametrize("fault", FAULTS, ids=str)
def test_a_fault_on_the_list_keeps_track_disabled_with_words_until_it_can_be_read(
    fault: int | str, store: HistoryStore, live_env: SandboxServer, short_timeout: None
) -> None:
    before = tracked(live_env)
    live_env.state.add_fault("tracked_keywords", fault, key=DEMO_KEY, retry_after=_retry_after(fault))
    at = open_on_site()
    # Under "hostile" the page's list holds each keyword with markup around it: tracked too, for the page.
    rows, _ = fresh_rows(at, live_env, held_now=[*before, *map(hostile_text, before)])
    choose_rows(at, rows)
    assert not at.exception, [e.value for e in at.exception]
    said = as_read(shown_text(at))
    assert "Traceback" not in said
    button = track_button(at)
    if fault in ANSWERED:
        assert not button.disabled  # the list was read: what it says is used
    else:
        assert button.disabled
        assert "The site's tracked keywords could not be read" in as_read(button.help)
        assert "The site's tracked keywords could not be read" in said
    assert posts(live_env) == 0
    # The service recovers. A definitive refusal is kept by the read path for its 15 minutes like every
    # read's; once they are over (the caches emptied here), the list is read again and the click works.
    live_env.state.clear_faults()
    empty_caches()
    at.run()
    rows, chosen = fresh_rows(at, live_env)
    choose_rows(at, rows)
    assert not track_button(at).disabled
    track_button(at).click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert set(chosen) <= set(tracked(live_env))
    assert audit_rows(store)["outcome"].tolist() == ["sent", "sent"]
