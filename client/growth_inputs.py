"""What people type for discovery, exchanges and site management, checked before any request is sent.

The rules mirror what the service refuses (a limit over 50, a question under 8 characters, a range it
does not know), so a mistake costs nothing and is explained in the user's own terms. The request
objects are frozen and hashable: the data layer uses them as cache keys and the write guard as
"same action" keys.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import idna

from client.errors import InvalidInputError
from client.inputs import MAX_RAW_INPUT_LENGTH, URL_SCHEME, has_control_chars, normalise_domain, slug_for

#: GET /find answers at most this many sites (contract notes: "limit (max 50)").
MAX_FIND_LIMIT = 50
#: Ratings are 0–100, so a minimum outside that range can never match anything.
MIN_RATING, MAX_RATING = 0, 100
#: Tracked AI-visibility questions: the service refuses shorter or longer ones (contract notes).
PROMPT_MIN_CHARS, PROMPT_MAX_CHARS = 8, 140
#: Where a question is asked from (e.g. "US"); short free text, the service does not list values.
MAX_LOCATION_CHARS = 60
#: The Search Console ranges the service accepts; any other value answers 400.
GSC_RANGES: tuple[str, ...] = ("28d", "3m", "6m", "12m", "16m")
DEFAULT_GSC_RANGE = "28d"
#: Submission fields: long enough for any real title or pitch, short enough to keep forms sane.
MAX_TITLE_CHARS = 120
MAX_DESCRIPTION_CHARS = 500
#: Exchange proposals are short emails; a subject line longer than this is cut off by mail clients.
MAX_SUBJECT_CHARS = 200
MAX_MESSAGE_CHARS = 5000

_SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,251}[a-z0-9])?$")
_CATEGORY = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
_X_HANDLE = re.compile(r"^[A-Za-z0-9_]{1,15}$")
_PROMPT_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _one_line(raw: object, *, field: str, what: str, max_chars: int, required: bool) -> str | None:
    """Whitespace folded to single spaces; None for an empty optional value."""
    if raw is None:
        raw = ""
    if not isinstance(raw, str):
        raise InvalidInputError(f"Enter {what} as text.", field=field)
    if has_control_chars(raw.replace("\t", " ")):
        raise InvalidInputError(f"{what.capitalize()} cannot contain control characters.", field=field)
    text = " ".join(unicodedata.normalize("NFC", raw).split())
    if not text:
        if required:
            raise InvalidInputError(f"Enter {what}.", field=field)
        return None
    if len(text) > max_chars:
        raise InvalidInputError(f"{what.capitalize()} is at most {max_chars} characters.", field=field)
    return text


def normalise_url(raw: str, *, field: str = "url") -> str:
    """An absolute http(s) URL for a page of a real domain; ``example.com/x`` gets ``https://``.

    The host keeps its subdomain (a badge may sit on ``blog.example.com``) but must belong to a
    registrable domain; the fragment is dropped because it never reaches the server.
    """
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidInputError("Enter the site's address, like https://example.com.", field=field)
    if len(raw) > MAX_RAW_INPUT_LENGTH:
        raise InvalidInputError("That address is far too long.", field=field)
    text = raw.strip()
    if has_control_chars(text) or any(ch.isspace() for ch in text):
        raise InvalidInputError("An address cannot contain spaces or control characters.", field=field)
    if not URL_SCHEME.match(text):
        text = "https://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise InvalidInputError("That is not a valid web address.", field=field) from exc
    if parts.scheme.lower() not in ("http", "https"):
        raise InvalidInputError("Only web addresses (http or https) can be used.", field=field)
    if "@" in parts.netloc:
        raise InvalidInputError("Addresses with user names are not allowed.", field=field)
    host = (parts.hostname or "").rstrip(".")
    try:
        normalise_domain(host)
    except InvalidInputError as exc:
        raise InvalidInputError(exc.message, field=field) from exc
    ascii_host = host if host.isascii() else idna.encode(host, uts46=True).decode("ascii")
    netloc = ascii_host.lower() + (f":{port}" if port else "")
    return urlunsplit((parts.scheme.lower(), netloc, parts.path or "/", parts.query, ""))


def normalise_slug(value: str) -> str:
    """A site identifier (``example-com``) from a slug or a domain (the spec shows :slug as a domain).

    A slug is its own normal form, so one pattern match checks it; a domain goes through
    ``normalise_domain``, which recognises one normalised already instead of parsing it again.
    """
    text = (value or "").strip().lower() if isinstance(value, str) else ""
    if text and "." not in text and "/" not in text:
        if _SLUG.match(text):
            return text
        raise InvalidInputError("That is not a site identifier like example-com.", field="slug")
    return slug_for(value)


def normalise_prompt(raw: str) -> str:
    """An AI-visibility question of 8–140 characters, whitespace folded."""
    text = _one_line(raw, field="prompt", what="a question", max_chars=PROMPT_MAX_CHARS, required=True)
    assert text is not None
    if len(text) < PROMPT_MIN_CHARS:
        raise InvalidInputError(
            f"A question needs at least {PROMPT_MIN_CHARS} characters, like “best privacy analytics tool”.",
            field="prompt",
        )
    return text


def normalise_location(raw: str | None) -> str | None:
    return _one_line(raw, field="location", what="the location", max_chars=MAX_LOCATION_CHARS, required=False)


def check_prompt_id(value: str) -> str:
    text = (value or "").strip() if isinstance(value, str) else ""
    if not _PROMPT_ID.match(text):
        raise InvalidInputError("That is not a question id like prm_123.", field="promptId")
    return text


def check_gsc_range(value: str) -> str:
    """One of the five ranges Search Console performance accepts."""
    text = (value or "").strip().lower() if isinstance(value, str) else ""
    if text not in GSC_RANGES:
        raise InvalidInputError(f"Choose a range of {', '.join(GSC_RANGES)}.", field="range")
    return text


def check_subject(raw: str) -> str:
    text = _one_line(raw, field="subject", what="a subject", max_chars=MAX_SUBJECT_CHARS, required=True)
    assert text is not None
    return text


def check_message(raw: str) -> str:
    """The proposal's body: line breaks kept (it is an email), surrounding blank space removed."""
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidInputError("Write a message: a proposal needs one.", field="message")
    text = unicodedata.normalize("NFC", raw).replace("\r\n", "\n").strip()
    if has_control_chars(text.replace("\n", " ").replace("\t", " ")):
        raise InvalidInputError("The message cannot contain control characters.", field="message")
    if len(text) > MAX_MESSAGE_CHARS:
        raise InvalidInputError(f"The message is at most {MAX_MESSAGE_CHARS} characters.", field="message")
    return text


