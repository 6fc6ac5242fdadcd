"""One door for input: a value is normalised once, and the client trusts a value normalised already.

The app's data layer normalises what a person typed and hands the result to the client, whose methods
normalise again (a script passing raw text must be as safe). These tests pin that the second pass is a
lookup, not a parse, and that a normalised value is a plain ``str`` in every way the app uses one.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pandas as pd
import pytest

from client import ApiClient
from client import inputs as inputs_module
from client.errors import InvalidInputError
from client.growth_inputs import normalise_slug
from client.inputs import normalise_domain, normalise_keyword

RAW_DOMAIN = "  https://Blog.Example.co.uk:443/pricing?ref=x "
DOMAIN = "example.co.uk"
RAW_KEYWORD = "  best\tprivacy   analytics "
KEYWORD = "best privacy analytics"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """Fresh memories of normalised values, and a count of real parses per normaliser."""
    counts = {"domain": 0, "keyword": 0}

    def counting(kind: str, parse: Callable[[Any], str]) -> Callable[[Any], str]:
        def wrapped(raw: Any) -> str:
            counts[kind] += 1
            return parse(raw)

        return wrapped

    monkeypatch.setattr(inputs_module, "_DOMAINS", inputs_module._Recognised())
    monkeypatch.setattr(inputs_module, "_KEYWORDS", inputs_module._Recognised())
    monkeypatch.setattr(inputs_module, "_parse_domain", counting("domain", inputs_module._parse_domain))
    monkeypatch.setattr(inputs_module, "_parse_keyword", counting("keyword", inputs_module._parse_keyword))
    yield counts


def _client(seen_urls: list[httpx.URL]) -> ApiClient:
    """A client whose service answers every GET with a minimal DR or keyword report."""

    def answer(request: httpx.Request) -> httpx.Response:
        seen_urls.append(request.url)
        if request.url.path.startswith("/api/v1/dr/"):
            return httpx.Response(200, json={"ok": True, "dr": {"domain": DOMAIN, "dr": 51}})
        return httpx.Response(200, json={"ok": True, "report": {"keyword": KEYWORD, "results": []}})

    return ApiClient("http://service.test", "vdr_test", transport=httpx.MockTransport(answer), max_retries=0)


def test_normalising_twice_parses_once(parses: dict[str, int]) -> None:
    domain = normalise_domain(RAW_DOMAIN)
    assert normalise_domain(domain) == domain == DOMAIN
    assert normalise_domain(normalise_domain(domain)) == DOMAIN
    assert parses["domain"] == 1

    keyword = normalise_keyword(RAW_KEYWORD)
    assert normalise_keyword(keyword) == keyword == KEYWORD
    assert parses["keyword"] == 1


def test_the_client_trusts_a_value_the_data_layer_normalised(parses: dict[str, int]) -> None:
    seen: list[httpx.URL] = []
    domain = normalise_domain(RAW_DOMAIN)  # what the data layer does with what a person typed
    keyword = normalise_keyword(RAW_KEYWORD)
    with _client(seen) as api:
        assert api.dr(domain).dr == 51
        api.keyword_report(keyword, domain)
    assert parses == {"domain": 1, "keyword": 1}
    assert seen[0].path == "/api/v1/dr/example.co.uk"
    assert seen[1].params["keyword"] == KEYWORD and seen[1].params["domain"] == DOMAIN


def test_a_script_passing_raw_text_is_normalised_once_by_the_client(parses: dict[str, int]) -> None:
    seen: list[httpx.URL] = []
    with _client(seen) as api:
        api.dr(RAW_DOMAIN)
        api.keyword_report(RAW_KEYWORD)
    assert parses == {"domain": 1, "keyword": 1}
    assert seen[0].path == "/api/v1/dr/example.co.uk"
    assert seen[1].params["keyword"] == KEYWORD


def test_raw_text_from_a_script_is_still_refused_by_the_client(parses: dict[str, int]) -> None:
    seen: list[httpx.URL] = []
    with _client(seen) as api, pytest.raises(InvalidInputError):
        api.dr("not a domain")
    assert seen == []  # refused before any request


def test_a_normalised_value_is_a_plain_str_everywhere() -> None:
    domain = normalise_domain(RAW_DOMAIN)
    assert type(domain) is str and type(normalise_domain(domain)) is str
    assert domain == DOMAIN and hash(domain) == hash(DOMAIN) and {domain: 1}[DOMAIN] == 1
    assert json.dumps({"d": domain}) == json.dumps({"d": DOMAIN})
    assert f"{domain}/x" == "example.co.uk/x" and repr(domain) == repr(DOMAIN)
    assert pickle.loads(pickle.dumps(domain)) == DOMAIN
    assert pickle.dumps(domain) == pickle.dumps(DOMAIN)
    assert pd.Series([domain]).equals(pd.Series([DOMAIN]))
    assert normalise_slug(domain) == "example-co-uk"


def test_streamlit_cache_keys_a_normalised_value_like_the_plain_string() -> None:
    """``st.cache_data`` hashes the type's name with the value: a ``str`` subclass would get its own
    entry, so a write's ``forget`` with plain text would miss the entry a read filled."""
    from streamlit.runtime.caching.cache_type import CacheType
    from streamlit.runtime.caching.hashing import update_hash

    def cache_key(args: tuple[Any, ...]) -> str:
        hasher = hashlib.new("md5", usedforsecurity=False)
        update_hash(args, hasher, CacheType.DATA)
        return hasher.hexdigest()

    assert cache_key((normalise_domain(RAW_DOMAIN),)) == cache_key((DOMAIN,))
    assert cache_key((normalise_keyword(RAW_KEYWORD),)) == cache_key((KEYWORD,))


def test_a_recognised_keyword_does_not_pass_as_a_domain(parses: dict[str, int]) -> None:
    assert normalise_keyword("best tool") == "best tool"
    with pytest.raises(InvalidInputError):
        normalise_domain("best tool")


def test_a_str_subclass_is_parsed_not_trusted(parses: dict[str, int]) -> None:
    class Lookalike(str):
        pass

    normalise_domain(DOMAIN)
    value = normalise_domain(Lookalike(DOMAIN))
    assert value == DOMAIN and type(value) is str
    assert parses["domain"] == 2


def test_a_slug_is_checked_without_parsing_a_domain(parses: dict[str, int]) -> None:
    assert normalise_slug("example-co-uk") == "example-co-uk"
    assert parses["domain"] == 0
    assert normalise_slug(RAW_DOMAIN) == "example-co-uk"  # a domain is parsed once on its way
    assert parses["domain"] == 1


@pytest.mark.parametrize(
    "raw",
    [
        "https://Blog.Example.co.uk:443/x",
        "www.bücher.de",
        "пример.рф",
        "foo.bar.ck",
        "a.b.c.github.io",
        "EXAMPLE.COM.",
        "shop.example.com.au",
    ],
)
def test_normalising_is_idempotent_so_recognising_equals_parsing(raw: str) -> None:
    """The design's premise: a normalised value parses to itself, so skipping the parse changes nothing."""
    once = inputs_module._parse_domain(raw)
    assert inputs_module._parse_domain(once) == once


def test_the_memory_is_bounded_and_forgetting_only_costs_a_parse(
    parses: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = inputs_module._Recognised(max_entries=2)
    for value in ("a.com", "b.com", "c.com"):
        memory.add(value)
    assert "a.com" not in memory and "b.com" in memory and "c.com" in memory

    monkeypatch.setattr(inputs_module, "_DOMAINS", memory)
    assert normalise_domain("a.com") == "a.com"
    assert parses["domain"] == 1
