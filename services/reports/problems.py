"""Why a report cannot be made, in one plain line each (the page, the commands and the job say it)."""

from __future__ import annotations


class ReportProblem(ValueError):
    """A report that cannot be made; the message says why in one plain line."""


class UnknownSite(ReportProblem):
    """The site is not one of the account's own sites."""


class EmptyPeriod(ReportProblem):
    """Nothing about the site is recorded in the period."""
