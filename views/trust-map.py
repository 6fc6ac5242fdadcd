"""Trust Map: who links to a site (a sample of up to 60 referring domains), how strongly, how safely.

The map and what is said instead of it are drawn by ``components.research.widgets.trust_map``.
"""

from __future__ import annotations

from components.core.cache.connection import current_connection
from components.core.nav.pages import TRUST_MAP, page_header
from components.core.nav.shared_inputs import domain_or_demo
from components.research.widgets.trust_map import trust_map_report

DEMO_DOMAINS = ("stripe.com", "example.com", "github.com", "acme-widgets.com")

page_header(
    TRUST_MAP,
    "Who links to a site: up to 60 of its referring domains from the service's cache, with their "
    "strength, link type and spam risk. Reading a Trust Map spends no quota.",
)
domain_or_demo(
    current_connection(),
    help_text="A domain, subdomain or URL; the map is of its registrable domain.",
    show=trust_map_report,
    demos=DEMO_DOMAINS,
    demo_key="map_demo",
)
