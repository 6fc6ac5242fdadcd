"""Opportunities: the keywords of one of your sites worth the most clicks for the DR they ask, each with
the parts of its score, the missing top 10s read after saying what they cost, and the chosen keywords
watched or tracked for the site in one click. Its site and target position are kept in the address
(``?site=…&target=3``), so a link opens it on them.

The list is ``services.opportunities`` (the same the report's What's next section and
``python -m store opportunities`` give) under the team's CTR curve; its parts are drawn by
``components.opportunities.widgets``.
"""

from __future__ import annotations

import streamlit as st

from components.core.cache.connection import current_connection
from components.core.history import store as history
from components.core.nav.pages import OPPORTUNITIES, page_header
from components.core.ui.errors import show_notice
from components.history.widgets import guarded, page_history
from components.opportunities.widgets import (
    act_on_chosen,
    opportunities_table,
    opportunity_choice,
    page_candidates,
    read_missing_button,
)
from components.opportunities.widgets.curve import team_curve
from components.opportunities.widgets.table import filters, shown_frame
from components.opportunities.widgets.worth import worth_of_targets
from services.opportunities import score_candidates

conn = current_connection()
page_header(
    OPPORTUNITIES,
    "The keywords of one of your sites worth the most clicks for the DR they ask: where you rank, the "
    "volume, the top 10's DR against yours, the clicks reaching the target position would bring, and "
    "the score with its parts. Choose rows to watch them or track them for the site.",
)
source = page_history(conn)
picked = opportunity_choice(conn, source)
store = history.history_store()
if picked is None or store is None:
    st.stop()
site, target = picked
ctr = team_curve()


@guarded
def show() -> None:
    assert store is not None
    found = page_candidates(conn, store, site)
    for problem in found.problems:
        show_notice(problem)
    read_missing_button(conn, store, site, found, ctr, target)
    scored = score_candidates(found, ctr, target)
    tags = source.keyword_tags()
    striking, max_gap, group = filters(tags)
    frame = shown_frame(
        scored, site, striking=striking, max_gap=max_gap, group=group, tags=tags, brands=source.brand_terms()
    )
    chosen = opportunities_table(frame, site, len(scored))
    worth_of_targets(conn, source, site, chosen or list(frame["keyword"]), target, ctr)
    act_on_chosen(conn, site, chosen)


show()
