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
    assert parsed.domains == ("stripe.com",)
    # One entry as typed (it was split into "bad" and "domain", and example.com checked anyway).
    rejected = [item for item, _ in parsed.rejected]
    assert rejected == ["example.com;bad domain", "co.uk"]
    assert parsed.lines == 3


def test_an_invalid_entry_is_one_entry_with_its_whole_text() -> None:
    parsed = parse_domain_list("stripe.com\nnot a domain!!\nexample.com")
    assert parsed.domains == ("stripe.com", "example.com")
    assert parsed.rejected == (("not a domain!!", "Enter one domain like example.com: it contains spaces."),)
    assert [e.text for e in parsed.entries] == ["stripe.com", "not a domain!!", "example.com"]


@pytest.mark.parametrize(
    ("text", "domains"),
    [
        ("a.com\tb.org\thttps://c.net/x", ("a.com", "b.org", "c.net")),  # a row pasted from a sheet
        ("a.com b.org, c.net", ("a.com", "b.org", "c.net")),
        ("a.com; b.org", ("a.com", "b.org")),
        ("a.com;", ("a.com",)),
    ],
)
def test_whitespace_splits_only_where_every_word_is_a_domain(text: str, domains: tuple[str, ...]) -> None:
    parsed = parse_domain_list(text)
    assert parsed.domains == domains and not parsed.rejected


def test_a_line_with_one_word_that_is_no_domain_stays_whole_and_names_the_word() -> None:
    parsed = parse_domain_list("stripe.com\t72\tnotes")
    assert parsed.domains == ()
    [(entry, reason)] = parsed.rejected
    assert entry == "stripe.com\t72\tnotes" and reason.startswith("“72”")


def test_duplicates_are_merged_into_the_first_entry_naming_the_site() -> None:
    parsed = parse_domain_list("stripe.com\nhttps://www.stripe.com/pricing\nSTRIPE.COM, example.com")
    assert parsed.domains == ("stripe.com", "example.com")
    assert [(d.text, d.same_as, d.domain) for d in parsed.duplicates] == [
        ("https://www.stripe.com/pricing", "stripe.com", "stripe.com"),
        ("STRIPE.COM", "stripe.com", "stripe.com"),
    ]
    assert len(parsed.entries) == 4 and parsed.lines == 3


def test_every_entry_is_checked_merged_or_skipped() -> None:
    parsed = parse_domain_list("a.com\nb.com\nwww.a.com\nlocalhost\n\n, ,\nc.com b.com", limit=2)
    kinds = [(e.problem is not None, e.same_as is not None) for e in parsed.entries]
    assert all(not (skipped and merged) for skipped, merged in kinds)
    assert len(parsed.entries) == len(parsed.domains) + len(parsed.duplicates) + len(parsed.rejected)
    assert parsed.lines == 5


def test_domain_list_limit_reports_what_was_left_out() -> None:
    parsed = parse_domain_list(" ".join(f"site{i}.com" for i in range(5)), limit=3)
    assert len(parsed.domains) == 3
    assert [item for item, _ in parsed.rejected] == ["site3.com", "site4.com"]
