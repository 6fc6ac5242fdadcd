"""The command line: ``python -m store upgrade``, ``snapshot``, ``alerts``, ``digest``, ``watch``,
``visibility``, ``opportunities``, ``report`` (one site's month as a file), ``reports`` (the scheduled
monthly ones), and ``copy``, ``export`` and ``import`` (the whole history moved to another database or to
files and back).

Exit codes (``services.jobs.exit_codes``): 0 done; 1 the snapshot ran but some subjects failed (each is
named on stderr), or its alerts could not be evaluated, or the webhook refused an alert, or the delivery
pass ran out of time before every due alert was sent (each is named), or some keyword of the
opportunities list could not be read (each is named); 2 it could not start (no API key, a bad argument or
alert setting; a snapshot that needs more calls than its ``--max-calls``, which reads no subject; for
``alerts``, a webhook but no API key for the deployment, whose account is the only one the team's
channels carry) or ``watch add`` refused the subject (an unlisted domain), or ``watch import``
refused its file (every bad line named; nothing watched); 3 the history database cannot be reached or
migrated. Progress goes to stderr; the snapshot's last line on stdout is exactly
``recorded N, unchanged M, failed K`` (its alert lines come before it), and the ``alerts`` command's is
``alerts: N new, M already known; webhook: …``, so cron mail and scripts can read the outcome.

The commands by area: ``common`` (settings, the database, where lines go), ``recording`` (upgrade,
snapshot, alerts, digest, reports), ``watching`` (watch), ``reading`` (visibility, report,
opportunities: what the history and the service say, printed), ``moving`` (copy, export, import: a
refused target or folder is exit code 2, a row count that does not match after the move 1); ``commands``
their arguments and exit codes.
"""

from services.cli.commands import main
from services.cli.common import Lines, team_account
from services.cli.recording import record_snapshot

__all__ = ["Lines", "main", "record_snapshot", "team_account"]
