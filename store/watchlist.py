"""The watchlist of each account: its own sites, and the competitor domains and keywords people add.

A subject is stored normalised (``normalise_subject``): a domain as its registrable domain, a keyword
with whitespace folded and in lower case, so "Stripe.com" and "https://stripe.com/x" are one item.
A watched keyword belongs to a site: the domain whose position it is measured for (``site``; "" for a
domain, and for a keyword watched before sites were recorded: "site unknown"), so one keyword may be
watched for your site and a competitor's. Adding is idempotent; adding a subject already there as
"added" with origin "own" marks it as own.
``insert_if_new`` is that idempotent insert for any table (the alerts use it too).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeGuard, get_args

from sqlalchemy import Connection, Table, delete, exists, select, update
from sqlalchemy.dialects import postgresql, sqlite

from client.inputs import normalise_domain, normalise_keyword, slug_for
from store.engine import Connected
from store.models import WatchItemRow
from store.rows import subject_name

WatchKind = Literal["domain", "keyword"]
WatchOrigin = Literal["own", "added", "demo"]
WATCH_KINDS: tuple[str, ...] = get_args(WatchKind)


def is_watch_kind(text: str) -> TypeGuard[WatchKind]:
    """Whether ``text`` (from a command line or a file) names a kind of watched subject."""
    return text in WATCH_KINDS


WATCH_ORIGINS: tuple[str, ...] = get_args(WatchOrigin)

WATCH: Table = WatchItemRow.__table__
#: What makes a watch one of a kind: a keyword watched for two sites is two watches.
WATCH_KEY = ("account", "kind", "subject", "site")


#: The words for a watched keyword whose site is not known (watched before sites were recorded).
SITE_UNKNOWN = "site unknown"


@dataclass(frozen=True)
class WatchItem:
    kind: WatchKind
    subject: str
    origin: WatchOrigin
    added_at: datetime
    #: The domain a keyword is measured for; "" for a domain, or a keyword whose site is unknown.
    site: str = ""

    @property
    def label(self) -> str:
        """How people read it: "stripe.com", "“cold brew coffee” for northwind-coffee.com"."""
        if self.kind == "domain":
            return self.subject
        return f"“{self.subject}” for {self.site or SITE_UNKNOWN}"


def own_sites(items: Iterable[WatchItem]) -> list[str]:
    """The domains of a watchlist's own sites (the account's sites on the service), alphabetical."""
    return sorted(item.subject for item in items if item.kind == "domain" and item.origin == "own")


def site_names(sites: Iterable[str]) -> dict[str, str]:
    """Each own site's slug (tracked keywords are recorded under it) → the domain people know it by."""
    return {slug_for(site): site for site in sites}


def normalise_subject(kind: str, value: str) -> str:
    """How a subject of ``kind`` is stored and compared; raises InvalidInputError for a bad one."""
    if kind == "domain":
        return normalise_domain(value)
    if kind == "keyword":
        return subject_name(normalise_keyword(value))
    raise ValueError(f"a watched subject is a domain or a keyword, not {kind!r}")


def normalise_site(kind: str, site: str | None) -> str:
    """The site a subject of ``kind`` is measured for, as stored: "" for a domain or an unknown site, a
    registrable domain for a keyword (InvalidInputError for a bad one)."""
    if kind != "keyword" or not site:
        return ""
    return normalise_domain(site)


def check_account(account: str) -> str:
    if not isinstance(account, str) or not account.strip():
        raise ValueError("an account (the API key's fingerprint) is required")
    return account