def _rating(value: Any, name: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise InvalidInputError(f"{name} is a whole number from 0 to 100.", field=name)
    if not MIN_RATING <= value <= MAX_RATING:
        raise InvalidInputError(f"{name} is a whole number from 0 to 100.", field=name)
    return int(value)


def check_category(value: str | None) -> str | None:
    if value is None:
        return None
    text = value.strip().lower() if isinstance(value, str) else ""
    if not text:
        return None
    if not _CATEGORY.match(text):
        raise InvalidInputError("That is not a category value like saas.", field="category")
    return text


@dataclass(frozen=True)
class DiscoveryFilters:
    """The filters of GET /find (for discovery and for exchange candidates), validated on creation."""

    category: str | None = None
    min_true_dr: int | None = None
    min_dr: int | None = None
    traffic_validated: bool = False
    include_unverified: bool = False
    limit: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "category", check_category(self.category))
        object.__setattr__(self, "min_true_dr", _rating(self.min_true_dr, "minimum TrueDR"))
        object.__setattr__(self, "min_dr", _rating(self.min_dr, "minimum DR"))
        object.__setattr__(self, "traffic_validated", bool(self.traffic_validated))
        object.__setattr__(self, "include_unverified", bool(self.include_unverified))
        limit = self.limit
        valid_limit = isinstance(limit, int) and not isinstance(limit, bool) and 1 <= limit <= MAX_FIND_LIMIT
        if limit is not None and not valid_limit:
            raise InvalidInputError(f"The limit is a whole number from 1 to {MAX_FIND_LIMIT}.", field="limit")

    def to_params(self) -> dict[str, str]:
        """The query string the service documents; flags are sent only when set."""
        params: dict[str, str] = {}
        if self.category:
            params["category"] = self.category
        if self.min_true_dr is not None:
            params["minTrueDr"] = str(self.min_true_dr)
        if self.min_dr is not None:
            params["minDr"] = str(self.min_dr)
        if self.traffic_validated:
            params["trafficValidated"] = "true"
        if self.include_unverified:
            params["includeUnverified"] = "true"
        if self.limit is not None:
            params["limit"] = str(self.limit)
        return params


@dataclass(frozen=True)
class NewSite:
    """A site to submit (POST /sites), normalised and checked on creation."""

    url: str
    title: str | None = None
    description: str | None = None
    categories: tuple[str, ...] = field(default_factory=tuple)
    x_handle: str | None = None
    site_check: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "url", normalise_url(self.url))
        title = _one_line(
            self.title, field="title", what="the title", max_chars=MAX_TITLE_CHARS, required=False
        )
        object.__setattr__(self, "title", title)
        description = _one_line(
            self.description,
            field="description",
            what="the description",
            max_chars=MAX_DESCRIPTION_CHARS,
            required=False,
        )
        object.__setattr__(self, "description", description)
        if isinstance(self.categories, str):
            raise InvalidInputError("Give the categories as a list of values.", field="categories")
        values: dict[str, None] = {}
        for item in self.categories or ():
            value = check_category(item)
            if value:
                values.setdefault(value, None)
        object.__setattr__(self, "categories", tuple(values))
        handle = self.x_handle.strip().removeprefix("@") if isinstance(self.x_handle, str) else None
        if handle and not _X_HANDLE.match(handle):
            raise InvalidInputError("An X handle has 1–15 letters, digits or underscores.", field="xHandle")
        object.__setattr__(self, "x_handle", handle or None)
        object.__setattr__(self, "site_check", bool(self.site_check))

    @property
    def domain(self) -> str:
        """The registrable domain the service files the site under."""
        return normalise_domain(self.url)

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"url": self.url}
        if self.title:
            body["title"] = self.title
        if self.description:
            body["description"] = self.description
        if self.categories:
            body["categories"] = list(self.categories)
        if self.x_handle:
            body["xHandle"] = self.x_handle
        if self.site_check:
            body["siteCheck"] = True
        return body
