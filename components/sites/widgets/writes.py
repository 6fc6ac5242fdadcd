"""The site-management writes: submitting and verifying a site, its AI-visibility questions and runs,
and the Search Console index audit.

Each write is sent once per user action (``components.core.writes.writes``) and names the cached reads it
changes, so the page shows what the service now holds right after a success. Call the writes from
widget callbacks or form submits only, never in the page body.
"""

from __future__ import annotations

from typing import Any

from analysis.text import escape_md
from client.growth_inputs import NewSite
from components.core.cache import data
from components.core.cache.connection import Connection
from components.core.writes.writes import WriteOutcome, write_once


def submit_site(conn: Connection, site: NewSite) -> WriteOutcome:
    domain = site.domain
    slug = data.slug(domain)
    reads = [
        ("sites",),
        ("site_check", domain),
        ("site", slug),
        ("monitor", None, False),
        ("monitor", None, True),
    ]
    check = " with a site check" if site.site_check else ""
    said = f"Submitted {escape_md(domain)}{check}."
    return write_once(conn, "submit_site", site, invalidates=reads, success=said)


def verify(conn: Connection, url: str) -> WriteOutcome:
    slug = data.slug(data.domain(url))
    return write_once(
        conn, "verify", url, invalidates=[("sites",), ("site", slug)], success="The badge embed was checked."
    )


def _ai_write(
    conn: Connection, operation: str, site: str, *args: Any, success: str, target: str | None = None
) -> WriteOutcome:
    """A write to the site's AI visibility; it changes the site's cached AI-visibility read."""
    slug = data.slug(site)
    reads = [("ai_visibility", slug)]
    return write_once(conn, operation, slug, *args, invalidates=reads, success=success, target=target)


def add_ai_prompt(conn: Connection, site: str, prompt: str, location: str | None = None) -> WriteOutcome:
    return _ai_write(
        conn, "add_ai_prompt", site, prompt, location, success="Question added. It is asked at the next run."
    )


def remove_ai_prompt(
    conn: Connection, site: str, prompt_id: str, question: str | None = None
) -> WriteOutcome:
    """Stop asking a question; ``question`` (its words) is what the audit log names."""
    return _ai_write(conn, "remove_ai_prompt", site, prompt_id, success="Question removed.", target=question)


def reset_ai_prompts(conn: Connection, site: str) -> WriteOutcome:
    return _ai_write(conn, "reset_ai_prompts", site, success="Questions reseeded from the site's keywords.")


def run_ai_visibility(conn: Connection, site: str) -> WriteOutcome:
    return _ai_write(
        conn,
        "run_ai_visibility",
        site,
        success="The questions were asked; the snapshot below is the new run.",
    )


def run_gsc_audit(conn: Connection, site: str) -> WriteOutcome:
    slug = data.slug(site)
    return write_once(
        conn,
        "run_gsc_audit",
        slug,
        invalidates=[("gsc_audit", slug)],
        success="A fresh index audit is ready.",
    )
