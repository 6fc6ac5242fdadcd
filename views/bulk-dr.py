"""Bulk DR checker: Domain Rating for many domains at once, with the quota cost shown before the run."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from client.errors import ApiError
from client.inputs import DomainList, parse_domain_list
from components.common.text import escape_md
from components.core import data
from components.core.connection import Connection, current_connection
from components.core.errors import show_error
from components.core.pages import BULK_DR, page_header
from components.core.sidebar import RESULT_PREFIX
from components.core.tables import score_column, table_with_export
from components.research import widgets as bulk_check
from components.research.charts import bulk_dr_chart
from components.research.frames.bulk import (
    MAX_BULK_DOMAINS,
    MAX_UPLOAD_BYTES,
    QuotaPlan,
    UploadError,
    bulk_frame,
    bulk_summary,
    domains_from_upload,
)
from components.research.frames.trust_map import dr_band_counts

LAST_RUN = RESULT_PREFIX + "bulk_dr_last_run"
#: Shows each path: a URL, a subdomain, a comma-separated pair, an unlisted site, a refused entry.
DEMO_LIST = "\n".join(
    [
        "stripe.com",
        "https://www.github.com/features",
        "example.com, hubspot.com",
        "blog.acme-widgets.com",
        "paperplane.dev",
        "localhost",
    ]
)
RESULT_COLUMNS = {
    "domain": st.column_config.TextColumn("Domain", pinned=True),
    "dr": score_column("DR"),
    "listed": st.column_config.CheckboxColumn("Listed"),
    "slug": st.column_config.TextColumn("Slug"),
    "source": st.column_config.TextColumn("Source"),
    "error": st.column_config.TextColumn("Problem"),
}
REJECTED_COLUMNS = {
    "entry": st.column_config.TextColumn("Entry"),
    "reason": st.column_config.TextColumn("Why it was skipped"),
}


@dataclass(frozen=True)
class BulkRun:
    """One finished run, kept for this session so reruns (sorting, downloading) show it again."""

    domains: tuple[str, ...]
    frame: pd.DataFrame
    spent: int
    from_cache: int
    ended_by: ApiError | None


def _use_demo_list() -> None:
    st.session_state["bulk_domains"] = DEMO_LIST


def _inputs(conn: Connection) -> str:
    """Pasted text plus the uploaded file's domains, as one text for the parser."""
    pasted = st.text_area(
        "Domains",
        key="bulk_domains",
        bind="query-params",
        height=160,
        placeholder="stripe.com\nhttps://blog.example.co.uk/post\nhubspot.com, github.com",
        help=f"One per line or separated by commas; URLs and subdomains are fine. Up to {MAX_BULK_DOMAINS}.",
    )
    upload = st.file_uploader(
        "Or upload a CSV or TXT file",
        type=["csv", "txt"],
        key="bulk_upload",
        max_upload_size=MAX_UPLOAD_BYTES // 1_000_000,
        help="A CSV contributes its column headed domain, website, site or url (else its first column).",
    )
    text = pasted or ""
    if upload is not None:
        try:
            text += "\n" + domains_from_upload(upload.name, upload.getvalue())
        except UploadError as exc:
            st.warning(escape_md(str(exc)), icon=":material/block:")
    if conn.mode == "sandbox" and not text.strip():
        st.button("Fill in a demo list", key="bulk_demo", on_click=_use_demo_list, icon=":material/list:")
    return text


def _rejected(parsed: DomainList) -> None:
    if not parsed.rejected:
        return
    frame = pd.DataFrame(parsed.rejected, columns=["entry", "reason"]).astype("string")
    frame["entry"] = frame["entry"].str.slice(0, 200)
    words = "1 entry was" if len(frame) == 1 else f"{len(frame)} entries were"
    with st.expander(f"{words} skipped, and why", expanded=len(frame) <= 5, icon=":material/block:"):
        table_with_export(frame, what="bulk-dr-skipped", key="bulk_rejected", column_config=REJECTED_COLUMNS)


