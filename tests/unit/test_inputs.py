"""Domain and keyword normalisation: what people paste becomes what the service rates, or a clear refusal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client.errors import InvalidInputError
from client.inputs import (
    MAX_KEYWORD_LENGTH,
    normalise_domain,
    normalise_keyword,
    parse_domain_list,
    slug_for,
)

ACCEPTED = [
    ("example.com", "example.com"),
    ("EXAMPLE.COM", "example.com"),
    ("  example.com  ", "example.com"),
    ("example.com.", "example.com"),
    ("www.example.com", "example.com"),
    ("blog.example.com", "example.com"),
    ("a.b.c.example.com", "example.com"),
    ("https://example.com", "example.com"),
    ("http://example.com/", "example.com"),
    ("https://Blog.Example.co.uk:443/x?y", "example.co.uk"),
    ("https://example.com/path/to/page?q=1#frag", "example.com"),
    ("example.com:8080", "example.com"),
    ("example.com/pricing", "example.com"),
    ("HTTPS://WWW.EXAMPLE.ORG/", "example.org"),
    ("shop.example.com.au", "example.com.au"),
    ("bücher.de", "xn--bcher-kva.de"),
    ("BÜCHER.DE", "xn--bcher-kva.de"),
    ("xn--bcher-kva.de", "xn--bcher-kva.de"),
    ("https://www.bücher.de/kaufen", "xn--bcher-kva.de"),
    ("münchen.de", "xn--mnchen-3ya.de"),
    ("my-site.io", "my-site.io"),
    ("123.com", "123.com"),
    ("www.com", "www.com"),
    ("example.com\t", "example.com"),
    ("\nexample.com\n", "example.com"),
]

REJECTED = [
    "",
    "   ",
    "exa mple.com",
    "example",
    "localhost",
    "co.uk",
    "com",
    "127.0.0.1",
    "http://192.168.0.1/",
    "../etc/passwd",
    "example.com/../admin",
    "example.com?x=1",
    "example.com#top",
    "exam\x00ple.com",
    "example.com\x1b[31m",
    "exa\u200bmple.com",
    "ftp://example.com",
    "javascript:alert(1)",
    "http://user:pass@example.com",
    "example..com",
    "-example.com",
    "example-.com",
    "ex_ample.com",
    "example.com:port",
    "a" * 64 + ".com",
    ("a" * 60 + ".") * 5 + "com",
    "x" * 5000,
    "<script>alert(1)</script>.com",
    "'; DROP TABLE sites;--",
    "example.com\\admin",
    "http://",
]


@pytest.mark.parametrize(("raw", "expected"), ACCEPTED)
def test_accepted_inputs_become_the_registrable_domain(raw: str, expected: str) -> None:
    assert normalise_domain(raw) == expected


@pytest.mark.parametrize("raw", REJECTED)
def test_garbage_is_refused_with_a_message(raw: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        normalise_domain(raw)
    assert info.value.message
    assert info.value.status is None  # refused locally: no request was made


def test_the_table_is_large_enough() -> None:
    assert len(ACCEPTED) + len(REJECTED) >= 30


def test_slug_is_the_registrable_domain_with_hyphens() -> None:
    assert slug_for("https://Blog.Example.co.uk/") == "example-co-uk"


def test_refusal_messages_do_not_echo_hostile_input() -> None:
    hostile = "<script>alert(1)</script>.com"
    with pytest.raises(InvalidInputError) as info:
        normalise_domain(hostile)
    assert "<script>" not in info.value.message


_domainish = st.one_of(
    st.text(max_size=80),
    st.from_regex(
        r"(https?://)?([A-Za-z0-9-]{1,12}\.){1,3}(com|co\.uk|de|io|org)(:[0-9]{1,5})?(/[a-z]{0,8})?"
    ),
    st.builds(
        lambda a, b: f"{a}.{b}", st.text(min_size=1, max_size=20), st.sampled_from(["com", "de", "jp"])
    ),
)


@settings(max_examples=300, deadline=None)
@given(_domainish)
def test_normalising_twice_equals_normalising_once(raw: str) -> None:
    try:
        once = normalise_domain(raw)
    except InvalidInputError:
        return
    assert normalise_domain(once) == once
    assert once == once.lower() and once.isascii() and " " not in once


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_keywords_are_folded_or_refused(raw: str) -> None:
    try:
        keyword = normalise_keyword(raw)
    except InvalidInputError:
        return
    assert keyword == keyword.strip() and "  " not in keyword
    assert 0 < len(keyword) <= MAX_KEYWORD_LENGTH
    assert normalise_keyword(keyword) == keyword


def test_keyword_whitespace_is_folded() -> None:
    assert normalise_keyword("  best   crm\tsoftware ") == "best crm software"


@pytest.mark.parametrize("raw", ["", "   ", "a" * (MAX_KEYWORD_LENGTH + 1), "seo\x00tools"])
def test_bad_keywords_are_refused(raw: str) -> None:
    with pytest.raises(InvalidInputError):
        normalise_keyword(raw)


def test_domain_lists_are_split_normalised_and_deduplicated() -> None:
    parsed = parse_domain_list("stripe.com, https://www.Stripe.com/x\nexample.com;bad domain\n\nco.uk")
    assert parsed.domains == ("stripe.com", "example.com")
    rejected = [item for item, _ in parsed.rejected]
    assert rejected == ["bad", "domain", "co.uk"]


def test_domain_list_limit_reports_what_was_left_out() -> None:
    parsed = parse_domain_list(" ".join(f"site{i}.com" for i in range(5)), limit=3)
    assert len(parsed.domains) == 3
    assert [item for item, _ in parsed.rejected] == ["site3.com", "site4.com"]
