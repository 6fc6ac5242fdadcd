"""``display_url`` hides every credential form a database, Redis or service URL can carry, whatever the
password contains, and leaves the rest readable. Property tests (hypothesis) build URLs of every shape;
the examples are the forms issue 24 found shown (``?password=``, ``?sslpassword=``, tokens)."""

from __future__ import annotations

import string
from urllib.parse import parse_qsl, quote, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import make_url

from client.safe_urls import HIDDEN, display_url, is_secret_name, scrub

#: Everything that is not a secret is written in these; secrets always hold an upper-case letter.
PLAIN = string.ascii_lowercase + string.digits
SCHEMES = ["postgresql", "postgresql+psycopg", "postgres", "redis", "rediss", "https", "http", "unix"]
SECRET_PARAMETERS = [
    "password",
    "sslpassword",
    "passwd",
    "pass",
    "pwd",
    "token",
    "access_token",
    "key",
    "api_key",
    "apikey",
    "secret",
    "client_secret",
    "auth",
    "auth_token",
    "sig",
    "signature",
    "X-Amz-Signature",
]
PLAIN_PARAMETERS = ["sslmode", "db", "application_name", "connect_timeout", "sslkey", "sslcert", "options"]

words = st.text(PLAIN, min_size=1, max_size=8)
#: A raw secret: at least one upper-case letter, and anything a person might type around it.
raw_secrets = st.builds(
    lambda head, tail: head + tail,
    st.sampled_from("QZXJKW"),
    st.text(string.ascii_uppercase + string.punctuation + " ", max_size=16),
)


def _case(name: str, upper: bool) -> str:
    return name.upper() if upper else name


@st.composite
def urls(draw: st.DrawFn, *, encoded: bool) -> tuple[str, str, list[str]]:
    """(url, the url as it should be shown, the secrets in it). ``encoded``: secrets percent-encoded
    as the standard asks; else raw, whatever they hold, but for a raw ``&`` in a parameter's value:
    every parser reads ``&name=`` as the next parameter, so that is not part of the secret to them."""
    scheme = draw(st.sampled_from(SCHEMES))
    user = draw(st.one_of(st.just(""), words))
    password = draw(st.one_of(st.none(), raw_secrets))
    host = draw(words) + draw(st.sampled_from(["", ".internal", ":5432", ":6379"]))
    path = draw(st.sampled_from(["", "/", "/0", "/history", "/api/v1"]))
    secrets: list[str] = []

    def shown_secret(value: str) -> str:
        secrets.append(value)
        return quote(value, safe="") if encoded else value

    url = shown = f"{scheme}://"
    if password is not None:
        url += f"{user}:{shown_secret(password)}@"
        shown += f"{user}:{HIDDEN}@"
    elif user:
        url += f"{user}@"
        shown += f"{user}@"
    url += host + path
    shown += host + path
    parameters = draw(
        st.lists(
            st.tuples(
                st.one_of(st.sampled_from(SECRET_PARAMETERS), st.sampled_from(PLAIN_PARAMETERS)),
                st.booleans(),
            ),
            max_size=4,
        )
    )
    for index, (name, upper) in enumerate(parameters):
        separator = "?" if index == 0 else "&"
        name = _case(name, upper and name in SECRET_PARAMETERS)
        if is_secret_name(name):
            value = draw(raw_secrets).replace("&", "")
            url += f"{separator}{name}={shown_secret(value)}"
            shown += f"{separator}{name}={HIDDEN}"
        else:
            value = draw(words)
            url += f"{separator}{name}={value}"
            shown += f"{separator}{name}={value}"
    if draw(st.booleans()):
        url += f"#access_token={shown_secret(draw(raw_secrets).replace('&', ''))}"
        # After a secret query value the fragment is hidden with it: SQLAlchemy reads a # as part of
        # the value, so it cannot be told from a password that holds one.
        if not shown.endswith(HIDDEN):
            shown += f"#access_token={HIDDEN}"
    return url, shown, secrets


@settings(max_examples=200, deadline=None)
@given(urls(encoded=True))
def test_a_well_formed_url_is_shown_whole_but_for_its_secrets(case: tuple[str, str, list[str]]) -> None:
    url, expected, _ = case
    assert display_url(url) == expected


@settings(max_examples=300, deadline=None)
@given(urls(encoded=False))
def test_no_letter_of_a_raw_secret_is_ever_shown_whatever_it_holds(case: tuple[str, str, list[str]]) -> None:
    """Raw ``@``, ``:``, ``/``, ``?``, ``#``, ``=`` or ``%`` in a password: nothing of it shows (more may be
    hidden than the secret, never less). Only secrets hold upper-case letters here."""
    url, _, secrets = case
    shown = display_url(url)
    rest = shown.split("://", 1)[1]
    for name in sorted(SECRET_PARAMETERS, key=len, reverse=True):  # names in capitals: not secrets
        rest = rest.replace(f"{name}=", "=").replace(f"{name.upper()}=", "=")
    leaked = [c for c in rest if c.isupper()]
    assert not leaked, (url, shown, secrets)


