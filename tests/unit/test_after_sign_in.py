"""The cookie that carries a deep link across sign-in (components/core/auth/after_sign_in.py): it names a page
of this app and its query, round-trips them, refuses anything else, and never holds or yields text that
could break out of the page script it is written by."""

from __future__ import annotations

import re

import pytest

from components.core.auth.after_sign_in import MAX_CHARS, decode, encode
from components.core.nav import pages

#: What a cookie value and a page address may contain: nothing a script string or a cookie would read.
PERCENT_ENCODED = re.compile(r"^[A-Za-z0-9%._~+=&/?-]*$")
HOSTILE = '</script><script>alert(1)</script>"; Path=/; x=\\'


def test_a_deep_link_round_trips_with_its_page_and_query() -> None:
    value = encode("history", {"history_domain": ["stripe.com"], "history_tab": ["Domain trends"]})
    link = decode(value)
    assert link is not None and link.page == pages.HISTORY
    assert link.query == {"history_domain": ["stripe.com"], "history_tab": ["Domain trends"]}
    assert link.address() == "/history?history_domain=stripe.com&history_tab=Domain+trends"


def test_the_start_page_with_a_query_is_a_deep_link_and_without_one_is_not() -> None:
    link = decode(encode("", {"domain": ["stripe.com"]}))
    assert link is not None and link.page == pages.OVERVIEW and link.address() == "/?domain=stripe.com"
    assert encode("", {}) is None


@pytest.mark.parametrize(
    "value",
    [None, "", "nowhere%3Fx%3D1", "https%3A%2F%2Felsewhere.example%2F%3F", "..%2Fhistory%3F", "overview%3F"],
)
def test_a_value_naming_no_page_of_the_app_is_ignored(value: str | None) -> None:
    assert decode(value) is None


def test_hostile_text_in_the_address_is_percent_encoded_in_the_cookie_and_the_address() -> None:
    value = encode("trust-map", {"domain": [HOSTILE], HOSTILE: ["x"]})
    assert value is not None and PERCENT_ENCODED.match(value)
    link = decode(value)
    assert link is not None and link.query == {"domain": [HOSTILE], HOSTILE: ["x"]}
    assert PERCENT_ENCODED.match(link.address())


def test_an_address_too_long_for_a_cookie_is_not_remembered() -> None:
    assert encode("trust-map", {"domain": ["x" * MAX_CHARS]}) is None
    assert decode("x" * (MAX_CHARS + 1)) is None
