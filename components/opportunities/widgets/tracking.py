"""Track the keywords chosen in the table as the site's tracked keywords, in one click.

Before the click the site's list is read (through the one read path) and ``plan_tracking`` says where it
stands: the limit and how many are tracked, the monthly checks left where the plan has an allowance,
the chosen keywords tracked already (never sent again) and those that would not fit (not sent; the
module ``analysis.opportunities.tracking`` says why the rest is still sent). Tracked keywords belong to
the key's own sites, by the slug the service lists them under: a site it does not list cannot track.

The click asks for one write per keyword (``components.core.writes.batch``): the role checked at the
click, each keyword sent once (a rerun never sends, a double click is answered from the first), one
audit row each, and the site's cached list dropped so the page shows what the service now holds. At the
send the list is the one this run read, so a keyword tracked since the click is left out. The batch stops
at the first refusal that concerns the key, the plan, the site or the service rather than that keyword
(a key not accepted, a spent allowance, a full list, a rate limit, a service that does not answer): every
later keyword would meet it too, so they are named as not sent instead of spending requests. A keyword
the service already has (409) or refuses as invalid (400) is said and the next one is sent. After the
click each keyword says what happened to it, in the shared error words.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import streamlit as st

from analysis.error_wording import describe_error
from analysis.keywords.frames.tracked import usage
from analysis.opportunities.tracking import TrackPlan, named, plan_tracking, same_keyword
from analysis.text import escape_md
from client.errors import (
    ApiError,
    BadRequestError,
    ConflictError,
    InvalidInputError,
    InvalidResponseError,
    PaymentRequiredError,
    TransportError,
)
from client.inputs import slug_for
from client.models import TrackedKeywords
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.ui.errors import callout
from components.core.writes import batch
from components.core.writes.writes import WriteOutcome
from components.keywords.widgets.pieces import owned_sites, refusal_context

TRACK_KEY = "opportunities_track"
SLOT = "opportunities_track"
OPERATION = "add_tracked_keyword"


def _slug(conn: Connection, site: str) -> tuple[str | None, str | None]:
    """(the site's slug, None), or (None, why its keywords cannot be tracked here)."""
    mine = owned_sites(conn)
    if mine is None:
        return None, "Your sites could not be listed just now, so keywords cannot be tracked from here yet."
    if site not in mine:
        return None, (
            f"{site} is not one of the sites the service lists for your key, so it cannot track keywords: "
            "the service keeps tracked keywords only for your own sites."
        )
    return mine[site], None


def _reads(site: str, slug: str) -> list[tuple[str, str]]:
    """The cached reads an add changes: the site's list, under the slug the page reads it by too (a site
    name the service sent that is not a domain has no such slug)."""
    slugs = {slug}
    with contextlib.suppress(InvalidInputError):
        slugs.add(slug_for(site))
    return sorted(("tracked_keywords", each) for each in slugs)


def _listing(conn: Connection, slug: str) -> tuple[TrackedKeywords | None, str | None]:
    try:
        return data.tracked_keywords(conn, slug), None
    except ApiError as err:
        view = describe_error(err, subject="the site's tracked keywords")
        return None, (
            f"The site's tracked keywords could not be read ({view.title}), so its limit is not known: "
            "tracking waits until they can be read. The rows you chose stay chosen."
        )


def _stops(conn: Connection, slug: str) -> Callable[[WriteOutcome], bool]:
    """Whether a refused add would refuse every later keyword of the click too (see the module)."""

    def stops(outcome: WriteOutcome) -> bool:
        err = outcome.error
        if isinstance(err, ConflictError | InvalidInputError):
            return False
        if isinstance(err, BadRequestError):  # an invalid keyword, or a list full since it was read
            data.forget(conn, "tracked_keywords", slug)
            listing, _ = _listing(conn, slug)
            return listing is not None and usage(listing).at_limit
        return True

    return stops


def _refusal_words(err: ApiError, limit: int | None) -> str:
    """Why the service refused an add, in the shared error words and the tracked-keyword context."""
    view = describe_error(err, subject="this keyword")
    words = f"{view.title}. {view.advice}"
    if view.detail and view.detail != view.advice:
        words += f" The service said: {view.detail}"
    context = None if isinstance(err, PaymentRequiredError) and err.is_gate else refusal_context(err, limit)
    if context:
        words += f" {context}"
    if isinstance(err, TransportError | InvalidResponseError):
        words += " It may have reached the service: the list is read again and shows whether it is tracked."
    return words


def _outcome_lines(outcome: batch.BatchOutcome, site: str, limit: int | None) -> tuple[str, list[str]]:
    """(the callout's level, one line per keyword) of the last click."""
    lines: list[str] = []
    level = "success"
    said = ""  # the last refusal's words: the same refusal again is not repeated in full
    for keyword, sent in outcome.sent:
        if sent.refusal is not None:
            lines.append(sent.refusal)
            level = "warning"
        elif sent.ok:
            lines.append(
                f"“{keyword}”: added a moment ago; not sent again."
                if sent.duplicate
                else f"“{keyword}”: added — now tracked for {site}."
            )
        elif isinstance(sent.error, ConflictError):
            lines.append(f"“{keyword}”: tracked already, the service has it; nothing added.")
        elif sent.error is not None:
            words = _refusal_words(sent.error, limit)
            lines.append(f"“{keyword}”: not added — " + ("the same as above." if words == said else words))
            said, level = words, "warning"
    if outcome.skipped:
        lines.append(
            f"Not sent, as the site's list stood at the send (tracked already, or no room left): "
            f"{named(outcome.skipped)}."
        )
    if outcome.unsent:
        lines.append(
            f"Not sent: {named(outcome.unsent)} — the refusal above would refuse them too. Click Track again "
            "once it is resolved."
        )
        level = "warning"
    return level, lines


def show_track_outcome(site: str) -> None:
    """What the last click on Track did, keyword by keyword (once)."""
    outcome = batch.take_outcome(SLOT)
    if outcome is None:
        return
    level, lines = _outcome_lines(outcome, site, None)
    if lines:
        callout(level, "\n".join(f"- {escape_md(line)}" for line in lines))


def _plan(conn: Connection, site: str, chosen: list[str]) -> tuple[str | None, TrackPlan | None, str | None]:
    """(slug, plan, None), or why the site cannot track now (with what is known)."""
    slug, why_not = _slug(conn, site)
    if slug is None:
        return None, None, why_not
    listing, problem = _listing(conn, slug)
    if listing is None:
        return slug, None, problem
    return slug, plan_tracking(chosen, [k.keyword for k in listing.keywords], usage(listing)), None


def track_chosen(conn: Connection, site: str, chosen: list[str], locked: str | None) -> None:
    """The Track for <site> button for the rows chosen in the table (editors only), with what a click
    would do said before it; ``locked`` is why this person may not write (None for an editor)."""
    slug, plan, problem = _plan(conn, site, chosen)
    busy = batch.writes_requested(SLOT)
    reason = locked or problem or (plan.refusal() if plan is not None else None)
    sending = plan.fits if plan is not None else ()
    st.button(
        f"Track for {escape_md(site)}",
        key=TRACK_KEY,
        icon=":material/add_chart:",
        disabled=busy or reason is not None,
        help=escape_md(reason)
        if reason
        else f"Add {named(sending)} to the tracked keywords of {escape_md(site)}: the service checks their "
        "positions.",
        on_click=batch.request_writes,
        args=(
            SLOT,
            OPERATION,
            [(slug, keyword) for keyword in sending],
            list(sending),
            _reads(site, slug or ""),
        ),
    )
    if problem is not None:
        st.caption(escape_md(problem))
    elif plan is not None and chosen:
        st.caption(escape_md(" ".join([plan.standing_words(), *plan.detail_words()])))
    if slug is None or plan is None:
        return
    fitting = {same_keyword(k) for k in plan.fits}
    batch.run_requested_writes(
        conn,
        SLOT,
        keep=lambda args: same_keyword(str(args[1])) in fitting,
        stops=_stops(conn, slug),
        note="Tracking the chosen keywords…",
    )