def _cost(conn: Connection, plan: QuotaPlan, total: int) -> None:
    cols = st.columns(3)
    cols[0].metric("Domains to check", total, border=True)
    cols[1].metric("Quota units this run", plan.units, border=True, help="One unit per domain not cached")
    cols[2].metric("Answered from the cache (free)", len(plan.cached), border=True)
    quota = data.quota(conn)
    if quota is not None and quota.remaining is not None and plan.units > quota.remaining:
        st.warning(
            f"Your key has {quota.remaining:,} quota units left, fewer than this run needs. The run stops "
            "when the quota is used up; domains not reached are listed as not checked.",
            icon=":material/toll:",
        )


def _run(conn: Connection, domains: tuple[str, ...], plan: QuotaPlan) -> BulkRun:
    """Check every domain with a progress bar; failures stay in the results, they stop nothing."""
    progress = st.progress(0.0, text="Starting…")
    results = []
    # closing(): a rerun interrupting the loop stops the workers at once instead of at collection.
    with contextlib.closing(bulk_check.check_domains(conn, domains)) as checks:
        for done, result in enumerate(checks, start=1):
            results.append(result)
            progress.progress(done / len(domains), text=f"Checked {done} of {len(domains)}")
    progress.empty()
    by_domain = {r.item: r for r in results}
    ordered = [by_domain[d] for d in domains]
    ended_by = next((r.error for r in ordered if r.skipped and r.error is not None), None)
    return BulkRun(
        domains=domains,
        frame=bulk_frame(ordered),
        spent=bulk_check.spent_units(ordered, plan.to_ask),
        from_cache=len(plan.cached),
        ended_by=ended_by,
    )


def _results(run: BulkRun) -> None:
    counts = bulk_summary(run.frame)
    st.success(
        f"Rated {counts['rated']} of {counts['domains']} domains ({counts['listed']} listed on VerifiedDR). "
        f"This run spent {run.spent} quota unit{'s' if run.spent != 1 else ''}; "
        f"{run.from_cache} came from the cache.",
        icon=":material/task_alt:",
    )
    if run.ended_by is not None:
        st.markdown("**The run stopped early.** Domains it did not reach are marked as not checked.")
        show_error(run.ended_by, subject="these domains")
    order = list(RESULT_COLUMNS)
    if counts["failed"]:
        st.caption(f"{counts['failed']} domains could not be rated; the Problem column says why.")
        order.remove("error")
        order.insert(1, "error")  # failures are explained next to their domain, not off-screen
    st.plotly_chart(data.figure(bulk_dr_chart, run.frame, dr_band_counts(run.frame)), key="bulk_chart")
    table_with_export(
        run.frame, what="bulk-dr", key="bulk_dr", column_config=RESULT_COLUMNS, column_order=order
    )


conn = current_connection()
page_header(
    BULK_DR,
    "Domain Rating for many domains at once, listed or not. Each domain spends one quota unit the "
    "first time; answers are kept for 15 minutes, so checking them again spends nothing.",
)
parsed = parse_domain_list(_inputs(conn), limit=MAX_BULK_DOMAINS)
_rejected(parsed)
if parsed.domains:
    plan = bulk_check.plan(conn, parsed.domains)
    _cost(conn, plan, len(parsed.domains))
    label = f"Check {len(parsed.domains)} domain{'s' if len(parsed.domains) != 1 else ''}"
    label += (
        f" (spends {plan.units} quota unit{'s' if plan.units != 1 else ''})"
        if plan.units
        else " (all cached: free)"
    )
    if st.button(label, key="bulk_start", type="primary", icon=":material/play_arrow:"):
        st.session_state[LAST_RUN] = _run(conn, parsed.domains, plan)
        st.rerun()  # draw the cost again: what was just checked is now cached and free
    last: BulkRun | None = st.session_state.get(LAST_RUN)
    if last is not None and last.domains == parsed.domains:
        _results(last)
else:
    st.caption("Paste domains or upload a file to see what a check will cost.")
