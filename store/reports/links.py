"""Share links: a signed, expiring, revocable address that opens one site's report for one period.

A link is a row of ``report_links`` and a token naming it: a JWT (HS256, by joserfc, which Authlib
itself builds on) holding the row's id and its expiry, signed with the shared key. The key is
``[report] link_secret`` when the secrets set one, else a random key made once and kept in
``store_secrets`` (inserted only if absent, so every replica and the cron jobs end up with the same
one). ``ReportLinks.open_report_link`` checks the signature, then the row: a token that was altered,
signed with another key or names no row is "not valid"; a revoked row says so, and so does a link past
its expiry. Opening a valid link appends an audit row by "someone with the link" (through the audit
log ``ReportLinks`` is given when it is made); creating and revoking are audited by the app's write
path (``components.core.writes.writes``).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import OctKey
from sqlalchemy import Engine, Row, Table, select, update
from sqlalchemy.dialects import postgresql, sqlite

from store.audit import AuditEvent, AuditLog
from store.engine import Connected
from store.models import SUBJECT_LEN
from store.reports.period import Period
from store.reports.tables import ReportLinkRow, StoreSecretRow
from store.rows import subject_name
from store.watchlist import as_utc, check_account

LINKS: Table = ReportLinkRow.__table__
SECRETS: Table = StoreSecretRow.__table__
#: How long a link lasts unless the person creating it picks otherwise.
DEFAULT_DAYS = 30
#: The longest a link may last.
MAX_DAYS = 365
#: The name of the shared signing key in ``store_secrets``.
SECRET_NAME = "report_link_key"  # noqa: S105  # the row's name, not the secret
#: Who opened a link, as the audit log names a visitor nobody signed in as.
ANYONE = "someone with the link"
EXPIRED = "This link has expired."
REVOKED = "This link was revoked."
NOT_VALID = "This link is not valid."
ALGORITHM = "HS256"

LinkState = Literal["active", "expired", "revoked"]


class LinkRefused(Exception):
    """A link that opens nothing; ``reason`` is the one plain sentence the visitor sees."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class ShareLink:
    """One share link as stored (never its token: only the person creating it gets that, once)."""

    id: int
    account: str
    site: str
    period: Period
    created_by: str
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None = None
    revoked_by: str | None = None

    def state(self, now: datetime | None = None) -> LinkState:
        if self.revoked_at is not None:
            return "revoked"
        if (now or datetime.now(UTC)) >= self.expires_at:
            return "expired"
        return "active"

    @property
    def about(self) -> str:
        """What the link opens, in words: "example.com, October 2026"."""
        return f"{self.site}, {self.period.words}"


def _link(row: Row[Any]) -> ShareLink:
    return ShareLink(
        id=row.id,
        account=row.account,
        site=row.site,
        period=Period(row.period_start, row.period_end),
        created_by=row.created_by,
        created_at=as_utc(row.created_at),
        expires_at=as_utc(row.expires_at),
        revoked_at=as_utc(row.revoked_at) if row.revoked_at else None,
        revoked_by=row.revoked_by,
    )


def _key(text: str) -> OctKey:
    """HS256 wants 256 bits: a configured secret of any length is hashed to exactly that."""
    return OctKey.import_key(hashlib.sha256(text.encode("utf-8")).digest())


