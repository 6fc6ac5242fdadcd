"""Bulk DR checker shaping: uploaded files → domain text, what became of each pasted line, a quota plan,
a run's figures, results → DataFrame, the finished run as the page keeps it, the start button's words.

Pure functions (no Streamlit, no network), so the parts that decide what a run costs, what the page
counts and what the table says are tested on their own.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import pandas as pd

from analysis.error_wording import describe_error
from analysis.wording import counted
from client.bulk import ItemResult
from client.errors import ApiError
from client.inputs import DomainList
from client.models import DomainRating

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
    "source": "string",
    "error": "string",
}
#: Who rated a domain, in the names a marketer knows (the service answers in lower case).
SOURCE_NAMES = {"verifieddr": "VerifiedDR", "ahrefs": "Ahrefs"}


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


def list_summary(parsed: DomainList) -> str:
    """What became of the pasted lines, in one sentence: each entry is checked, merged or skipped."""
    entries = len(parsed.entries)
    pasted = counted(parsed.lines, "line")
    if entries != parsed.lines:
        pasted = f"{counted(entries, 'entry', 'entries')} on {pasted}"
    parts = [counted(len(parsed.domains), "domain") + " to check"]
    if parsed.duplicates:
        parts.append(counted(len(parsed.duplicates), "duplicate") + " merged")
    if parsed.rejected:
        parts.append(f"{len(parsed.rejected):,} skipped")
    return f"{pasted}: {', '.join(parts)}."


def duplicates_frame(parsed: DomainList) -> pd.DataFrame:
    """Each merged entry next to the entry it repeats and the site both name."""
    rows = [(e.text, e.same_as, e.domain) for e in parsed.duplicates]
    return pd.DataFrame(rows, columns=["entry", "same_as", "domain"]).astype("string")


def skipped_frame(parsed: DomainList, *, max_chars: int = 200) -> pd.DataFrame:
    """Each skipped entry as typed (cut to ``max_chars``) and why it was skipped."""
    rows = [(text[:max_chars], reason) for text, reason in parsed.rejected]
    return pd.DataFrame(rows, columns=["entry", "reason"]).astype("string")


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


@dataclass(frozen=True)
class RunFigures:
    """What a run did so far, one set of figures for the progress bar, the cards and the headline.

    ``checked`` = ``spent`` + ``from_cache`` + ``failed``; ``not_checked`` were never asked (the run
    ended early). A domain rated by the service spent a unit; one the cache answered spent none.
    """

    total: int
    rated: int = 0
    spent: int = 0
    from_cache: int = 0
    failed: int = 0
    not_checked: int = 0

    @property
    def checked(self) -> int:
        return self.rated + self.failed

    def progress_text(self) -> str:
        return (
            f"Checked {self.checked} of {self.total}: {counted(self.spent, 'quota unit')} spent, "
            f"{self.from_cache} from the cache"
        )


def run_figures(
    results: Sequence[ItemResult[DomainRating]], cached: Collection[str], *, total: int
) -> RunFigures:
    """The figures of ``results`` (all or part of a run of ``total`` domains; ``cached`` free).

    Refusals, 429s, 503s and dropped connections are answered before any quota is counted, so only
    a rated domain that was not cached spent a unit.
    """
    rated = [r for r in results if r.ok]
    from_cache = sum(1 for r in rated if r.item in cached)
    return RunFigures(
        total=total,
        rated=len(rated),
        spent=len(rated) - from_cache,
        from_cache=from_cache,
        failed=sum(1 for r in results if r.error is not None and not r.skipped),
        not_checked=sum(1 for r in results if r.skipped),
    )


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
        source = rating.source
        row.update(dr=rating.dr, listed=rating.listed, source=SOURCE_NAMES.get(source or "", source))
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


@dataclass(frozen=True)
class BulkRun:
    """One finished run, kept for this session so reruns (sorting, downloading) show it again."""

    domains: tuple[str, ...]
    frame: pd.DataFrame
    figures: RunFigures
    ended_by: ApiError | None


def finished_run(
    domains: tuple[str, ...], results: Sequence[ItemResult[DomainRating]], cached: Collection[str]
) -> BulkRun:
    """The run of ``domains`` from its results (which come as they complete), in the order given; it
    ended early when a domain was never asked, and the first such domain's error says why."""
    by_domain = {r.item: r for r in results}
    ordered = [by_domain[d] for d in domains]
    ended_by = next((r.error for r in ordered if r.skipped and r.error is not None), None)
    return BulkRun(
        domains=domains,
        frame=bulk_frame(ordered),
        figures=run_figures(ordered, cached, total=len(domains)),
        ended_by=ended_by,
    )


def start_label(count: int, plan: QuotaPlan, *, again: bool) -> str:
    """The start button says what pressing it costs now (after a run: usually nothing)."""
    label = f"Check {counted(count, 'domain')}" + (" again" if again else "")
    if not plan.units:
        return label + " (all cached: free)"
    return label + f" (spends {counted(plan.units, 'quota unit')})"
