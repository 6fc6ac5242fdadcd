"""``python -m sandbox``: run the v1 sandbox until Ctrl-C or SIGTERM.

Prints exactly one line once it accepts connections, so a script (or the app's launcher) can wait
for that line instead of polling.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from types import FrameType

from sandbox.accounts import ACCOUNTS
from sandbox.config import SandboxConfig
from sandbox.server import SandboxServer


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m sandbox", description="A local VerifiedDR v1 API with deterministic demo data."
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    parser.add_argument("--port", type=int, default=8765, help="port (0 picks a free one)")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="delay added to every API request")
    parser.add_argument(
        "--rate-limit", type=float, default=None, help="requests per second per key (default or 0: none)"
    )
    parser.add_argument("--quota", type=int, default=1000, help="quota units per key (/dr, /site-check)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        config = SandboxConfig(
            latency_ms=args.latency_ms, rate_limit=args.rate_limit or None, quota=args.quota
        )
    except ValueError as exc:
        print(f"sandbox: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()

    def _on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)
    server = SandboxServer(config, host=args.host, port=args.port)
    try:
        server.start()
    except OSError as exc:
        print(f"sandbox: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    keys = ", ".join(ACCOUNTS)
    print(f"Sandbox v1 API ready at {server.base_url} (keys: {keys})", flush=True)
    try:
        while not stop.wait(0.5):
            pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