class ReportLinks(Connected):
    """Share links (``HistoryStore.report_links``); opening one is written to ``audit``, the audit log it
    is given."""

    def __init__(self, engine: Engine, writer: Engine, url: str, audit: AuditLog) -> None:
        super().__init__(engine, writer, url)
        self._audit = audit

    def link_secret(self, configured: str | None = None) -> str:
        """The signing secret: ``configured`` when set, else the one kept in the database (made by the
        first caller; a caller racing it reads the winner's)."""
        if configured and configured.strip():
            return configured.strip()
        with self._reading() as conn:
            found = conn.execute(select(SECRETS.c.value).where(SECRETS.c.name == SECRET_NAME)).scalar()
        if found:
            return str(found)
        row = {"name": SECRET_NAME, "value": secrets.token_urlsafe(48), "created_at": datetime.now(UTC)}
        with self._writing() as conn:
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            conn.execute(dialect.insert(SECRETS).values(row).on_conflict_do_nothing(index_elements=["name"]))
        with self._writing() as conn:
            return str(
                conn.execute(select(SECRETS.c.value).where(SECRETS.c.name == SECRET_NAME)).scalar_one()
            )

    def create_report_link(
        self,
        account: str,
        site: str,
        period: Period,
        person: str,
        *,
        days: int = DEFAULT_DAYS,
        secret: str | None = None,
        now: datetime | None = None,
    ) -> tuple[ShareLink, str]:
        """A new link to ``site``'s report for ``period``, lasting ``days``: the row and its token."""
        if not 1 <= days <= MAX_DAYS:
            raise ValueError(f"a link lasts from 1 to {MAX_DAYS} days")
        created = now or datetime.now(UTC)
        row: dict[str, Any] = {
            "account": check_account(account),
            "site": subject_name(site),
            "period_start": period.start,
            "period_end": period.end,
            "created_by": person[:SUBJECT_LEN],
            "created_at": created,
            "expires_at": created + timedelta(days=days),
        }
        key = _key(self.link_secret(secret))
        with self._writing() as conn:
            link_id = conn.execute(LINKS.insert().values(row).returning(LINKS.c.id)).scalar_one()
        link = ShareLink(link_id, account, row["site"], period, row["created_by"], created, row["expires_at"])
        claims = {"lid": link_id, "exp": int(link.expires_at.timestamp())}
        return link, jwt.encode({"alg": ALGORITHM}, claims, key, algorithms=[ALGORITHM])

    def open_report_link(
        self, token: str, *, secret: str | None = None, now: datetime | None = None, audit: bool = True
    ) -> ShareLink:
        """The link ``token`` names, when it may be opened; LinkRefused with the reason otherwise.
        With ``audit`` a valid opening is recorded (the app records it once per visit)."""
        moment = now or datetime.now(UTC)
        try:
            claims = jwt.decode(token.strip(), _key(self.link_secret(secret)), algorithms=[ALGORITHM]).claims
            link_id, expires = claims["lid"], claims["exp"]
        except (JoseError, ValueError, KeyError, TypeError):
            raise LinkRefused(NOT_VALID) from None
        if not isinstance(link_id, int) or not isinstance(expires, int):
            raise LinkRefused(NOT_VALID)
        with self._reading() as conn:
            row = conn.execute(select(*LINKS.c).where(LINKS.c.id == link_id)).one_or_none()
        if row is None:
            raise LinkRefused(NOT_VALID)
        link = _link(row)
        if link.state(moment) == "revoked":
            raise LinkRefused(REVOKED)
        if link.state(moment) == "expired" or moment.timestamp() >= expires:
            raise LinkRefused(EXPIRED)
        if audit:
            self._audit.record(
                AuditEvent(
                    ANYONE,
                    None,
                    link.account,
                    "open_share_link",
                    link.about,
                    "done",
                    detail=f"link {link.id}",
                )
            )
        return link

    def revoke_report_link(
        self, account: str, link_id: int, person: str, *, now: datetime | None = None
    ) -> bool:
        """End a link at once; False when it was revoked already (or is not this account's)."""
        query = (
            update(LINKS)
            .where(
                LINKS.c.account == check_account(account), LINKS.c.id == link_id, LINKS.c.revoked_at.is_(None)
            )
            .values(revoked_at=now or datetime.now(UTC), revoked_by=person[:SUBJECT_LEN])
        )
        with self._writing() as conn:
            return bool(conn.execute(query).rowcount)

    def entries(self, account: str, site: str) -> list[ShareLink]:
        """The site's links, newest first, revoked and expired ones too."""
        query = (
            select(*LINKS.c)
            .where(LINKS.c.account == check_account(account), LINKS.c.site == subject_name(site))
            .order_by(LINKS.c.created_at.desc(), LINKS.c.id.desc())
        )
        with self._reading() as conn:
            return [_link(row) for row in conn.execute(query)]
