"""The models take what the real service sends: nulls, missing signals, extra fields, unseen enum values."""

from __future__ import annotations

import pickle

import httpx
import pytest

from client import ApiClient, errors
from client.models import KeywordReport, Lookup, SiteCheck, TrackedKeywords, TrustMap


def _client_answering(body: object, status: int = 200, headers: dict[str, str] | None = None) -> ApiClient:
    def handler(request: httpx.Request) -> httpx.Response:
        if isinstance(body, bytes):
            return httpx.Response(status, content=body, headers=headers)
        return httpx.Response(status, json=body, headers=headers)

    return ApiClient("http://service.test", "vdr_test", transport=httpx.MockTransport(handler), max_retries=0)


def test_lookup_with_every_signal_null_parses() -> None:
    lookup = Lookup.model_validate(
        {
            "domain": "example.com",
            "slug": None,
            "authority": {"dr": None, "trueDr": None, "trustScore": None, "confidence": None},
            "changes": {"drWeeklyChange": None, "trueDrWeeklyChange": None, "trafficChange": None},
            "evidence": {"traffic": None, "referringDomains": None, "backlinks": None},
            "verified": None,
        }
    )
    assert lookup.authority.dr is None
    assert lookup.evidence.traffic is None


def test_lookup_with_missing_objects_parses_to_empty_sections() -> None:
    lookup = Lookup.model_validate({"domain": "example.com"})
    assert lookup.authority.true_dr is None and lookup.changes.traffic_change is None


def test_extra_fields_are_kept_and_written_back() -> None:
    lookup = Lookup.model_validate(
        {
            "domain": "example.com",
            "authority": {"dr": 50, "trueDr": 44, "brandNewSignal": 7},
            "somethingNew": {"a": 1},
        }
    )
    assert lookup.model_extra == {"somethingNew": {"a": 1}}
    assert lookup.authority.model_extra == {"brandNewSignal": 7}
    dumped = lookup.to_json_dict()
    assert dumped["somethingNew"] == {"a": 1}
    assert dumped["authority"]["trueDr"] == 44 and dumped["authority"]["brandNewSignal"] == 7


def test_unseen_enum_values_are_accepted() -> None:
    check = SiteCheck.model_validate({"domain": "x.com", "verdict": "parked", "reasons": ["new rule"]})
    assert check.verdict == "parked"
    tmap = TrustMap.model_validate(
        {
            "site": {"domain": "x.com"},
            "domains": [{"domain": "y.com", "linkType": "ugc", "status": "redirect"}],
        }
    )
    assert tmap.domains[0].link_type == "ugc"
    report = KeywordReport.model_validate({"keyword": "k", "user": {"domain": "x.com", "tier": "mega"}})
    assert report.user is not None and report.user.tier == "mega"


def test_unresolved_serp_dr_stays_unknown_not_zero() -> None:
    report = KeywordReport.model_validate(
        {"keyword": "crm", "results": [{"position": 1, "domain": "a.com", "dr": None}]}
    )
    assert report.results[0].dr is None


def test_tracked_keyword_list_with_unknown_snapshot_fields() -> None:
    listing = TrackedKeywords.model_validate(
        {
            "website": {"slug": "example-com", "url": "https://example.com"},
            "keywords": [{"id": "tgt_1", "keyword": "crm", "snapshot": {"medianDr": 60, "gap": 5, "x": 1}}],
            "limit": 25,
            "quota": {"used": 3, "limit": None},
        }
    )
    assert listing.keywords[0].snapshot is not None and listing.keywords[0].snapshot.gap == 5


@pytest.mark.parametrize("with_ok", [True, False])
def test_bodies_with_or_without_ok_parse(with_ok: bool) -> None:
    body: dict[str, object] = {"lookup": {"domain": "example.com", "authority": {"dr": 61}}}
    if with_ok:
        body["ok"] = True
    with _client_answering(body) as client:
        assert client.lookup("example.com").authority.dr == 61


def test_wrong_types_become_an_invalid_response_error() -> None:
    with _client_answering({"lookup": {"domain": "example.com", "authority": {"dr": "lots"}}}) as client:
        with pytest.raises(errors.InvalidResponseError) as info:
            client.lookup("example.com")
    assert "authority.dr" in info.value.message


