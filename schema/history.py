"""The history's columns: what a snapshot row holds beside its key, and the columns of every frame the
store hands out (``store.queries``), in their fixed order. The analysis layer reads frames of exactly
these columns; the store writes rows of them."""

#: Columns that say what was read (compared to tell "unchanged" from "recorded"); the rest is bookkeeping.
#: A domain's counts among them (whole numbers, some beyond 32 bits).
DOMAIN_COUNTS = ("traffic", "referring_domains", "backlinks", "gained_domains", "lost_domains", "global_rank")
DOMAIN_VALUES = (
    "dr",
    "true_dr",
    "trust_score",
    "confidence",
    *DOMAIN_COUNTS,
    "traffic_validated",
    "verified",
)
#: A Trust Map snapshot's totals; the digest of its links tells a changed sample from an unchanged one.
#: ``skipped``: the answer's rows that could not be used (so not in the sample; unknown, not lost).
TRUST_MAP_TOTALS = ("total_domains", "sampled", "live", "lost", "spam_risky", "skipped")
#: A referring domain is spam-risky from this spam score (0-100) on, as the vendor CLI flags it: the
#: stored ``spam_risky`` count and every page, chart and churn that says "spam-risky" use this one line.
SPAM_RISK_FROM = 50
TRUST_MAP_VALUES = (*TRUST_MAP_TOTALS, "links_digest")
LINK_VALUES = ("dr", "backlinks", "link_type", "status", "spam_score", "importance")
#: A top-10 result's columns beside its key (account, site, keyword, day, position).
SERP_VALUES = ("domain", "dr")
KEYWORD_VALUES = (
    "position",
    "previous_position",
    "median_dr",
    "min_dr",
    "user_dr",
    "gap",
    "tier",
    "impressions",
    "search_volume",
)


# The columns of each query's frame: the subject and day, what was read (as recorded), and where from.
DOMAIN_COLUMNS = ("domain", "day", *DOMAIN_VALUES, "source")
LINK_COLUMNS = ("referring_domain", *LINK_VALUES)
TRUST_TOTAL_COLUMNS = ("day", *TRUST_MAP_TOTALS)
KEYWORD_COLUMNS = ("site", "keyword", "day", *KEYWORD_VALUES, "source")
#: One result of a watched keyword's top 10 on one day.
SERP_COLUMNS = ("site", "keyword", "day", "position", "domain", "dr")
#: Each keyword's best position ever recorded and the first day it was reached.
KEYWORD_BEST_COLUMNS = ("keyword", "best_position", "best_day")
#: One keyword's period on the History page: its latest position and the places gained since the recorded
#: day before, its best ever and the first day at it, days in the top 10 and days recorded in the period,
#: the latest median DR of its top 10 and gap, and its latest recorded day.
KEYWORD_SUMMARY_COLUMNS = (
    "keyword",
    "position",
    "change",
    "best_position",
    "best_day",
    "days_in_top_10",
    "days_recorded",
    "median_dr",
    "gap",
    "latest_day",
)
#: A market's sums per day and domain (``store.market`` makes them at the database, ``analysis.market``
#: from top 10s in memory, and turns either into visibility and share of voice): c(p) of the domain's best
#: position summed over the day's keywords, and the same weighed by each keyword's volume.
MARKET_DOMAIN_SUMS = ("day", "domain", "clicks", "volume_clicks")
#: A market's days: the keywords with a top 10, the sum of their known volumes and how many were known,
#: and how many of the keywords also had a top 10 on the day before it (the previous recorded day).
MARKET_DAY_SUMS = ("day", "keywords", "volume", "volumes_known", "kept")
#: A top 10's DR per day and keyword: the median, lowest and highest DR of the results with one, the
#: spread (highest − lowest) and how many had one (unresolved ones are left out, never counted as 0).
SPREAD_COLUMNS = ("day", "keyword", "median_dr", "min_dr", "max_dr", "spread", "rated")
