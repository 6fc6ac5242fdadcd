"""The v1 operations by area, one module each; ``client.api.ApiClient`` combines them over the transport."""

#: The operations by name, as ``ApiClient``'s methods are named (the sandbox's faults and the app's
#: shared read cache name them so too). The score and keyword reads:
SCORE_AND_KEYWORD_READS: tuple[str, ...] = (
    "dr",
    "site_check",
    "lookup",
    "trust_map",
    "snippets",
    "categories",
    "keyword_report",
    "keyword_suggestions",
    "tracked_keywords",
)
#: The reads of discovery, exchanges, site management, AI visibility and Search Console.
GROWTH_READS: tuple[str, ...] = (
    "find",
    "exchange_candidates",
    "sites",
    "site",
    "site_truedr",
    "ai_visibility",
    "export",
    "monitor",
    "gsc_performance",
    "gsc_audit",
)
#: Every read: it changes nothing and is retried on 429, 503 and a dropped connection; the rest are writes.
READ_OPERATIONS: tuple[str, ...] = (*SCORE_AND_KEYWORD_READS, *GROWTH_READS)
