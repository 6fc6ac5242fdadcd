"""Turning what people type into what the service accepts, before any request is sent.

Domains become the registrable domain (the service rates ``example.co.uk``, not
``https://Blog.Example.co.uk:443/x``), so that two spellings of one site share one cache entry and
one quota unit, and input that can never be valid is refused here, where it costs nothing.

One door: a value is normalised once on its way to a request. The app's data layer normalises what a
person typed; the client's methods normalise again so a script passing raw text is just as safe, and
that second call recognises a value this module produced (a set lookup) instead of parsing it again.
Normalised values stay plain ``str``: a marker subclass would be keyed apart from the same text by
Streamlit's cache hashing (it hashes the type's name too), splitting and orphaning cache entries.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import idna
import tldextract

from client.errors import InvalidInputError

#: DNS limits (RFC 1035): a whole name of at most 253 characters, labels of at most 63.
MAX_DOMAIN_LENGTH = 253
MAX_LABEL_LENGTH = 63
#: Longer than any URL a person pastes; refusing early keeps hostile megabyte inputs cheap.
MAX_RAW_INPUT_LENGTH = 2048
#: Keywords are search queries; Google ignores words past 32, so 200 characters is generous.
MAX_KEYWORD_LENGTH = 200

_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
URL_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")
#: Inside one line, what separates entries: commas always; whitespace and semicolons only where every
#: piece is a domain (a row pasted from a sheet), so ``not a domain!!`` stays one entry.
_ENTRY_SEPARATOR = ","
_WORD_SEPARATORS = re.compile(r"[\s;]+")
#: Normalised values remembered per normaliser; one forgotten is only parsed again, never refused.
RECOGNISED_MAX_ENTRIES = 4096


class _Recognised:
    """The values one normaliser produced lately, so handing one back costs a lookup, not a parse.

    Normalising is idempotent (a normalised value normalises to itself), so returning a recognised
    value unchanged is exactly what parsing it again would give. Each normaliser has its own: a
    recognised keyword must never pass as a domain. Shared by every session, so bounded (oldest out
    first) and locked for writes.
    """

    def __init__(self, max_entries: int = RECOGNISED_MAX_ENTRIES) -> None:
        self._max_entries = max_entries
        self._values: dict[str, None] = {}
        self._lock = threading.Lock()

    def __contains__(self, value: object) -> bool:
        # Only a plain str: a subclass could compare equal without being the text it claims.
        return type(value) is str and value in self._values

    def add(self, value: str) -> str:
        """Remember ``value`` as normalised and return it."""
        if value in self._values:  # the usual case: another spelling of a site seen before
            return value
        with self._lock:
            self._values[value] = None
            while len(self._values) > self._max_entries:
                del self._values[next(iter(self._values))]
        return value

    def normalised(self, raw: object, parse: Callable[[Any], str]) -> str:
        """``raw`` itself when it is a value produced before, otherwise ``parse(raw)``, remembered."""
        if isinstance(raw, str) and raw in self:
            return raw
        return self.add(parse(raw))


_DOMAINS = _Recognised()
_KEYWORDS = _Recognised()


@lru_cache(maxsize=1)
def _extractor() -> tldextract.TLDExtract:
    # suffix_list_urls=() makes tldextract use the Public Suffix List snapshot bundled in the
    # package: it must never fetch the list over the network (closed networks, and privacy).
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def has_control_chars(text: str) -> bool:
    """Whether ``text`` holds control, format or line/paragraph separator characters."""
    return any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in text)


def _host_of(text: str) -> str:
    """The host part of a domain, URL or ``host:port/path`` string, refusing what is not one."""
    has_scheme = bool(URL_SCHEME.match(text))
    if not has_scheme and ("?" in text or "#" in text):
        raise InvalidInputError("Enter a domain like example.com: '?' and '#' belong only in full URLs.")
    if "\\" in text:
        raise InvalidInputError("Enter a domain like example.com: backslashes are not allowed.")
    try:
        parts = urlsplit(text if has_scheme else f"//{text}")
    except ValueError as exc:
        raise InvalidInputError("Enter a domain like example.com: this is not a valid URL.") from exc
    if has_scheme and parts.scheme.lower() not in ("http", "https"):
        raise InvalidInputError("Only web addresses (http or https) can be rated.")
    if "@" in parts.netloc:
        raise InvalidInputError("Enter a domain like example.com: user names in addresses are not allowed.")
    if any(seg in ("..", ".") for seg in text.split("/")):
        raise InvalidInputError("Enter a domain like example.com: '../' path segments are not allowed.")
    try:
        parts.port  # noqa: B018 - accessing it validates the port
    except ValueError as exc:
        raise InvalidInputError("Enter a domain like example.com: the port is not a number.") from exc
    host = parts.hostname or ""
    if not host:
        raise InvalidInputError("Enter a domain like example.com: no host name was found.")
    return host


def _to_ascii(host: str) -> str:
    """Lower-cased ASCII (punycode) form, so an IDN and its xn-- spelling are the same site."""
    host = host.strip().rstrip(".").lower()
    if host.isascii():
        return host
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError) as exc:
        raise InvalidInputError("This international domain name is not valid.") from exc


def normalise_domain(raw: str) -> str:
    """The registrable domain for a domain, subdomain or URL; raises InvalidInputError otherwise.

    A value this function returned before is returned as it is, without parsing it again.
    """
    return _DOMAINS.normalised(raw, _parse_domain)


def _parse_domain(raw: str) -> str:
    if not isinstance(raw, str):
        raise InvalidInputError("Enter a domain like example.com.")
    if len(raw) > MAX_RAW_INPUT_LENGTH:
        raise InvalidInputError("That is far too long to be a domain.")
    text = raw.strip()
    if not text:
        raise InvalidInputError("Enter a domain like example.com.")
    if has_control_chars(text):
        raise InvalidInputError("Enter a domain like example.com: it contains control characters.")
    if any(ch.isspace() for ch in text):
        raise InvalidInputError("Enter one domain like example.com: it contains spaces.")
    host = _to_ascii(_host_of(text))
    if len(host) > MAX_DOMAIN_LENGTH:
        raise InvalidInputError("That domain is longer than 253 characters.")
    labels = host.split(".")
    if any(len(label) > MAX_LABEL_LENGTH for label in labels):
        raise InvalidInputError("A part of that domain is longer than 63 characters.")
    if not all(_LABEL.match(label) for label in labels):
        raise InvalidInputError("Domains use letters, digits and hyphens between dots, like example.com.")
    parts = _extractor()(host)
    if not parts.suffix:
        raise InvalidInputError("That is not a public domain: it has no known ending such as .com or .co.uk.")
    if not parts.domain:
        raise InvalidInputError("That is only a domain ending; add the site's name, like example.co.uk.")
    return f"{parts.domain}.{parts.suffix}"


def slug_for(domain: str) -> str:
    """The service's site identifier: the registrable domain with dots as hyphens."""
    return normalise_domain(domain).replace(".", "-")


