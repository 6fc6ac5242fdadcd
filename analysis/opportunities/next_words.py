"""The Coach's next actions from the opportunities list, in words: one sentence per keyword worth
pushing ("Push “cold brew kit” from position 7 to 3: about 137 more clicks a month; its top 10's median
DR is 41, yours 38"), with the winnable sentence of a watched keyword (the list's own ``median_words``,
written by ``analysis.opportunities.words`` as on the Market page and in the report), and what the list
could not rank or read. Pure: a row of the list in, plain text out (a page escapes it for Markdown).

The numbers are the list's, rounded as its table shows them: clicks to whole clicks, DRs to at most
one decimal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from analysis.wording import counted, is_missing, short_number, whole_number


def push_words(row: Mapping[str, Any], target: int) -> str:
    """One keyword of the list as a next action: where it stands, the clicks reaching ``target`` brings,
    and the DR its top 10 asks against the site's."""
    keyword, position = row["keyword"], row["position"]
    if is_missing(position):
        lead = f"Get “{keyword}” to position {target} (not ranking yet)"
    else:
        lead = f"Push “{keyword}” from position {int(position)} to {target}"
    clicks = f"about {whole_number(row['clicks_gained'])} more clicks a month"
    return f"{lead}: {clicks}; {_drs(row)}"


def _drs(row: Mapping[str, Any]) -> str:
    """The top 10's median DR against the site's; a site that already reaches it is told so ("median DR
    is 18, yours 18" read like a placeholder, not like the good news it is)."""
    median, mine = row["median_dr"], row["site_dr"]
    if is_missing(median):
        return "its top 10's DR is not known yet"
    if is_missing(mine):
        return f"its top 10's median DR is {short_number(median)}"
    if round(float(mine), 1) >= round(float(median), 1):
        return f"your DR {short_number(mine)} already reaches its top 10's median DR {short_number(median)}"
    return f"its top 10's median DR is {short_number(median)}, yours {short_number(mine)}"


def winnable_line(row: Mapping[str, Any]) -> str:
    """When a watched keyword becomes winnable against its top 10's median DR, in the Market page's
    sentence; "" for a keyword that is not watched (no history to project from)."""
    words = row.get("median_words") or ""
    return f"When winnable against the top 10's median DR: {words}" if words else ""


def score_words(row: Mapping[str, Any]) -> str:
    """The row's opportunity score with its parts, as ``score_opportunities`` computes it: the monthly
    volume × the CTR points gained reaching the target, ÷ the DR points lacking (at least 1); or why it
    has none (the row's problem, else what is unknown)."""
    if is_missing(row["score"]):
        problem = str(row.get("problem") or "")
        if not problem:
            problem = (
                "its top 10's DR is not known yet"
                if is_missing(row.get("median_dr"))
                else "its monthly volume is not known"
                if is_missing(row.get("volume"))
                else "your site's DR is not known yet"
            )
        return f"No opportunity score: {problem}"
    share = float(row["ctr_target"]) - float(row["ctr_now"])
    lacking = max(float(row["difficulty"]), 1.0)
    return (
        f"Opportunity score {short_number(row['score'])} = {whole_number(row['volume'])} monthly searches × "
        f"{short_number(max(share, 0.0))} % points of CTR gained (about {whole_number(row['clicks_gained'])} "
        f"more clicks a month) ÷ {short_number(lacking)} DR {'point' if lacking == 1 else 'points'} lacking"
        + (" (at least 1)" if float(row["difficulty"]) < 1 else "")
    )


def watched_words(keyword: str, words: str) -> str:
    """When a watched keyword outside the top of the list becomes winnable, in the Market page's words."""
    return f"“{keyword}” becomes winnable against its top 10's median DR: {words}"


def lacking_words(lacking: int) -> str:
    """How many keywords the list cannot rank for want of a top 10, and where they are read."""
    if not lacking:
        return ""
    have = "has" if lacking == 1 else "have"
    return (
        f"{counted(lacking, 'more keyword')} {have} no top 10 yet, so no score: the Opportunities page "
        "reads them (one keyword report each, its cost said first)."
    )


def unasked_words(unasked: Sequence[str]) -> str:
    """Which listing reads the Coach did not make (it spends no call of its own), and what it lists
    instead: the history's watched keywords and the tracked keywords as last recorded."""
    if not unasked:
        return ""
    what = " and ".join(f"your site's {name}" for name in unasked)
    instead = (
        "so the list here is the watched keywords and the tracked keywords as the history last recorded them"
        if "tracked keywords" in unasked
        else "so the keywords only they would add are not listed here"
    )
    return (
        f"{what[:1].upper()}{what[1:]} were not read in the last 15 minutes and the Coach spends no call "
        f"on them, {instead}. The Opportunities page reads them for the whole list."
    )


def none_words(site: str, ranked: int, target: int) -> str:
    """What the Coach says when no keyword of the list would gain clicks at the target."""
    if ranked:
        return ""
    return f"No keyword of {site} known here would gain clicks by reaching position {target}."


def not_yours_words(domain: str) -> str:
    """Why the Coach lists no opportunities for a domain that is not one of the account's own sites."""
    return (
        f"Keyword opportunities are for your own sites: {domain} is not one of the sites this account "
        "knows as yours (on My sites, History or Opportunities)."
    )