def test_non_json_success_becomes_an_invalid_response_error() -> None:
    with _client_answering(b"<html>maintenance</html>") as client:
        with pytest.raises(errors.InvalidResponseError):
            client.categories()


def test_quota_headers_are_read() -> None:
    headers = {"X-API-Quota-Limit": "1000", "X-API-Quota-Remaining": "987", "X-API-Tier": "pro"}
    with _client_answering({"categories": [], "maxPerSite": 3}, headers=headers) as client:
        client.categories()
        quota = client.last_quota
    assert quota is not None and (quota.limit, quota.remaining, quota.tier) == (1000, 987, "pro")


@pytest.mark.parametrize(
    "error",
    [
        errors.PaymentRequiredError(
            "gate", upgrade_url="https://x.test/up", blocked_feature="keyword_research"
        ),
        errors.RateLimitedError("slow down", retry_after=3.0),
        errors.NotFoundError("nope", status=404, operation="lookup"),
        errors.InvalidInputError("bad", field="keyword"),
    ],
)
def test_errors_survive_the_cache_round_trip(error: errors.ApiError) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert copy.__dict__ == error.__dict__
    assert str(copy) == str(error)


def test_client_repr_never_shows_the_key() -> None:
    client = ApiClient("http://service.test", "vdr_secret_marker_123")
    assert "vdr_secret_marker_123" not in repr(client)
    client.close()


def test_a_mangled_timestamp_becomes_unknown_not_a_failure() -> None:
    lookup = Lookup.model_validate({"domain": "x.com", "evidence": {"reportCreatedAt": "last tuesday"}})
    assert lookup.evidence.report_created_at is None
    ok = Lookup.model_validate({"domain": "x.com", "evidence": {"reportCreatedAt": "2025-01-06T10:00:00Z"}})
    assert ok.evidence.report_created_at is not None and ok.evidence.report_created_at.year == 2025


def test_the_envelope_ok_is_not_kept_as_a_field_of_top_level_resources() -> None:
    with _client_answering({"ok": True, "categories": [{"value": "saas"}], "maxPerSite": 3}) as client:
        cats = client.categories()
    assert "ok" not in (cats.model_extra or {})
    assert cats.max_per_site == 3


def test_a_trust_maps_unusable_rows_are_named_one_by_one_and_the_usable_ones_kept() -> None:
    tmap = TrustMap.model_validate(
        {
            "site": {"domain": "x.com"},
            "domains": [
                {"domain": "good.com", "dr": None, "linkType": "ugc", "status": "redirect"},
                "not a record",
                {"dr": 40},
                {"domain": "  ", "dr": 40},
                {"domain": "<b>evil</b>.com"},
                {"domain": "bad-dr.com", "dr": "lots"},
                {"domain": "bad-links.com", "backlinks": [1]},
                {"domain": "bad-type.com", "linkType": 3},
                {"domain": "bad-status.com", "status": {"a": 1}},
                {"domain": "bad-importance.com", "importance": "high"},
                {"domain": "bad-spam.com", "spamScore": "low"},
                {"domain": "=" + "x" * 100},
                {"domain": "a\x1b[31mb\nc\u202e.com"},
            ],
        }
    )
    assert [row.domain for row in tmap.domains] == ["good.com"]
    assert [row.words for row in tmap.skipped] == [
        "row 2: it is not a referring domain's record",
        "row 3: it names no referring domain",
        "row 4: it names no referring domain",
        'row 5 ("<b>evil</b>.com"): its name is not a domain name',
        'row 6 ("bad-dr.com"): its DR is not a whole number',
        'row 7 ("bad-links.com"): its backlink count is not a whole number',
        'row 8 ("bad-type.com"): its link type is not text',
        'row 9 ("bad-status.com"): its status is not text',
        'row 10 ("bad-importance.com"): its importance is not a number',
        'row 11 ("bad-spam.com"): its spam score is not a number',
        f'row 12 ("={"x" * 58}…"): its name is not a domain name',  # cut to a readable length
        'row 13 ("a [31mb c .com"): its name is not a domain name',  # one line, no control characters
    ]
    # A map whose domains are not a list is not the documented shape: that fails as it always did.
    with _client_answering({"map": {"site": {"domain": "x.com"}, "domains": "lots"}}) as client:
        with pytest.raises(errors.InvalidResponseError):
            client.trust_map("x.com")
