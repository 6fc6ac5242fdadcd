"""Every answer the shared cache may hold goes through its JSON record and comes back equal: real sandbox
answers of every read operation (also with every nullable field null), and the definitive errors a page
caches (a 404, a 402 gate)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from client import ApiClient, errors
from client.growth_inputs import DiscoveryFilters
from client.inputs import slug_for
from client.operations import READ_OPERATIONS
from components.core.cache.cache_records import ANSWER_TYPES, MAX_RECORD_BYTES, Record, decode, encode
from sandbox import DEMO_KEY, FREE_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS

SITE = ACCOUNTS[DEMO_KEY].sites[0]
SLUG = slug_for(SITE)

#: One call per read operation, with arguments the demo account answers.
READS: dict[str, Callable[[ApiClient], Any]] = {
    "dr": lambda c: c.dr("stripe.com"),
    "site_check": lambda c: c.site_check(SITE),
    "lookup": lambda c: c.lookup("stripe.com"),
    "trust_map": lambda c: c.trust_map("stripe.com"),
    "snippets": lambda c: c.snippets("stripe.com"),
    "categories": lambda c: c.categories(),
    "keyword_report": lambda c: c.keyword_report("crm", "stripe.com"),
    "keyword_suggestions": lambda c: c.keyword_suggestions(SITE),
    "tracked_keywords": lambda c: c.tracked_keywords(SLUG),
    "find": lambda c: c.find(DiscoveryFilters(min_dr=20)),
    "exchange_candidates": lambda c: c.exchange_candidates(SITE, DiscoveryFilters()),
    "sites": lambda c: c.sites(),
    "site": lambda c: c.site(SLUG),
    "site_truedr": lambda c: c.site_truedr(SLUG),
    "ai_visibility": lambda c: c.ai_visibility(SLUG),
    "export": lambda c: c.export(SITE),
    "monitor": lambda c: c.monitor(None, False),
    "gsc_performance": lambda c: c.gsc_performance(SLUG, "28d"),
    "gsc_audit": lambda c: c.gsc_audit(SLUG),
}


def test_every_shared_operation_has_a_read_here() -> None:
    assert set(READS) == set(ANSWER_TYPES)


def test_the_reads_the_client_names_are_the_shared_ones_and_each_only_reads(
    demo: ApiClient, sandbox: SandboxServer
) -> None:
    assert set(READ_OPERATIONS) == set(READS)
    for operation in READ_OPERATIONS:
        asked = len(sandbox.state.request_log)
        READS[operation](demo)
        methods = {method for method, *_ in sandbox.state.request_log[asked:]}
        assert methods == {"GET"}, f"{operation} sent {methods}"


def _round_trip(operation: str, record: Record, service_root: str) -> Record:
    text = encode(operation, record)
    assert isinstance(json.loads(text), dict)  # plain JSON text
    assert DEMO_KEY not in text
    return decode(operation, text, service_root)


@pytest.mark.parametrize("operation", sorted(READS))
def test_a_real_answer_comes_back_equal(demo: ApiClient, operation: str) -> None:
    value = READS[operation](demo)
    assert type(value) is ANSWER_TYPES[operation]
    back = _round_trip(operation, Record(value=value, quota=demo.last_quota), demo.base_url)
    assert back.value == value and back.error is None
    assert back.quota == demo.last_quota


@pytest.mark.parametrize(
    "operation", ["lookup", "trust_map", "site_check", "keyword_report", "tracked_keywords"]
)
def test_an_answer_with_every_nullable_field_null_comes_back_equal(
    demo: ApiClient, sandbox: SandboxServer, operation: str
) -> None:
    sandbox.state.add_fault(operation, "nulls")
    value = READS[operation](demo)
    assert _round_trip(operation, Record(value=value), demo.base_url).value == value


@pytest.mark.parametrize(
    ("operation", "fault", "kind"),
    [("site", None, errors.NotFoundError), ("ai_visibility", "402-gate", errors.PaymentRequiredError)],
    ids=["404", "gate"],
)
def test_a_definitive_error_comes_back_as_the_same_error(
    demo: ApiClient, sandbox: SandboxServer, operation: str, fault: str | None, kind: type[errors.ApiError]
) -> None:
    if fault is not None:
        sandbox.state.add_fault(operation, fault)
        call = READS[operation]
    else:  # a site nobody owns
        call = lambda c: c.site(slug_for(ACCOUNTS[FREE_KEY].sites[0]))  # noqa: E731
    with pytest.raises(kind) as caught:
        call(demo)
    error = caught.value
    assert not error.transient
    back = _round_trip(operation, Record(error=error), demo.base_url).error
    assert type(back) is type(error) and vars(back) == vars(error) and str(back) == str(error)
    if isinstance(back, errors.PaymentRequiredError):
        assert back.is_gate


def test_the_largest_answers_are_far_under_the_record_size_limit(demo: ApiClient) -> None:
    """The limit's reasoning (cache_records.MAX_RECORD_BYTES): a discovery page at the service's maximum
    of 50 sites and the longest Search Console report stay a twentieth of it or less."""
    largest = {
        "find": demo.find(DiscoveryFilters(limit=50)),
        "gsc_performance": demo.gsc_performance(SLUG, "16m"),
        "ai_visibility": demo.ai_visibility(SLUG),
    }
    for operation, value in largest.items():
        assert len(encode(operation, Record(value=value)).encode()) < MAX_RECORD_BYTES / 20, operation
