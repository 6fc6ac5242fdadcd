"""Keyword groups as the market figures use them: every keyword (``all``), one editor's tag, or the
brand / non-brand split of each own site's keywords. Pure.

A keyword is brand when it contains one of the brand terms of the site it is watched for, as whole
words ("acme" makes "acme pricing" brand, not "acmeville"). A site without terms set by an editor uses
its name: the domain's label ("northwind-coffee.com" → "northwind-coffee" and "northwind coffee").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import pandas as pd

from client.errors import InvalidInputError
from client.inputs import normalise_domain

ALL = "all"
BRAND = "brand"
NON_BRAND = "non-brand"
SPLIT = (BRAND, NON_BRAND)


class UnknownGroup(ValueError):
    """A group no keyword belongs to; the message lists the groups there are."""


def default_brand_terms(site: str) -> tuple[str, ...]:
    """The site's name as brand terms: its registrable domain's label, with hyphens also as spaces."""
    try:
        label = normalise_domain(site).split(".")[0]
    except InvalidInputError:  # not a domain name: the whole of it is the only term there is
        return (site,)
    return tuple(dict.fromkeys([label, label.replace("-", " ")]))


def terms_for(site: str, set_terms: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    return set_terms.get(site) or default_brand_terms(site)


def is_brand(keyword: str, terms: Iterable[str]) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(term)}(?!\w)", keyword) for term in terms if term)


def group_names(tags: Mapping[str, tuple[str, ...]]) -> list[str]:
    """Every group a person can pick: all, brand, non-brand, then the tags in alphabetical order."""
    return [ALL, *SPLIT, *sorted({tag for names in tags.values() for tag in names} - {ALL, *SPLIT})]


def tagged_keywords(group: str, tags: Mapping[str, tuple[str, ...]]) -> set[str]:
    """The keywords tagged ``group``; UnknownGroup when it is no group at all."""
    tagged = {keyword for keyword, names in tags.items() if group in names}
    if not tagged and group not in group_names(tags):
        raise UnknownGroup(f"No keyword is tagged {group!r}. The groups are: {', '.join(group_names(tags))}.")
    return tagged


def split_pairs(
    pairs: Iterable[tuple[str, str]], group: str, brand_terms: Mapping[str, tuple[str, ...]]
) -> set[tuple[str, str]]:
    """The (site, keyword) pairs among ``pairs`` in the brand (or non-brand) group: a keyword watched for
    two sites may be brand for one and not the other."""
    brand = group == BRAND
    return {
        (site, keyword) for site, keyword in pairs if is_brand(keyword, terms_for(site, brand_terms)) == brand
    }


def in_group(
    serps: pd.DataFrame,
    group: str,
    tags: Mapping[str, tuple[str, ...]],
    brand_terms: Mapping[str, tuple[str, ...]],
) -> pd.DataFrame:
    """The rows of ``serps`` (with its ``site`` and ``keyword`` columns) whose keyword is in ``group``;
    UnknownGroup for a group that is neither all, brand, non-brand nor a tag."""
    if group == ALL:
        return serps
    if group in SPLIT:
        pairs = serps[["site", "keyword"]].drop_duplicates().itertuples(index=False)
        chosen = split_pairs(((str(site), str(keyword)) for site, keyword in pairs), group, brand_terms)
        marks = pd.Series(list(zip(serps["site"], serps["keyword"], strict=True)), index=serps.index)
        return serps[marks.isin(chosen)]
    return serps[serps["keyword"].isin(tagged_keywords(group, tags))]