@settings(max_examples=300, deadline=None)
@given(urls(encoded=False))
def test_what_the_drivers_would_read_as_credentials_from_the_shown_url_is_only_the_mask(
    case: tuple[str, str, list[str]],
) -> None:
    """SQLAlchemy (psycopg's URLs) and urllib (redis-py's) parse the shown URL: the only password or
    secret parameter either finds is ``***``."""
    url, _, _ = case
    shown = display_url(url)
    parts = urlsplit(shown)
    try:
        urllib_password = parts.password
    except ValueError:  # a port urllib cannot read: it reads no password either
        urllib_password = None
    assert urllib_password in (None, "", HIDDEN)
    read = [value for name, value in parse_qsl(parts.query) if is_secret_name(name)]
    assert all(value.startswith(HIDDEN) for value in read), (url, shown)
    if shown.startswith("postgres"):
        try:
            parsed = make_url(shown)
        except Exception:  # a URL SQLAlchemy refuses carries nothing to it
            return
        assert parsed.password in (None, "", HIDDEN)
        values = [v for k, v in parsed.query.items() if is_secret_name(k)]
        flat = [one for v in values for one in (v if isinstance(v, tuple) else (v,))]
        assert all(one.startswith(HIDDEN) for one in flat), (url, shown)


@settings(max_examples=150, deadline=None)
@given(urls(encoded=False))
def test_showing_a_shown_url_again_changes_nothing(case: tuple[str, str, list[str]]) -> None:
    shown = display_url(case[0])
    assert display_url(shown) == shown


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (
            "postgresql+psycopg://team:p%40ss-w0rd@db.internal:5432/history",
            "postgresql+psycopg://team:***@db.internal:5432/history",
        ),
        (
            "postgresql://team@db/history?password=w0rd&sslpassword=k3y&sslmode=require",
            "postgresql://team@db/history?password=***&sslpassword=***&sslmode=require",
        ),
        ("redis://:s3cret@cache.internal:6379/0", "redis://:***@cache.internal:6379/0"),
        ("rediss://app:s3cret@h:1/0", "rediss://app:***@h:1/0"),
        ("redis://127.0.0.1:6379/0?password=s3cret", "redis://127.0.0.1:6379/0?password=***"),
        ("unix://:pw@/run/redis.sock?db=1", "unix://:***@/run/redis.sock?db=1"),
        ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
        ("https://api.example.com", "https://api.example.com"),
        ("https://api.example.com/?api_key=abc&region=eu", "https://api.example.com/?api_key=***&region=eu"),
        ("https://h/cb#access_token=abc&state=x", "https://h/cb#access_token=***&state=x"),
        ("https://h/?Password=a&TOKEN=b&pass%77ord=c", "https://h/?Password=***&TOKEN=***&pass%77ord=***"),
        ("postgresql://u:p@ss@h/db", "postgresql://u:***@h/db"),  # a raw @ in the password
        ("postgresql://u:ab/cd+e=@h/db", "postgresql://u:***@h/db"),  # base64 as typed
        ("postgresql://u:pw@h/db?password=a@b", "postgresql://u:***@h/db?password=***"),
        (
            "postgresql://h/db?sslkey=/etc/k.pem&sslpassword=z",
            "postgresql://h/db?sslkey=/etc/k.pem&sslpassword=***",
        ),
        ("sqlite:////srv/a@b/history.sqlite3", "sqlite:////srv/a@b/history.sqlite3"),
        ("host=db user=u password='a b c' sslmode=require", "host=db user=u password=*** sslmode=require"),
        ("postgres:/u:pw@h/db", "postgres:***@h/db"),  # not quite a URL: hidden all the same
    ],
)
def test_every_credential_form_is_hidden_and_the_rest_stays(url: str, shown: str) -> None:
    assert display_url(url) == shown


def test_key_files_are_shown_and_what_unlocks_them_is_not() -> None:
    assert not is_secret_name("sslkey") and not is_secret_name("sslcert") and not is_secret_name("passfile")
    assert is_secret_name("sslpassword") and is_secret_name("SSL_PASSWORD") and is_secret_name("x-api-key")
    assert not is_secret_name("sslmode") and not is_secret_name("db") and not is_secret_name("host")


def test_a_driver_message_quoting_a_secret_loses_it() -> None:
    url = "postgresql://u@h/db?password=p%40ss&sslpassword=zz9"
    said = scrub("auth failed for password p@ss (key zz9)", url)
    assert "p@ss" not in said and "zz9" not in said and said.count(HIDDEN) == 2
