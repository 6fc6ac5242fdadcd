"""The Bulk DR checker's parts: the list (pasted or uploaded) and what became of each line, what a run
will cost, the start button and the run it starts, and the last run's results.

A run spends quota units, so it is a write (``components.core.writes.quota_spends``): the button asks for it
and the page runs it once per click. The finished run is kept for the session (under the sidebar's
result prefix, so it is forgotten when the key changes) and shown again while the list is the same.
"""

from __future__ import annotations

import contextlib

import streamlit as st

from analysis.research.charts import bulk_dr_chart
from analysis.research.frames.trust_map import dr_band_counts
from analysis.text import escape_md
from analysis.wording import counted
from client.bulk import ItemResult
from client.inputs import DomainList
from client.models import DomainRating
from components.core.auth import access
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.ui.errors import show_error
from components.core.ui.sidebar import RESULT_PREFIX
from components.core.ui.tables import score_column, table_with_export
from components.core.writes.quota_spends import (
    Units,
    request_spend,
    run_requested_spend,
    show_spend_outcome,
    spend_requested,
    subjects_target,
)
from components.research.frames.bulk import (
    MAX_BULK_DOMAINS,
    MAX_UPLOAD_BYTES,
    BulkRun,
    QuotaPlan,
    RunFigures,
    UploadError,
    bulk_summary,
    domains_from_upload,
    duplicates_frame,
    finished_run,
    list_summary,
    run_figures,
    skipped_frame,
    start_label,
)
from components.research.widgets import bulk_check

LAST_RUN = RESULT_PREFIX + "bulk_dr_last_run"
#: The write slot of a run: its click waits here for the run that spends.
SLOT = "bulk_dr"
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
    "listed": st.column_config.CheckboxColumn("Listed on VerifiedDR"),
    "source": st.column_config.TextColumn("Rating from"),
    "error": st.column_config.TextColumn("Problem"),
}
REJECTED_COLUMNS = {
    "entry": st.column_config.TextColumn("Entry"),
    "reason": st.column_config.TextColumn("Why it was skipped", width="large"),
}
DUPLICATE_COLUMNS = {
    "entry": st.column_config.TextColumn("Entry"),
    "same_as": st.column_config.TextColumn("Same site as"),
    "domain": st.column_config.TextColumn("Checked as"),
}


def _use_demo_list() -> None:
    st.session_state["bulk_domains"] = DEMO_LIST


def domain_text(conn: Connection) -> str:
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


def accounting(parsed: DomainList) -> None:
    """What became of every pasted line: checked, merged as a duplicate (which, on request), skipped."""
    st.markdown(list_summary(parsed))  # counts only: nothing typed is in it
    if parsed.duplicates:
        count = len(parsed.duplicates)
        words = "1 duplicate merged" if count == 1 else f"{count} duplicates merged"
        with st.expander(f"{words}: which, and the entry each repeats", icon=":material/merge:"):
            st.caption("Each site is checked once, however many times or ways it is written.")
            table_with_export(
                duplicates_frame(parsed),
                what="bulk-dr-merged",
                key="bulk_merged",
                column_config=DUPLICATE_COLUMNS,
            )
    if parsed.rejected:
        count = len(parsed.rejected)
        words = "1 entry was" if count == 1 else f"{count} entries were"
        with st.expander(f"{words} skipped, and why", expanded=count <= 5, icon=":material/block:"):
            table_with_export(
                skipped_frame(parsed),
                what="bulk-dr-skipped",
                key="bulk_rejected",
                column_config=REJECTED_COLUMNS,
            )


def last_run_of(domains: tuple[str, ...]) -> BulkRun | None:
    """This session's last run, when it checked exactly these domains."""
    last: BulkRun | None = st.session_state.get(LAST_RUN)
    return last if last is not None and last.domains == domains else None


def cost(plan: QuotaPlan, total: int) -> None:
    """What the run will cost, before it starts (the figures ``run_cards`` confirms after it)."""
    cols = st.columns(3)
    cols[0].metric("Domains to check", total, border=True)
    cols[1].metric("Quota units this run", plan.units, border=True, help="One unit per domain not cached")
    cols[2].metric("Answered from the cache (free)", len(plan.cached), border=True)


def quota_warning(conn: Connection, plan: QuotaPlan) -> None:
    """A warning when the key's quota left is less than the run needs."""
    quota = data.quota(conn)
    if quota is not None and quota.remaining is not None and plan.units > quota.remaining:
        st.warning(
            f"Your key has {quota.remaining:,} quota units left, fewer than this run needs. The run stops "
            "when the quota is used up; domains not reached are listed as not checked.",
            icon=":material/toll:",
        )


def run_cards(figures: RunFigures) -> None:
    """What the last run of this list did: the same figures its progress bar and headline give."""
    cols = st.columns(3)
    cols[0].metric("Domains checked", figures.checked, border=True)
    cols[1].metric("Quota units spent", figures.spent, border=True, help="One unit per domain not cached")
    cols[2].metric("Answered from the cache (free)", figures.from_cache, border=True)


def _run(conn: Connection, domains: tuple[str, ...], units: Units) -> BulkRun:
    """Check every domain with a progress bar; failures stay in the results, they stop nothing.

    Called by the write path once per click; ``units`` follows what the run has spent so far, so the
    audit row is right even when a rerun cuts the run short. The run is kept for this session.
    """
    plan = bulk_check.plan(conn, domains)
    progress = st.progress(0.0, text="Starting…")
    results: list[ItemResult[DomainRating]] = []
    # closing(): a rerun interrupting the loop stops the workers at once instead of at collection.
    with contextlib.closing(bulk_check.check_domains(conn, domains)) as checks:
        for done, result in enumerate(checks, start=1):
            results.append(result)
            so_far = run_figures(results, plan.cached, total=len(domains))
            units.spent = so_far.spent
            progress.progress(done / len(domains), text=so_far.progress_text())
    progress.empty()
    run = finished_run(domains, results, plan.cached)
    units.spent = run.figures.spent
    st.session_state[LAST_RUN] = run
    return run


def start_button(conn: Connection, domains: tuple[str, ...], plan: QuotaPlan, *, again: bool) -> None:
    """The start button (saying what a run costs now), disabled for viewers, and the run it asked for."""
    _, locked = access.write_permission()
    access.read_only_note(locked)
    show_spend_outcome(SLOT, subject="these domains")
    st.button(
        start_label(len(domains), plan, again=again),
        key="bulk_start",
        type="primary",
        icon=":material/play_arrow:",
        disabled=locked is not None or spend_requested(SLOT),
        help=locked,
        on_click=request_spend,
        args=(SLOT, "bulk_dr", *domains),
        kwargs={"target": subjects_target(domains)},
    )
    # Once per click; the rerun after it shows what the run did, and the button what another would cost.
    run_requested_spend(
        conn, SLOT, lambda domains, units: _run(conn, domains, units), note="Checking the domains…"
    )


def show_results(run: BulkRun) -> None:
    """The run's headline, why it stopped early if it did, its chart and its table."""
    counts, figures = bulk_summary(run.frame), run.figures
    st.success(
        f"Rated {figures.rated} of {figures.total} domains ({counts['listed']} listed on VerifiedDR). "
        f"This run spent {counted(figures.spent, 'quota unit')}; "
        f"{figures.from_cache} came from the cache.",
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
