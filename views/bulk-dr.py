"""Bulk DR checker: Domain Rating for many domains at once, with the quota cost shown before the run.

A run spends quota units, so it is a write (``components.core.writes.quota_spends``): editors and admins
start it, once per click, and it leaves an audit row with the units it spent; viewers see the start
button disabled with the reason. A link may fill the list in (``?bulk_domains=``); only a click runs it.
The parts are drawn by ``components.research.widgets.bulk``.
"""

from __future__ import annotations

import streamlit as st

from client.inputs import parse_domain_list
from components.core.cache.connection import current_connection
from components.core.nav.pages import BULK_DR, page_header
from components.research.frames.bulk import MAX_BULK_DOMAINS
from components.research.widgets import bulk_check
from components.research.widgets.bulk import (
    accounting,
    cost,
    domain_text,
    last_run_of,
    quota_warning,
    run_cards,
    show_results,
    start_button,
)

conn = current_connection()
page_header(
    BULK_DR,
    "Domain Rating for many domains at once, listed or not. Each domain spends one quota unit the "
    "first time; answers are kept for 15 minutes, so checking them again spends nothing.",
)
parsed = parse_domain_list(domain_text(conn), limit=MAX_BULK_DOMAINS)
if parsed.entries:
    accounting(parsed)
if parsed.domains:
    plan = bulk_check.plan(conn, parsed.domains)
    shown = last_run_of(parsed.domains)
    if shown is None:
        cost(plan, len(parsed.domains))
    else:
        run_cards(shown.figures)
    quota_warning(conn, plan)
    start_button(conn, parsed.domains, plan, again=shown is not None)
    if shown is not None:
        show_results(shown)
else:
    st.caption("Paste domains or upload a file to see what a check will cost.")
