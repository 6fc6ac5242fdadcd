"""What discovery, exchanges and site management change while a sandbox runs, in one place.

``SandboxState.growth()`` hands it out under the state's lock, so a handler reads and writes it in one
consistent step; ``reset`` puts every store back to its seed.
"""

from __future__ import annotations

from sandbox.ai_visibility import VisibilityStore
from sandbox.discovery import OutreachLog
from sandbox.gsc import AuditStore
from sandbox.sites import SiteStore


class GrowthState:
    """Submitted sites and their reports, sent proposals, AI-visibility questions and GSC audits."""

    def __init__(self) -> None:
        self.sites = SiteStore()
        self.outreach = OutreachLog()
        self.visibility = VisibilityStore()
        self.audits = AuditStore()
        self.reset()

    def reset(self) -> None:
        self.sites = SiteStore()
        self.outreach = OutreachLog()
        self.visibility.seed()
        self.audits.seed()

    def taken(self, domain: str) -> bool:
        """Whether some key already submitted this domain."""
        return self.sites.submission(domain) is not None
