"""The growth and site-management writes, each sent once per user action (``components.writes``).

Each helper names the cached reads its write changes, so the page shows what the service now holds
right after a success: a submitted site appears in the list and its site-check report is no longer a
cached 404, a new question appears in AI visibility, a fresh audit replaces the old one.
Call them from widget callbacks or form submits only, never in the page body.
"""

from __future__ import annotations

from client.errors import ApiError
from client.growth_inputs import NewSite, normalise_slug
from client.inputs import normalise_domain
from client.outreach import ExchangeDraft
from components.connection import Connection
from components.writes import WriteOutcome, write_once


def refused(operation: str, err: ApiError) -> WriteOutcome:
    """An outcome for input refused before the write was even built (shown like any failed write)."""
    return WriteOutcome(operation, "failed", error=err)


def submit_site(conn: Connection, site: NewSite) -> WriteOutcome:
    domain = site.domain
    slug = normalise_slug(domain)
    reads = [
        ("sites",),
        ("site_check", domain),
        ("site", slug),
        ("monitor", None, False),
        ("monitor", None, True),
    ]
    check = " with a site check" if site.site_check else ""
    return write_once(conn, "submit_site", site, invalidates=reads, success=f"Submitted {domain}{check}.")


def verify(conn: Connection, url: str) -> WriteOutcome:
    slug = normalise_slug(normalise_domain(url))
    return write_once(
        conn, "verify", url, invalidates=[("sites",), ("site", slug)], success="The badge embed was checked."
    )


def preview_exchange(conn: Connection, domain: str, target: str, subject: str, message: str) -> WriteOutcome:
    """A dry run: nothing is sent, so no read changes."""
    return write_once(conn, "preview_exchange", domain, target, subject, message, success="Preview ready.")


def approve_exchange(conn: Connection, draft: ExchangeDraft) -> WriteOutcome:
    to = draft.preview.to
    name = to.domain if to and to.domain else draft.target
    return write_once(conn, "approve_exchange", draft, success=f"Proposal sent to {name}.")


def _visibility(site: str) -> list[tuple[str, str]]:
    return [("ai_visibility", normalise_slug(site))]


def add_ai_prompt(conn: Connection, site: str, prompt: str, location: str | None = None) -> WriteOutcome:
    return write_once(
        conn,
        "add_ai_prompt",
        normalise_slug(site),
        prompt,
        location,
        invalidates=_visibility(site),
        success="Question added. It is asked at the next run.",
    )


def remove_ai_prompt(conn: Connection, site: str, prompt_id: str) -> WriteOutcome:
    return write_once(
        conn,
        "remove_ai_prompt",
        normalise_slug(site),
        prompt_id,
        invalidates=_visibility(site),
        success="Question removed.",
    )


def reset_ai_prompts(conn: Connection, site: str) -> WriteOutcome:
    return write_once(
        conn,
        "reset_ai_prompts",
        normalise_slug(site),
        invalidates=_visibility(site),
        success="Questions reseeded from the site's keywords.",
    )


def run_ai_visibility(conn: Connection, site: str) -> WriteOutcome:
    return write_once(
        conn,
        "run_ai_visibility",
        normalise_slug(site),
        invalidates=_visibility(site),
        success="The questions were asked; the snapshot below is the new run.",
    )


def run_gsc_audit(conn: Connection, site: str) -> WriteOutcome:
    slug = normalise_slug(site)
    return write_once(
        conn,
        "run_gsc_audit",
        slug,
        invalidates=[("gsc_audit", slug)],
        success="A fresh index audit is ready.",
    )
