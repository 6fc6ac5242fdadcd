"""Link exchanges: for one of your sites, partners that fit, a proposal previewed first, then sent once.

The filters, the candidates table and the proposal are drawn by ``components.growth.widgets.exchanges``.
"""

from __future__ import annotations

import streamlit as st

from analysis.growth.frames import candidates_frame
from components.core.cache import data
from components.core.cache.connection import current_connection
from components.core.nav.pages import EXCHANGES, page_header
from components.core.ui.errors import read_or_show_error
from components.growth.widgets import proposed_partners
from components.growth.widgets.exchanges import (
    candidate_filters,
    candidates_table,
    category_labels,
    proposal,
)
from components.overview.widgets import authority_cards, site_heading
from components.sites.widgets import read_chosen_site

NOT_LISTED = (
    "Exchanges need a listed site. Submit yours on the My sites page and come back once it is listed."
)

conn = current_connection()
page_header(
    EXCHANGES,
    "For one of your sites: partners that fit and why, a proposal you can edit, a preview (a dry run that "
    "sends nothing), then one approval that sends it once. Reading candidates spends no quota.",
)
domain, lookup = read_chosen_site(
    conn,
    data.lookup,
    none_chosen="Choose one of your sites to find exchange partners for it.",
    icon=":material/handshake:",
    not_found=NOT_LISTED,
    help_text="One of your sites; a domain, subdomain or URL. Shared with the other pages.",
)

site_heading(lookup.domain, lookup.title)
authority_cards(lookup)

filters = candidate_filters()
found = read_or_show_error(
    data.exchange_candidates, conn, domain, filters, subject=f"exchange candidates for {domain}"
)
if found is None:
    st.stop()

labels = category_labels(conn)
candidates_table(candidates_frame(found, labels, proposed_partners(lookup.domain)), domain)
proposal(conn, lookup, found.candidates, labels)
