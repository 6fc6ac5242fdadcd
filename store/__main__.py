"""``python -m store …``: see ``services.cli``."""

import sys

from services.cli import main

if __name__ == "__main__":
    sys.exit(main())
