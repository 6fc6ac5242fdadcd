"""A shared report: any address of the app with ``?report=<token>`` shows that one report and nothing else.

``app.py`` calls ``show_shared_report()`` before the sign-in gate, the navigation and the sidebar. With
the parameter present, the run draws only the report the link names (or the one plain sentence saying
why it cannot: expired, revoked, not valid) in place of every page, with no navigation and no sidebar,
and then stops, so no other part of the app runs in that run. Sign-in is not asked for. Nothing is
remembered in the session: a run of the same session without the parameter is an ordinary run, which
asks for sign-in when it is on. The first opening of a link in a session is audited by "someone with
the link" (``store.reports.links``).

The report is the same document the Reports page and the monthly mail show, from the same cache entry
as the Reports page's preview (``components.reports.built``), so reloads are quick and a new comment
shows at once; when its charts cannot be drawn here it is shown anyway,
and "Download PDF" appears only when a PDF can be made. Its PDF is printed once for every viewer of the
link (and the Reports page) in the process, on the first click.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from components.core.history.store import history_store
from components.core.nav import pages
from components.reports.built import cached_report, report_pdf
from services.reports.branding import Branding, BrandingError, usable_branding
from services.reports.document import ReportProblem
from store.reports.links import LinkRefused, ShareLink

#: The query parameter that carries a share link's token.
PARAM = "report"
TITLE = "Shared report"
#: The report's frame: tall enough for its first pages, scrolling for the rest.
FRAME_HEIGHT = 1600
UNAVAILABLE = "This report cannot be shown just now: the dashboard's history is unavailable. Try again later."
_OPENED = "_shared_report_opened:"


def link_secret_setting() -> str | None:
    """``[report] link_secret`` from the app's secrets (None: the key kept in the database is used)."""
    try:
        section = st.secrets.get("report")
    except Exception:  # no secrets file, or one that does not parse
        return None
    value = section.get("link_secret") if isinstance(section, Mapping) else None
    return value if isinstance(value, str) and value.strip() else None


def show_shared_report() -> None:
    """When the address carries a share link, draw that report alone (or why not) and end the run."""
    token = st.query_params.get(PARAM)
    if token is None:
        return
    stand_ins = [
        st.Page(lambda: _draw(token), title=TITLE, url_path=page.url_path, default=page.default)
        for page in pages.ALL
    ]
    st.navigation(stand_ins, position="hidden").run()
    st.stop()


def _draw(token: str) -> None:
    store = history_store()
    if store is None:
        _refused(UNAVAILABLE)
        return
    first = _OPENED + token not in st.session_state
    try:
        link = store.report_links.open_report_link(token, secret=link_secret_setting(), audit=first)
    except LinkRefused as refused:
        _refused(refused.reason)
        return
    except Exception:  # a database failure: the same plain sentence, never a traceback
        _refused(UNAVAILABLE)
        return
    st.session_state[_OPENED + token] = True
    _report(link)


def _refused(reason: str) -> None:
    # The tab is signed as the report would be: by the brand when one is set, never by this app then.
    st.set_page_config(page_title=f"{TITLE} — {_branding().signed_by}")
    st.title(TITLE, anchor=False)
    st.error(reason, icon=":material/link_off:")


def _branding() -> Branding:
    try:
        return usable_branding()[0]  # a logo that cannot be used is left out
    except BrandingError:  # a broken [report] setting: the report goes out unbranded rather than not at all
        return Branding()


def _report(link: ShareLink) -> None:
    # The browser tab names the report, never this app (a white-labelled report goes to a client).
    st.set_page_config(page_title=f"{link.site}: {link.period.words}")
    st.title(f"{link.site}: {link.period.words}", anchor=False)
    st.caption(
        f"A read-only report shared from the dashboard. This link works until "
        f"{link.expires_at:%d %B %Y, %H:%M} UTC."
    )
    try:
        with st.spinner("Preparing the report…"):
            store = history_store()
            if store is None:
                raise ReportProblem(UNAVAILABLE)
            built = cached_report(store, link.account, link.site, link.period, _branding())
    except ReportProblem as problem:
        st.info(str(problem), icon=":material/info:")
        return
    except Exception:  # a database or renderer failure: plain words, never a traceback
        st.error(UNAVAILABLE, icon=":material/error:")
        return
    if built.charts_missing is None:
        st.download_button(
            "Download PDF",
            data=report_pdf(link.account, built),  # printed when first asked for, then kept
            file_name=f"{built.file_stem}.pdf",
            mime="application/pdf",
            icon=":material/picture_as_pdf:",
            on_click="ignore",
        )
    st.iframe(built.html, height=FRAME_HEIGHT)
