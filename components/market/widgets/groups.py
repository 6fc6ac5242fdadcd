"""The Market page's Keyword groups tab: editors tag watched keywords, several at once ("pricing", "blog":
each tag is a group the page can show), and set each own site's brand terms (its keywords that contain
one are the "brand" group, the rest "non-brand"). Viewers see the table, with the controls disabled.
Every change goes through the one audited write path for the dashboard's own records."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from analysis.market.groups import is_brand, terms_for
from analysis.wording import counted
from components.core.auth import access
from components.core.cache.connection import Connection
from components.core.history.source import HistorySource
from components.core.ui.tables import table_with_export
from components.core.writes.history_changes import (
    audited_history_change,
    history_change_words,
    refusal_words,
    tell_after_rerun,
)
from store.groups import clean_tags, clean_terms

if TYPE_CHECKING:
    from store import HistoryStore

TAG_FORM = "market_tag_form"
TERMS_FORM = "market_terms_form"
RESULT_KEY = "_market_groups_result"
COLUMNS = {
    "keyword": st.column_config.TextColumn("Keyword", pinned=True, disabled=True),
    "sites": st.column_config.TextColumn("Watched for", disabled=True),
    "brand": st.column_config.CheckboxColumn(
        "Brand", disabled=True, help="Contains a brand term of its site"
    ),
    "tags": st.column_config.TextColumn("Tags"),
}


def _split(text: str) -> list[str]:
    return [part for part in re.split(r"[;|,]", text or "") if part.strip()]


def groups_frame(
    watched: list[tuple[str, str]], tags: dict[str, tuple[str, ...]], brands: dict[str, tuple[str, ...]]
) -> pd.DataFrame:
    """One row per watched keyword: the sites it is watched for, whether it is brand, its tags."""
    sites: dict[str, list[str]] = {}
    for keyword, site in watched:
        sites.setdefault(keyword, []).extend([site] if site else [])
    keywords = sorted(sites)
    return pd.DataFrame(
        {
            "keyword": keywords,
            "sites": [", ".join(sorted(set(sites[k]))) for k in keywords],
            "brand": [any(is_brand(k, terms_for(s, brands)) for s in sites[k]) for k in keywords],
            "tags": [", ".join(tags.get(k, ())) for k in keywords],
        },
        columns=list(COLUMNS),
    )


def _tags_of(keyword: str, tags: tuple[str, ...]) -> Callable[[HistoryStore, str], bool]:
    return lambda store, account: store.groups.set_keyword_tags(account, keyword, tags)


def _terms_of(site: str, terms: tuple[str, ...]) -> Callable[[HistoryStore, str], bool]:
    return lambda store, account: store.groups.set_brand_terms(account, site, terms)


def _tag(conn: Connection, keywords: list[str], tag: str, add: bool, tags: dict[str, tuple[str, ...]]) -> str:
    """Add ``tag`` to (or remove it from) each of ``keywords``, each change audited; what happened."""
    (name,) = clean_tags([tag]) or ("",)
    if not keywords or not name:
        return "Pick keywords and type a tag first."
    changed = 0
    for keyword in keywords:
        present = tags.get(keyword, ())
        wanted = tuple(dict.fromkeys([*present, name])) if add else tuple(t for t in present if t != name)
        target = f"“{keyword}”: {', '.join(wanted) or 'no tags'}"
        done = audited_history_change(conn, "tag_keyword", target, _tags_of(keyword, wanted))
        if done is None:
            return refusal_words()
        changed += done
    verb = "Tagged" if add else "Untagged"
    return f"{verb} {counted(changed, 'keyword')} “{name}”." if changed else "Nothing changed."


def _set_terms(conn: Connection, site: str, text: str) -> str:
    wanted = clean_terms(_split(text))
    target = f"{site}: {', '.join(wanted) or 'its name'}"
    said = (f"Brand terms of {site} saved.", "Nothing changed.")
    return history_change_words(conn, "set_brand_terms", target, _terms_of(site, wanted), said)


def _tag_form(
    conn: Connection,
    keywords: list[str],
    tags: dict[str, tuple[str, ...]],
    may_write: bool,
    reason: str | None,
) -> None:
    with st.form(TAG_FORM, border=True):
        chosen = st.multiselect("Keywords", keywords, key="market_tag_keywords", disabled=not may_write)
        tag = st.text_input("Tag", key="market_tag_name", disabled=not may_write, placeholder="pricing")
        add_column, remove_column = st.columns(2)
        add = add_column.form_submit_button("Add tag", disabled=not may_write, type="primary", help=reason)
        remove = remove_column.form_submit_button("Remove tag", disabled=not may_write, help=reason)
    if add or remove:
        tell_after_rerun(RESULT_KEY, lambda: _tag(conn, chosen, tag, bool(add), tags))


def _terms_form(
    conn: Connection,
    sites: list[str],
    brands: dict[str, tuple[str, ...]],
    may_write: bool,
    reason: str | None,
) -> None:
    with st.form(TERMS_FORM, border=True):
        site = st.selectbox("Brand terms of", sites, key="market_brand_site", disabled=not may_write)
        text = st.text_input(
            "Brand terms",
            placeholder=", ".join(terms_for(site, brands)) if site else "",
            key="market_brand_terms",
            disabled=not may_write,
            help="Separate terms with commas. Empty: the site's name. A keyword watched for this site "
            "that contains one of them (as whole words) is a brand keyword.",
        )
        saved = st.form_submit_button("Save brand terms", disabled=not may_write, help=reason)
    if saved and site:
        tell_after_rerun(RESULT_KEY, lambda: _set_terms(conn, site, text))


def groups_tab(conn: Connection, source: HistorySource) -> None:
    may_write, reason = access.write_permission()
    watched = [(subject, site) for kind, subject, _origin, site in source.watch_items() if kind == "keyword"]
    if not watched:
        st.info(
            "No keyword is watched yet: watch keywords on Keyword research first.", icon=":material/sell:"
        )
        return
    tags, brands = source.keyword_tags(), source.brand_terms()
    result = st.session_state.pop(RESULT_KEY, None)
    if result:
        st.success(result, icon=":material/sell:")
    frame = groups_frame(watched, tags, brands)
    left, right = st.columns(2)
    with left:
        _tag_form(conn, frame["keyword"].tolist(), tags, may_write, reason)
    with right:
        _terms_form(conn, sorted({site for _keyword, site in watched if site}), brands, may_write, reason)
    access.read_only_note(reason)
    table_with_export(frame, what="keyword-groups", key="market_groups", column_config=COLUMNS)
    st.caption(
        "Each tag is a group: pick it above to see its visibility and share of voice. Brand and "
        "non-brand come from each site's brand terms (its name until an editor sets them). From the "
        "command line: a tags column in `python -m store watch import`."
    )
