"""What an audit row says a write was about, from the write's own arguments: the keyword, site,
partner or question in plain text; for a proposal its subject and never its message body or a key."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from client.errors import ApiTimeoutError, ConflictError, InvalidResponseError, PaymentRequiredError
from client.growth_inputs import NewSite
from client.models import QuotaInfo
from components.core.writes.forged_clicks import control_name
from components.core.writes.write_audit import describe, service_refusal, units_words

BODY = "Hi! Our readers would love your guide; shall we swap links? Secret offer inside."


@pytest.mark.parametrize(
    ("operation", "args", "target", "detail"),
    [
        ("add_tracked_keyword", ("acme-com", "  web   analytics "), "web analytics", "for acme-com"),
        (
            "add_ai_prompt",
            ("acme-com", "best crm for startups", None),
            "best crm for startups",
            "for acme-com",
        ),
        ("run_ai_visibility", ("acme-com",), "acme-com", None),
        ("run_gsc_audit", ("acme-com",), "acme-com", None),
        ("verify", ("https://acme.com/about",), "https://acme.com/about", None),
        ("submit_site", (NewSite("https://shop.example.com"),), "https://shop.example.com/", None),
        ("watch", ("rival.com",), "rival.com", None),
        (
            "preview_exchange",
            ("acme.com", "partner.io", "Swap links?", BODY),
            "partner.io",
            "Subject: Swap links?, from acme.com",
        ),
    ],
)
def test_the_target_is_what_the_write_is_about(
    operation: str, args: tuple[object, ...], target: str, detail: str | None
) -> None:
    assert describe(operation, args) == (target, detail)


def test_an_approval_names_the_partner_and_subject_never_the_body_or_key() -> None:
    draft = SimpleNamespace(
        exchanges_for="acme.com", target="partner.io", subject="Swap links?", message=BODY, key="vdr_live_x"
    )
    target, detail = describe("approve_exchange", (draft,))
    assert (target, detail) == ("partner.io", "Subject: Swap links?, from acme.com")
    assert "Secret offer" not in f"{target}{detail}" and "vdr_live_x" not in f"{target}{detail}"


def test_a_write_carrying_only_an_id_is_named_by_what_the_caller_says() -> None:
    assert describe("remove_tracked_keyword", ("acme-com", "t_123"), "crm tools") == ("crm tools", None)
    assert describe("remove_ai_prompt", ("acme-com", "p_9"), "best crm") == ("best crm", None)


def test_outcomes_of_errors_keep_the_status_and_plain_words() -> None:
    outcome, status, words = service_refusal(ConflictError("Keyword already tracked.", status=409))
    assert (outcome, status) == ("refused_by_service", 409) and "Keyword already tracked" in words
    outcome, status, words = service_refusal(PaymentRequiredError("Monthly quota used."))
    assert (outcome, status) == ("refused_by_service", 402) and "quota" in words.lower()
    assert service_refusal(ApiTimeoutError("The service did not answer in time."))[:2] == ("failed", None)
    assert service_refusal(InvalidResponseError("Not JSON.", status=200))[0] == "failed"


@pytest.mark.parametrize(
    ("spent", "remaining", "words"),
    [
        (0, None, "No quota unit spent"),
        (0, 997, "No quota unit spent"),  # what is left is not news when nothing was spent
        (1, None, "1 quota unit spent"),
        (3, 997, "3 quota units spent (997 left)"),
        (2, 12_345, "2 quota units spent (12,345 left)"),
    ],
)
def test_a_quota_spending_read_says_how_many_units_it_spent(
    spent: int, remaining: int | None, words: str
) -> None:
    quota = QuotaInfo(limit=None, remaining=remaining) if remaining is not None else None
    assert units_words(spent, quota) == words


@pytest.mark.parametrize(
    ("widget_id", "name"),
    [
        ("$$ID-0a1b-bulk_start", "bulk_start"),
        ("$$ID-0a1b-FormSubmitter:track_form-Track keyword", "Track keyword (form track_form)"),
        (
            "$$ID-0a1b-FormSubmitter:proposal:my-site.com:partner-io-Preview (dry run: nothing is sent)",
            "Preview (dry run: nothing is sent) (form proposal:my-site.com:partner-io)",
        ),
        ("$$ID-0a1b-None", "an unnamed control"),
    ],
)
def test_a_click_on_a_disabled_control_names_the_control(widget_id: str, name: str) -> None:
    assert control_name(widget_id) == name
