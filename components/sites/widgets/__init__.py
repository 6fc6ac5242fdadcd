"""Streamlit pieces of your sites: choosing and reading one (``picker``), the site-management writes
(``writes``), and one module per page that shows sites of yours (``my_sites``, ``site_details``,
``ai_visibility``, ``search_console``).

The picker and the writes are re-exported here, as the names every site page uses.
"""

from __future__ import annotations

from components.sites.widgets.picker import (
    OWN_SITE_HELP,
    chosen_site,
    owned_domains,
    read_chosen_site,
    site_input,
    typed_site,
)
from components.sites.widgets.writes import (
    add_ai_prompt,
    remove_ai_prompt,
    reset_ai_prompts,
    run_ai_visibility,
    run_gsc_audit,
    submit_site,
    verify,
)

__all__ = [
    "OWN_SITE_HELP",
    "add_ai_prompt",
    "chosen_site",
    "owned_domains",
    "read_chosen_site",
    "remove_ai_prompt",
    "reset_ai_prompts",
    "run_ai_visibility",
    "run_gsc_audit",
    "site_input",
    "submit_site",
    "typed_site",
    "verify",
]
