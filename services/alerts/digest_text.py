"""The digest as plain text (the e-mail's text part, and ``--output`` to a ``.txt`` file): the same
sections as the HTML (``services.alerts.digest``), one line per item, each alert with its chart link."""

from __future__ import annotations

from services.alerts.digest import (
    ALERTS_PATH,
    ALERTS_SHOWN,
    NO_DOMAIN_MOVED,
    NO_NOTES,
    PRODUCT,
    AccountDigest,
    Digest,
    count_words,
    day_text,
    digest_alert_url,
    number_text,
    pair_text,
    period_words,
    site_words,
)


def _text_section(heading: str, lines: list[str], nothing: str) -> list[str]:
    """A heading and its lines, or ``nothing`` in words when there are none."""
    return ["", heading, *(lines or [nothing])]


def _account_text(account: AccountDigest, dashboard: str) -> list[str]:
    alerts: list[str] = []
    for alert in account.alerts.head(ALERTS_SHOWN).itertuples():
        evidence = ""
        if alert.before is not None or alert.after is not None:
            evidence = f" ({alert.before or '—'} → {alert.after or '—'})"
        alerts += [
            f"- {day_text(alert.day)}: {alert.title}{evidence}",
            f"  {digest_alert_url(dashboard, alert)}",
        ]
    if len(account.alerts) > ALERTS_SHOWN:
        alerts.append(f"… and {len(account.alerts) - ALERTS_SHOWN} more in the dashboard.")
    domains = [
        f"- {move.domain}: DR {pair_text(move.dr)}; TrueDR {pair_text(move.true_dr)}; "
        f"referring domains {pair_text(move.referring_domains, percent=True)}"
        for move in account.domain_moves
    ]
    keywords = [
        f'- "{move.keyword}" ({site_words(move.site)}): position {number_text(move.before)} → '
        f"{number_text(move.after)}, {move.words}"
        for move in account.keyword_moves
    ]
    return [
        account.label,
        "=" * len(account.label),
        *_text_section(f"Alerts ({len(account.alerts)})", alerts, "No alerts in this period."),
        *_text_section("Watched domains: biggest moves", domains, NO_DOMAIN_MOVED),
        *_text_section("Keywords: biggest moves", keywords, "No keyword moved."),
        *_text_section(
            "Notes on the charts", [f"- {when}: {what}" for when, what in account.notes], NO_NOTES
        ),
        "",
    ]


def render_text(digest: Digest) -> str:
    dashboard = digest.dashboard_url.rstrip("/")
    title = f"{PRODUCT}: {period_words(digest.start, digest.end)}"
    lines = [
        title,
        "",
        f"{count_words(digest.alert_count, 'alert').capitalize()} in this period.",
        f"Alerts page: {dashboard}/{ALERTS_PATH}",
        f"Dashboard: {dashboard}",
        "",
    ]
    for account in digest.accounts:
        lines += _account_text(account, dashboard)
    if not digest.accounts:
        lines.append("No account has any history yet.")
    return "\n".join(lines).rstrip() + "\n"