def normalise_keyword(raw: str) -> str:
    """A search keyword with whitespace folded; refuses empty, control characters or overlong.

    A value this function returned before is returned as it is, without checking it again.
    """
    return _KEYWORDS.normalised(raw, _parse_keyword)


def _parse_keyword(raw: str) -> str:
    if not isinstance(raw, str):
        raise InvalidInputError("Enter a keyword.", field="keyword")
    if has_control_chars(raw.replace("\t", " ").replace("\n", " ").replace("\r", " ")):
        raise InvalidInputError("Keywords cannot contain control characters.", field="keyword")
    text = " ".join(unicodedata.normalize("NFC", raw).split())
    if not text:
        raise InvalidInputError("Enter a keyword.", field="keyword")
    if len(text) > MAX_KEYWORD_LENGTH:
        raise InvalidInputError(f"Keywords are at most {MAX_KEYWORD_LENGTH} characters.", field="keyword")
    return text


@dataclass(frozen=True)
class ListEntry:
    """One entry of a pasted list, as typed (trimmed), and what became of it.

    One of three: ``domain`` alone (to check), ``domain`` with ``same_as`` (a duplicate of the
    earlier entry ``same_as`` names, merged into it), or ``problem`` (skipped, and why; ``domain``
    is set too for a domain past the list's limit).
    """

    text: str
    domain: str | None = None
    same_as: str | None = None
    problem: str | None = None


@dataclass(frozen=True)
class DomainList:
    """A pasted list, every entry accounted for in the order typed, and how many lines held them."""

    entries: tuple[ListEntry, ...]
    lines: int = 0

    @property
    def domains(self) -> tuple[str, ...]:
        """The distinct registrable domains to check, in first-seen order."""
        return tuple(e.domain for e in self.entries if e.domain and not e.same_as and not e.problem)

    @property
    def duplicates(self) -> tuple[ListEntry, ...]:
        """Entries naming a site an earlier entry already named (merged into that one)."""
        return tuple(e for e in self.entries if e.same_as is not None)

    @property
    def rejected(self) -> tuple[tuple[str, str], ...]:
        """Skipped entries as (text as typed, why)."""
        return tuple((e.text, e.problem) for e in self.entries if e.problem is not None)


def _split_entry(text: str) -> list[tuple[str, str | None, str | None]]:
    """One comma-separated piece as (text, domain, problem) entries: itself, or its words.

    Words are entries of their own only when every one is a domain (``a.com<TAB>b.com``); otherwise
    the piece is one entry, refused once with its whole text.
    """
    try:
        return [(text, normalise_domain(text), None)]
    except InvalidInputError as whole:
        problem = whole.message
    words = [w for w in _WORD_SEPARATORS.split(text) if w]
    if words == [text]:
        return [(text, None, problem)]
    split: list[tuple[str, str | None, str | None]] = []
    for word in words:
        try:
            split.append((word, normalise_domain(word), None))
        except InvalidInputError as exc:
            if split:  # some words are domains: name the one that is not
                problem = f"“{word[:60]}”: {exc.message}"
            return [(text, None, problem)]
    return split


def parse_domain_list(text: str, *, limit: int | None = None) -> DomainList:
    """Split on new lines and commas; normalise, merge duplicates, keep every refusal with its text.

    Past ``limit`` distinct domains, further ones are skipped and say so.
    """
    past_limit = f"Only the first {limit} domains are used."
    entries: list[ListEntry] = []
    first_spelling: dict[str, str] = {}
    lines = 0
    for line in (text or "").splitlines():
        pieces = [p.strip() for p in line.split(_ENTRY_SEPARATOR)]
        pieces = [p for p in pieces if p.strip(";")]
        lines += bool(pieces)
        for typed, domain, problem in (entry for piece in pieces for entry in _split_entry(piece)):
            if domain is None:
                entries.append(ListEntry(typed, problem=problem))
            elif domain in first_spelling:
                entries.append(ListEntry(typed, domain, same_as=first_spelling[domain]))
            else:
                over = limit is not None and len(first_spelling) >= limit
                first_spelling[domain] = typed
                entries.append(ListEntry(typed, domain, problem=past_limit if over else None))
    return DomainList(entries=tuple(entries), lines=lines)
