"""``python -m store upgrade|snapshot``: see ``store.cli``."""

import sys

from store.cli import main

if __name__ == "__main__":
    sys.exit(main())
