"""Badges & snippets: a listed site's public page, badge images and ready-to-paste embeds.

The API's HTML is shown as code to copy, never rendered here; only an http(s) image URL taken from
it is previewed, as a plain image. The snippets keep the public addresses the service gave; previews
and buttons load them from the service the app is connected to (``loaded_from``), so in Sandbox mode
they show the demo figures, offline too.
"""

from __future__ import annotations

from components.core.cache.connection import current_connection
from components.core.nav.pages import BADGES, page_header
from components.core.nav.shared_inputs import domain_or_demo
from components.research.widgets.badges import DEMO_DOMAINS, show_snippets

page_header(
    BADGES,
    "Show a listed site's rating on its own pages: the public page, badge images and ready-to-paste "
    "HTML and Markdown. Reading snippets spends no quota.",
)
domain_or_demo(
    current_connection(),
    help_text="A listed site's domain, subdomain or URL.",
    show=show_snippets,
    demos=DEMO_DOMAINS,
    demo_key="badge_demo",
)