def insert_if_new(conn: Connection, table: Table, row: dict[str, Any], unique: Sequence[str]) -> int | None:
    """Insert ``row``; its id, or None when a row with the same ``unique`` columns is already there."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    stmt = (
        dialect.insert(table)
        .values(row)
        .on_conflict_do_nothing(index_elements=list(unique))
        .returning(table.c.id)
    )
    found = conn.execute(stmt).first()
    return None if found is None else int(found.id)


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every time this package writes is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class Watchlist(Connected):
    """The watchlist of every account (``HistoryStore.watchlist``)."""

    def entries(self, account: str) -> list[WatchItem]:
        """Every watched subject of the account: its own sites first, then by subject."""
        query = select(WATCH.c.kind, WATCH.c.subject, WATCH.c.origin, WATCH.c.added_at, WATCH.c.site).where(
            WATCH.c.account == check_account(account)
        )
        with self._reading() as conn:
            rows = conn.execute(query).all()
        items = [WatchItem(row.kind, row.subject, row.origin, as_utc(row.added_at), row.site) for row in rows]
        return sorted(items, key=lambda item: (item.origin != "own", item.subject, item.kind, item.site))

    def watch(
        self,
        account: str,
        kind: WatchKind,
        subject: str,
        origin: WatchOrigin = "added",
        site: str | None = None,
    ) -> bool:
        """Watch a subject (a keyword for ``site``); True when it was not watched before (idempotent)."""
        return self.watch_many(account, [(kind, subject, site)], origin)[0]

    def watch_many(
        self,
        account: str,
        subjects: Sequence[tuple[WatchKind, str, str | None]],
        origin: WatchOrigin = "added",
    ) -> list[bool]:
        """Watch every ``(kind, subject, site)`` in one transaction: all of them, or none when the
        database fails part-way. For each, True when it was not watched before (idempotent)."""
        if origin not in WATCH_ORIGINS:
            raise ValueError(f"origin is one of {', '.join(WATCH_ORIGINS)}")
        now = datetime.now(UTC)
        rows = [
            {
                "account": check_account(account),
                "kind": kind,
                "subject": normalise_subject(kind, subject),
                "site": normalise_site(kind, site),
                "origin": origin,
                "added_at": now,
            }
            for kind, subject, site in subjects
        ]
        added: list[bool] = []
        if not rows:
            return added
        with self._writing() as conn:
            for row in rows:
                added.append(insert_if_new(conn, WATCH, row, WATCH_KEY) is not None)
                if not added[-1] and origin == "own":
                    conn.execute(
                        update(WATCH)
                        .where(*(WATCH.c[name] == row[name] for name in WATCH_KEY))
                        .where(WATCH.c.origin != "own")
                        .values(origin="own")
                    )
        return added

    def unwatch(self, account: str, kind: WatchKind, subject: str, site: str | None = None) -> bool:
        """Stop watching a subject (its history stays); True when it was watched. A keyword is unwatched
        for ``site`` ("" for the site unknown), or for every site it is watched for when ``site`` is None."""
        stmt = delete(WATCH).where(*self._matching(account, kind, subject, site))
        with self._writing() as conn:
            return conn.execute(stmt).rowcount > 0

    def is_watched(self, account: str, kind: WatchKind, subject: str, site: str | None = None) -> bool:
        """Whether the subject is watched (a keyword: for ``site``, or for any site when None)."""
        query = select(exists().where(*self._matching(account, kind, subject, site)))
        with self._reading() as conn:
            return bool(conn.execute(query).scalar())

    @staticmethod
    def _matching(account: str, kind: str, subject: str, site: str | None) -> list[Any]:
        where = [
            WATCH.c.account == check_account(account),
            WATCH.c.kind == kind,
            WATCH.c.subject == normalise_subject(kind, subject),
        ]
        if site is not None:
            where.append(WATCH.c.site == normalise_site(kind, site))
        return where

    def watched_subjects(self, account: str) -> frozenset[tuple[str, str, str]]:
        """Every (kind, subject, site) the account watches: one cheap query, for the app's read hook."""
        query = select(WATCH.c.kind, WATCH.c.subject, WATCH.c.site).where(
            WATCH.c.account == check_account(account)
        )
        with self._reading() as conn:
            return frozenset((row.kind, row.subject, row.site) for row in conn.execute(query))
