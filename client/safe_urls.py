"""The one way a URL is shown or logged: ``display_url`` hides every credential it can carry.

Database, Redis and service addresses are shown by the app (the History page's warning, the sidebar)
and by the commands (``python -m store upgrade``, ``snapshot``) and written to logs (a Redis outage).
Each of them may carry a password in more than one form, and psycopg (through SQLAlchemy) and
redis-py accept them all, so every display site goes through this one helper. It lives in ``client/``
because both ``store/`` and ``components/`` already import that layer (``store/`` never imports
``components/``), and it is pure: no Streamlit, no SQLAlchemy, no network.

What is replaced by ``***``:

- the password of the user part, ``user:password@host``: everything from the first ``:`` of the user
  part to the last ``@`` (outside a hidden value, see below). The user name stays: it says which
  account, and is not a secret. A raw ``@`` later in the path moves that end further: more is hidden
  rather than less.
- the value of every parameter, in the query, the fragment, ``;`` path parameters or a libpq
  ``key=value`` connection string, whose name looks like a secret (``is_secret_name``): ``password``,
  ``sslpassword``, ``passwd``, ``pass``, ``pwd``, ``token``, ``access_token``, ``key``, ``api_key``,
  ``apikey``, ``secret``, ``auth``, ``sig``, ``signature``, ``credential``, ``session``... A value runs to
  the next ``&name=`` (a raw ``&`` or ``#`` inside a password stays hidden) or, in a connection string,
  to the next space or its closing quote.

``sslkey``, ``sslcert`` and ``sslrootcert`` are shown: they are paths of files, not their content,
and where the app looks for a client key is what someone fixing a connection needs to see. The key's
own passphrase travels as ``sslpassword``, which is hidden.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, unquote_plus

HIDDEN = "***"

#: A parameter whose name (lower case, letters and digits only) contains one of these is a secret.
SECRET_WORDS: tuple[str, ...] = (
    "password",
    "passwd",
    "passphrase",
    "pwd",
    "secret",
    "token",
    "apikey",
    "accesskey",
    "privatekey",
    "signature",
    "credential",
    "auth",
    "session",
    "cookie",
)
#: Names that are secrets only as a whole word (as parts of other names they mean something else).
SECRET_NAMES = frozenset({"pass", "pw", "key", "sig", "code", "jwt", "otp", "hmac"})
#: Ends in "key" and yet shown: the path of a key file, not a key (its passphrase is sslpassword).
KEY_FILE_NAMES = frozenset({"sslkey"})

#: A parameter's name after a separator (``?``, ``&``, ``#``, ``;``), then ``=``.
_URL_PARAMETER = re.compile(r"(?<=[?&#;])(?P<name>[^?&#;=\s]+)=")
#: In a connection string that is not a URL, parameters are also separated by spaces (libpq).
_PLAIN_PARAMETER = re.compile(r"(?:^|(?<=[?&#;\s]))(?P<name>[^?&#;=\s]+)\s*=\s*")
#: Where a URL parameter's value ends: before ``&`` that starts another ``name=``, else at the end.
_URL_VALUE_END = re.compile(r"&(?=[^?&#;=\s]+=)")
_PLAIN_VALUE_END = re.compile(r"[\s&]")


def is_secret_name(name: str) -> bool:
    """Whether a parameter called ``name`` (any case, percent-encoded or not) carries a credential."""
    plain = re.sub(r"[^a-z0-9]", "", unquote_plus(name).lower())
    if not plain:
        return False
    if plain in SECRET_NAMES or any(word in plain for word in SECRET_WORDS):
        return True
    return plain.endswith("key") and plain not in KEY_FILE_NAMES


def _value_end(text: str, start: int, *, url: bool) -> int:
    if url:
        found = _URL_VALUE_END.search(text, start)
        return found.start() if found else len(text)
    if text.startswith("'", start):  # libpq: a quoted value, with \' inside it
        index = start + 1
        while index < len(text):
            if text[index] == "\\":
                index += 2
                continue
            if text[index] == "'":
                return index + 1
            index += 1
        return len(text)
    found = _PLAIN_VALUE_END.search(text, start)
    return found.start() if found else len(text)


def _parameter_spans(text: str, *, url: bool) -> list[tuple[int, int]]:
    pattern = _URL_PARAMETER if url else _PLAIN_PARAMETER
    spans: list[tuple[int, int]] = []
    for found in pattern.finditer(text):
        if is_secret_name(found["name"]):
            start = found.end()
            end = _value_end(text, start, url=url)
            if end > start:
                spans.append((start, end))
    return spans


def _password_span(text: str, authority_from: int, values: list[tuple[int, int]]) -> tuple[int, int] | None:
    """From the first ``:`` of the user part to its ``@``; None when there is no password.

    That ``@`` is the last one outside the secret parameters' values (``?password=a@b`` keeps the host
    in sight), or, when every ``@`` is inside one, the last of all: more is hidden rather than less."""
    ats = [i for i in range(authority_from, len(text)) if text[i] == "@"]
    if not ats:
        return None
    outside = [i for i in ats if not any(start <= i < end for start, end in values)]
    at = (outside or ats)[-1]
    colon = text.find(":", authority_from, at)
    if colon < 0 or colon + 1 == at:
        return None  # a user name alone, or an empty password
    return colon + 1, at


def _secret_spans(url: str) -> list[tuple[int, int]]:
    """Where ``url``'s secrets are, merged and in order (start, end)."""
    scheme_end = url.find("://")
    is_url = scheme_end > 0 and re.fullmatch(r"[A-Za-z][A-Za-z0-9+.\-]*", url[:scheme_end]) is not None
    spans = _parameter_spans(url, url=is_url)
    if is_url:
        authority = scheme_end + 3
        if not url.startswith("/", authority):  # sqlite:///path has no user part
            password = _password_span(url, authority, spans)
            if password:
                spans.append(password)
    elif "@" in url:  # not quite a URL ("postgres:/user:pw@host"): hide up to the last @ all the same
        password = _password_span(url, 0, spans)
        if password:
            spans.append(password)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def display_url(url: str) -> str:
    """``url`` as it may be shown or logged: every password, token or key in it replaced by ``***``."""
    text = url.strip()
    shown, last = [], 0
    for start, end in _secret_spans(text):
        shown += [text[last:start], HIDDEN]
        last = end
    shown.append(text[last:])
    return "".join(shown)


def secrets_in(url: str) -> list[str]:
    """The secrets ``display_url`` hides, as written and decoded, longest first: for taking them out of
    a driver's error text that may quote them."""
    text = url.strip()
    found: set[str] = set()
    for start, end in _secret_spans(text):
        raw = text[start:end]
        found.update(part for part in (raw, unquote(raw), unquote_plus(raw)) if part and part != HIDDEN)
    return sorted(found, key=len, reverse=True)


def scrub(text: str, url: str) -> str:
    """``text`` (an error message about ``url``) with every secret of ``url`` in it replaced."""
    for secret in secrets_in(url):
        text = text.replace(secret, HIDDEN)
    return text
