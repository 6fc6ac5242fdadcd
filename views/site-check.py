"""Site check: the stored fraud verdict of a site (real, suspicious, shell, unreachable) and its evidence.

Reading a report spends a quota unit, so it is a write (``components.core.writes.quota_spends``): an editor's
click reads it once and leaves an audit row; a viewer sees the button disabled with the reason. A
report read in the last 15 minutes is shown to anyone for free; a link (``?domain=``) never reads one.
The report and the question before it are drawn by ``components.research.widgets.site_check``.
"""

from __future__ import annotations

from components.core.cache.connection import current_connection
from components.core.nav.pages import SITE_CHECK, page_header
from components.core.nav.shared_inputs import domain_or_demo
from components.research.widgets.site_check import site_check_report

#: One seeded report per verdict in the sandbox, so each look can be seen.
DEMO_DOMAINS = ("example.com", "rankboost-links.net", "pixelvault-app.io", "closed-corner-shop.co.uk")

page_header(
    SITE_CHECK,
    "The stored fraud verdict of a listed site (real, suspicious, shell or unreachable), the reasons "
    "behind it and the signals it rests on. Each read spends one quota unit; the page asks first.",
)
domain_or_demo(
    current_connection(),
    help_text="A domain, subdomain or URL; the report is of its registrable domain.",
    show=site_check_report,
    demos=DEMO_DOMAINS,
    demo_key="check_demo",
    demo_label="Try a demo report (one per verdict):",
)
