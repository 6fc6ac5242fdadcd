"""The exit codes of every ``python -m store …`` command: one meaning each, for cron, systemd and scripts.

- ``EXIT_OK`` (0): everything asked was done.
- ``EXIT_FAILED`` (1): the command ran, but part of it failed (a subject not recorded, a mail refused):
  the rest was done.
- ``EXIT_USAGE`` (2): what was asked cannot be done as asked (arguments, missing configuration, a
  subject that cannot be watched, an import file with a bad line); nothing was done.
- ``EXIT_DATABASE`` (3): the history database could not be reached.
"""

from __future__ import annotations

from typing import Final

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2
EXIT_DATABASE: Final = 3
