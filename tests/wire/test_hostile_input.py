"""Hostile input never reaches the service raw: it is normalised to a registrable domain or a safe
keyword, or refused with a message before any request. The sandbox's own log is the proof."""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterator
from urllib.parse import parse_qs

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from client import ApiClient, errors
from client.inputs import MAX_KEYWORD_LENGTH
from sandbox import DEMO_KEY, SandboxServer

#: What a normalised domain looks like on the wire: lower-case ASCII labels (IDNs as xn--).
SAFE_LOOKUP_PATH = re.compile(r"^/api/v1/lookup/[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$")
SNIPPETS = [
    "<script>alert(1)</script>",
    "'; DROP TABLE sites;--",
    "../../etc/passwd",
    "%2e%2e%2f",
    "?x=1&y=2",
    "#frag",
    "javascript:alert(1)",
    "\x00",
    "\r\nX-Injected: 1",
    "${jndi:ldap://x}",
    "{{7*7}}",
    "a" * 300,
]
IDN_LABELS = ["bücher", "münchen", "пример", "例子", "ドメイン", "xn--bcher-kva", "straße"]
TLDS = ["com", "de", "co.uk", "jp", "рф", "org", "io"]

_label = st.text(alphabet=string.ascii_letters + string.digits + "-_", min_size=1, max_size=70)
hostile_domains = st.one_of(
    st.text(max_size=120),
    st.builds(lambda a, b: f"{a}.{b}", st.one_of(_label, st.sampled_from(IDN_LABELS)), st.sampled_from(TLDS)),
    st.builds(
        lambda scheme, host, tail: f"{scheme}{host}{tail}",
        st.sampled_from(["", "http://", "https://", "HTTPS://www.", "ftp://", "//"]),
        st.sampled_from(["example.com", "bücher.de", "blog.stripe.com", "co.uk", "127.0.0.1", "localhost"]),
        st.one_of(st.sampled_from(SNIPPETS), st.text(max_size=20), st.just("")),
    ),
    st.builds(lambda s, d: s + d, st.sampled_from(SNIPPETS), st.sampled_from(["example.com", ".com", ""])),
    st.text(alphabet=st.characters(categories=("Cc", "Cf", "Zs", "So", "Lo")), max_size=40),
)
hostile_keywords = st.one_of(
    st.text(max_size=300),
    st.sampled_from(SNIPPETS),
    st.builds(lambda a, b: f"{a} {b}", st.sampled_from(SNIPPETS), st.text(max_size=30)),
)


@pytest.fixture(scope="module")
def client(sandbox: SandboxServer) -> Iterator[ApiClient]:
    """One pooled client for every generated example (a new one per example is what costs time)."""
    with ApiClient(sandbox.base_url, DEMO_KEY, max_retries=0) as api:
        yield api


def _no_control(text: str) -> bool:
    return not any(unicodedata.category(ch) in ("Cc", "Cf") for ch in text)


@settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=hostile_domains)
def test_hostile_domains_are_normalised_or_refused_before_any_request(
    sandbox: SandboxServer, client: ApiClient, raw: str
) -> None:
    before = sandbox.state.total_requests()
    try:
        client.lookup(raw)
    except errors.InvalidInputError as exc:
        assert exc.message
        assert sandbox.state.total_requests() == before  # refused locally: nothing was sent
        return
    except errors.NotFoundError:
        pass  # a valid domain that is not listed
    new = sandbox.state.request_log[before:]
    assert len(new) == 1
    method, path, query, _ = new[0]
    assert method == "GET" and query == ""
    assert SAFE_LOOKUP_PATH.match(path), path


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=hostile_keywords)
def test_hostile_keywords_are_folded_or_refused_before_any_request(
    sandbox: SandboxServer, client: ApiClient, raw: str
) -> None:
    before = sandbox.state.total_requests()
    try:
        client.keyword_report(raw)
    except errors.InvalidInputError:
        assert sandbox.state.total_requests() == before
        return
    method, path, query, _ = sandbox.state.request_log[before]
    assert (method, path) == ("GET", "/api/v1/keywords")
    sent = parse_qs(query, keep_blank_values=True)
    assert list(sent) == ["keyword"]
    (keyword,) = sent["keyword"]
    assert keyword == " ".join(keyword.split()) and 0 < len(keyword) <= MAX_KEYWORD_LENGTH
    assert _no_control(keyword)
