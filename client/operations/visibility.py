"""How your sites are found: AI-visibility snapshots and tracked questions, Search Console data and audits.

Owner-only reads and writes, addressed by slug or domain. The two runs (an AI-visibility run and an
index audit) take minutes on the real service, so they wait ``SLOW_TIMEOUT_S`` instead of the usual
timeout; like every write they are sent once and never retried automatically.
"""

from __future__ import annotations

from client.growth_inputs import (
    DEFAULT_GSC_RANGE,
    check_gsc_range,
    check_prompt_id,
    normalise_location,
    normalise_prompt,
)
from client.operations.paths import site_path
from client.transport import SLOW_TIMEOUT_S, BaseClient
from client.visibility_models import AiPrompts, AiVisibility, GscAuditResult, GscPerformance


class VisibilityOperations(BaseClient):
    """``sites:visibility``, ``sites:gsc-performance``, ``sites:gsc-audit`` and their writes."""

    def ai_visibility(self, slug: str) -> AiVisibility:
        """``sites:visibility`` — the stored AI-visibility snapshot, tracked questions and history."""
        return self._read(AiVisibility, "ai_visibility", site_path(slug, "ai-visibility"))

    def add_ai_prompt(self, slug: str, prompt: str, location: str | None = None) -> AiPrompts:
        """Track one question (8–140 characters). Sent once; never retried."""
        body: dict[str, str] = {"prompt": normalise_prompt(prompt)}
        if (where := normalise_location(location)) is not None:
            body["location"] = where
        path = site_path(slug, "ai-visibility")
        return self._write(AiPrompts, "add_ai_prompt", "POST", path, json=body)

    def remove_ai_prompt(self, slug: str, prompt_id: str) -> AiPrompts:
        """Stop tracking one question. Sent once; never retried."""
        params = {"promptId": check_prompt_id(prompt_id)}
        path = site_path(slug, "ai-visibility")
        return self._write(AiPrompts, "remove_ai_prompt", "DELETE", path, params=params)

    def reset_ai_prompts(self, slug: str) -> AiPrompts:
        """Replace the tracked questions with ones seeded from the site's keywords. Sent once."""
        path = site_path(slug, "ai-visibility")
        return self._write(AiPrompts, "reset_ai_prompts", "POST", path, json={"action": "reset"})

    def run_ai_visibility(self, slug: str) -> AiPrompts:
        """Ask the tracked questions now (paid plans, once per site per week). Slow; sent once."""
        path = site_path(slug, "ai-visibility")
        return self._write(
            AiPrompts, "run_ai_visibility", "POST", path, json={"action": "run"}, timeout=SLOW_TIMEOUT_S
        )

    def gsc_performance(self, slug: str, range: str = DEFAULT_GSC_RANGE) -> GscPerformance:
        """``sites:gsc-performance`` — Search Console totals, daily series and top rows for a range."""
        path = site_path(slug, "gsc-performance")
        return self._read(GscPerformance, "gsc_performance", path, params={"range": check_gsc_range(range)})

    def gsc_audit(self, slug: str) -> GscAuditResult:
        """``sites:gsc-audit`` — the latest stored index audit (``audit`` is None before the first)."""
        return self._read(GscAuditResult, "gsc_audit", site_path(slug, "gsc-audit"))

    def run_gsc_audit(self, slug: str) -> GscAuditResult:
        """Run a fresh index audit: spends URL-inspection budget, 12-hour cooldown. Slow; sent once."""
        path = site_path(slug, "gsc-audit")
        return self._write(GscAuditResult, "run_gsc_audit", "POST", path, timeout=SLOW_TIMEOUT_S)
