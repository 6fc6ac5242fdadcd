"""The typed v1 client: one method per operation, named after the ``vdr`` CLI command.

``ApiClient`` is the transport (``client.transport.BaseClient``: headers, timeouts, retries, typed
errors, quota) plus one group of operations per area of the API (``client.operations``). It knows
nothing of Streamlit, so scripts, benchmarks and tests use it directly.
"""

from __future__ import annotations

from client.operations.authority import AuthorityOperations
from client.operations.exchanges import ExchangeOperations
from client.operations.keywords import KeywordOperations
from client.operations.sites import SiteOperations
from client.operations.visibility import VisibilityOperations

# Where callers have always found the client's timing constants; they live with the transport.
from client.transport import DEFAULT_TIMEOUT_S as DEFAULT_TIMEOUT_S
from client.transport import MAX_RETRY_AFTER_S as MAX_RETRY_AFTER_S
from client.transport import SLOW_TIMEOUT_S as SLOW_TIMEOUT_S


class ApiClient(
    AuthorityOperations, KeywordOperations, ExchangeOperations, SiteOperations, VisibilityOperations
):
    """A client for one service root and one API key, over one pooled ``httpx.Client``.

    ``ApiClient(base_url, api_key, *, timeout=20.0, max_retries=2, transport=None, sleep=time.sleep)``:
    ``base_url`` is the service root as in ``VERIFIEDDR_API_BASE`` (no ``/api/v1``); the key is kept
    private and never appears in ``repr``, errors or logs. Reads (GET) are retried on 429 (honouring
    Retry-After), 503 and connection failures; writes (POST, DELETE) are never retried automatically,
    because a write that reached the server but lost its answer must not be made twice.
    """
