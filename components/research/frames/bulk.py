"""Bulk DR checker shaping: uploaded files → domain text, a quota plan, results → DataFrame.

Pure functions (no Streamlit, no network), so the parts that decide what a run costs and what the
table says are tested on their own.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd

from client.bulk import ItemResult
from client.models import DomainRating
from components.common.wording import describe_error

#: A pasted or uploaded list longer than this is refused past the limit (each domain costs a unit).
MAX_BULK_DOMAINS = 500
#: Larger uploads are not domain lists; refusing them keeps a stray file from stalling the page.
MAX_UPLOAD_BYTES = 1_000_000
#: CSV header names that say which column holds the domains (compared case-insensitively).
DOMAIN_HEADERS = ("domain", "domains", "website", "site", "url", "host", "hostname")

BULK_COLUMNS: dict[str, str] = {
    "domain": "string",
    "dr": "Int64",
    "listed": "boolean",
    "slug": "string",
    "source": "string",
    "error": "string",
}


class UploadError(ValueError):
    """An uploaded file that cannot be a list of domains; the message is for the user."""


def _decode(data: bytes) -> str:
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadError(
            f"The file is larger than {MAX_UPLOAD_BYTES // 1_000_000} MB; upload a list of domains."
        )
    if b"\x00" in data[:4096]:
        raise UploadError("The file is not text; upload a CSV or TXT list of domains.")
    return data.decode("utf-8-sig", errors="replace")


def _csv_domains(text: str) -> list[str]:
    """The domain column of a CSV: the one headed like ``domain``/``url``, else the first one."""
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = [row for row in csv.reader(io.StringIO(text), dialect) if any(cell.strip() for cell in row)]
    if not rows:
        return []
    header = [cell.strip().lower() for cell in rows[0]]
    column = next((header.index(name) for name in DOMAIN_HEADERS if name in header), None)
    body = rows[1:] if column is not None else rows
    index = column if column is not None else 0
    return [row[index].strip() for row in body if len(row) > index and row[index].strip()]


def domains_from_upload(name: str, data: bytes) -> str:
    """The domains of an uploaded CSV or TXT file as one-per-line text, for ``parse_domain_list``.

    A TXT file is taken as typed (one per line, or comma separated). A CSV contributes only its
    domain column, so a header and other columns (notes, prices) are not reported as bad domains.
    """
    text = _decode(data)
    if name.lower().endswith(".csv"):
        return "\n".join(_csv_domains(text))
    return text


@dataclass(frozen=True)
class QuotaPlan:
    """What a run will cost: domains that spend a unit, and those the cache answers for free."""

    to_ask: tuple[str, ...]
    cached: tuple[str, ...]

    @property
    def units(self) -> int:
        return len(self.to_ask)


def quota_plan(domains: Sequence[str], is_cached: Callable[[str], bool]) -> QuotaPlan:
    """Split distinct, normalised domains by whether the cache already holds their DR."""
    cached = tuple(d for d in domains if is_cached(d))
    held = set(cached)
    return QuotaPlan(to_ask=tuple(d for d in domains if d not in held), cached=cached)


def bulk_row(result: ItemResult[DomainRating]) -> dict[str, object]:
    """One table row; a failed or skipped domain keeps its row and says why."""
    row: dict[str, object] = dict.fromkeys(BULK_COLUMNS)
    row["domain"] = result.item
    if result.error is not None:
        # The app's own words for the error (as everywhere else), then what the service said.
        view = describe_error(result.error, subject=result.item)
        said = result.error.message
        reason = view.title if not said or said == view.title else f"{view.title} ({said})"
        row["error"] = f"Not checked: {reason}" if result.skipped else reason
        return row
    rating = result.value
    if rating is not None:
        row.update(
            dr=rating.dr,
            listed=rating.listed,
            slug=rating.slug,
            source=rating.source,
        )
    return row


def bulk_frame(results: Sequence[ItemResult[DomainRating]]) -> pd.DataFrame:
    """Results in the order given, failures included; unknown values stay missing (NA)."""
    frame = pd.DataFrame([bulk_row(r) for r in results], columns=list(BULK_COLUMNS))
    return frame.astype(BULK_COLUMNS)


def bulk_summary(frame: pd.DataFrame) -> dict[str, int]:
    """Counts for the headline: rated, failed, listed."""
    return {
        "domains": len(frame),
        "rated": int(frame["dr"].notna().sum()),
        "failed": int(frame["error"].notna().sum()),
        "listed": int(frame["listed"].fillna(False).sum()),
    }
