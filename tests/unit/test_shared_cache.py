"""The shared cache level's pure parts: how entries are named and written as JSON, and read back.

Every answer type's round trip through JSON with real sandbox answers is in
tests/wire/test_shared_cache_records.py; what Redis itself does is in
tests/apptest/test_shared_cache_replicas.py.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from client import errors
from client.growth_inputs import DiscoveryFilters
from client.models import DomainRating, QuotaInfo
from client.safe_urls import display_url
from client.settings import key_fingerprint
from components.core.cache import announcements, cache_records, data, redis_cache, shared_cache
from components.core.cache.cache_records import Record, decode, encode, entry_key
from sandbox import DEMO_KEY, FREE_KEY

ROOT = "https://verifieddr.com"
REPO = Path(__file__).resolve().parents[2]
FINGERPRINT = key_fingerprint(DEMO_KEY)


def test_a_key_names_service_fingerprint_operation_and_arguments_but_never_the_api_key() -> None:
    key = entry_key(ROOT, FINGERPRINT, "lookup", ("stripe.com",))
    prefix, version, root, fingerprint, operation, digest = key.split(":")
    assert (prefix, version, fingerprint, operation) == ("adash", "v1", FINGERPRINT, "lookup")
    assert len(root) == 16 and ROOT not in key and len(digest) == 24
    assert DEMO_KEY not in key and "stripe.com" not in key


def test_keys_differ_by_each_part_and_repeat_for_the_same_read() -> None:
    base = entry_key(ROOT, FINGERPRINT, "lookup", ("stripe.com",))
    assert base == entry_key(ROOT, FINGERPRINT, "lookup", ("stripe.com",))
    others = {
        entry_key("http://127.0.0.1:9", FINGERPRINT, "lookup", ("stripe.com",)),
        entry_key(ROOT, key_fingerprint(FREE_KEY), "lookup", ("stripe.com",)),
        entry_key(ROOT, FINGERPRINT, "trust_map", ("stripe.com",)),
        entry_key(ROOT, FINGERPRINT, "lookup", ("hubspot.com",)),
        entry_key(ROOT, FINGERPRINT, "lookup", ("stripe.com", None)),
    }
    assert base not in others and len(others) == 5


def test_filters_are_keyed_by_their_values() -> None:
    def key(filters: DiscoveryFilters) -> str:
        return entry_key(ROOT, FINGERPRINT, "find", (filters,))

    assert key(DiscoveryFilters(min_dr=40)) == key(DiscoveryFilters(min_dr=40))
    assert key(DiscoveryFilters(min_dr=40)) != key(DiscoveryFilters(min_dr=41))
    assert key(DiscoveryFilters()) != key(DiscoveryFilters(traffic_validated=True))


def test_arguments_without_a_stable_form_are_not_keyed() -> None:
    with pytest.raises(TypeError):
        entry_key(ROOT, FINGERPRINT, "lookup", (object(),))


def test_an_answer_is_stored_as_the_service_writes_it_and_read_back_equal() -> None:
    rating = DomainRating.model_validate({"domain": "stripe.com", "dr": 91, "someNewField": {"a": 1}})
    quota = QuotaInfo(limit=100, remaining=97, tier="boost")
    text = encode("dr", Record(value=rating, quota=quota))
    body = json.loads(text)
    assert body["value"]["domain"] == "stripe.com" and body["value"]["someNewField"] == {"a": 1}
    back = decode("dr", text, ROOT)
    assert back.value == rating and back.quota == quota and back.error is None


@pytest.mark.parametrize(
    "error",
    [
        errors.NotFoundError("No such site.", status=404, operation="site"),
        errors.PaymentRequiredError(
            "A growth program is needed.",
            operation="ai_visibility",
            upgrade_url=f"{ROOT}/pricing",
            required_plan="boost",
        ),
        errors.BadRequestError("Bad range.", status=400, operation="gsc_performance"),
        errors.AuthError("Key not accepted.", status=401, operation="lookup"),
        errors.ConflictError("Already tracked.", status=409, operation="tracked_keywords"),
    ],
    ids=lambda err: type(err).__name__,
)
def test_a_definitive_error_is_a_json_record_rebuilt_as_the_same_error(error: errors.ApiError) -> None:
    text = encode("site", Record(error=error))
    assert json.loads(text)["error"]["class"] == type(error).__name__
    back = decode("site", text, ROOT).error
    assert type(back) is type(error)
    assert vars(back) == vars(error) and str(back) == str(error)
    if isinstance(error, errors.PaymentRequiredError):
        assert isinstance(back, errors.PaymentRequiredError) and back.is_gate


@pytest.mark.parametrize("name", ["ValueError", "RateLimitedError", "TransportError", "Record", "os"])
def test_only_the_clients_definitive_errors_are_rebuilt(name: str) -> None:
    text = json.dumps(
        {"operation": "site", "error": {"class": name, "fields": {"message": "x"}}, "quota": None}
    )
    with pytest.raises(ValueError):
        decode("site", text, ROOT)


def test_a_record_of_another_operation_or_no_json_is_refused() -> None:
    text = encode("dr", Record(value=DomainRating.model_validate({"domain": "a.com", "dr": 1})))
    with pytest.raises(ValueError):
        decode("lookup", text, ROOT)
    with pytest.raises(ValueError):
        decode("dr", pickle.dumps({"operation": "dr"}), ROOT)


def test_a_password_in_the_redis_url_is_never_shown() -> None:
    assert display_url("redis://:s3cret@cache.internal:6379/0") == "redis://:***@cache.internal:6379/0"
    assert display_url("rediss://app:s3cret@h:1/0") == "rediss://app:***@h:1/0"
    assert display_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"


def test_the_environment_wins_over_the_secrets_file_and_neither_means_off(tmp_path: Path) -> None:
    secrets = tmp_path / "secrets.toml"
    secrets.write_text('[connections.cache]\nurl = "redis://from-secrets:6379/0"\n', encoding="utf-8")
    files = (tmp_path / "missing.toml", secrets)
    env = {"DASHBOARD_REDIS_URL": " redis://from-env:6379/0 "}
    assert shared_cache.configured_url(env, files) == "redis://from-env:6379/0"
    assert shared_cache.configured_url({"DASHBOARD_REDIS_URL": " "}, files) == "redis://from-secrets:6379/0"
    assert shared_cache.configured_url({}, (tmp_path / "missing.toml",)) is None


def test_every_read_the_data_layer_caches_is_shareable_and_lives_as_long() -> None:
    assert redis_cache.SharedCache.__init__.__kwdefaults__["ttl_s"] == data.CACHE_TTL_S
    reads = {"dr", "site_check", "lookup", "trust_map", "snippets", "categories", "keyword_report"}
    reads |= {"keyword_suggestions", "tracked_keywords", "find", "exchange_candidates", "sites", "site"}
    reads |= {"site_truedr", "ai_visibility", "export", "monitor", "gsc_performance", "gsc_audit"}
    assert set(cache_records.ANSWER_TYPES) == reads


def test_a_server_without_a_redis_url_never_loads_the_redis_client() -> None:
    """About 5 MiB a one-process server need not hold: the Redis level is imported on demand."""
    probe = (
        "import sys\n"
        "from components.core import data, history, shared_cache\n"
        "assert shared_cache.current() is None\n"
        "print(sorted(m for m in sys.modules if m == 'redis' or m.startswith('redis.')))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != shared_cache.ENV_VAR}
    command = [sys.executable, "-c", probe]
    found = subprocess.run(command, capture_output=True, text=True, env=env, cwd=REPO, timeout=60, check=True)
    assert found.stdout.strip() == "[]"


GATE = {
    "message": "A growth program is needed.",
    "status": 402,
    "operation": "ai_visibility",
    "upgrade_url": f"{ROOT}/pricing",
    "required_plan": "growth",
    "blocked_feature": "ai_visibility",
}


def _error_record(name: str, fields: object) -> str:
    return json.dumps({"operation": "site", "error": {"class": name, "fields": fields}, "quota": None})


def test_a_gate_on_the_services_own_site_is_read_back_with_its_link() -> None:
    back = decode("site", _error_record("PaymentRequiredError", GATE), ROOT).error
    assert isinstance(back, errors.PaymentRequiredError) and back.upgrade_url == f"{ROOT}/pricing"
    port_spelled_out = GATE | {"upgrade_url": "HTTPS://VerifiedDR.com:443/pricing?plan=growth"}
    assert decode("site", _error_record("PaymentRequiredError", port_spelled_out), ROOT).error


@pytest.mark.parametrize(
    "fields",
    [
        {},
        [],
        {"message": "Your plan expired."},
        {k: v for k, v in GATE.items() if k != "upgrade_url"},
        GATE | {"message": 7},
        GATE | {"status": "402"},
        GATE | {"status": True},
        GATE | {"status": 404},
        GATE | {"required_plan": ["growth"]},
        GATE | {"extra": "<b>more</b>"},
        GATE | {"upgrade_url": "https://evil.example/renew"},
        GATE | {"upgrade_url": "https://verifieddr.com@evil.example/renew"},
        GATE | {"upgrade_url": "https://verifieddr.com.evil.example/renew"},
        GATE | {"upgrade_url": "http://verifieddr.com/pricing"},
        GATE | {"upgrade_url": "https://verifieddr.com:8443/pricing"},
        GATE | {"upgrade_url": "javascript:alert(1)//verifieddr.com"},
        GATE | {"upgrade_url": "//evil.example/renew"},
    ],
    ids=lambda fields: "-".join(sorted(fields))[:40] if isinstance(fields, dict) else "list",
)
def test_a_402_record_missing_fields_of_wrong_types_or_with_a_foreign_link_is_refused(
    fields: object,
) -> None:
    with pytest.raises(ValueError):
        decode("site", _error_record("PaymentRequiredError", fields), ROOT)


@pytest.mark.parametrize(
    "body",
    [
        {"operation": "dr", "value": {"domain": "a.com", "dr": 1}, "error": None, "quota": None},
        {"operation": "dr", "quota": None},
        {"operation": "dr", "value": {"domain": "a.com", "dr": "ninety"}, "quota": None},
        {"operation": "dr", "value": {"domain": "a.com", "dr": 1}, "quota": {"tier": ["pro"]}},
        {"operation": "dr", "value": {"domain": "a.com", "dr": 1}, "quota": None, "run": "this"},
    ],
    ids=["both", "neither", "wrong-type", "quota-type", "extra-key"],
)
def test_a_record_not_of_the_shape_encode_writes_is_refused(body: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        decode("dr", json.dumps(body), ROOT)


def test_a_record_over_the_size_limit_is_neither_read_nor_written() -> None:
    padding = "x" * cache_records.MAX_RECORD_BYTES
    big = DomainRating.model_validate({"domain": "a.com", "dr": 1, "padding": padding})
    with pytest.raises(ValueError):
        encode("dr", Record(value=big))
    text = json.dumps({"operation": "dr", "value": big.model_dump(mode="json"), "quota": None})
    with pytest.raises(ValueError):
        decode("dr", text, ROOT)


@pytest.mark.parametrize(
    "note",
    [
        b'["p1", "b", "f", "dr", [["a", "list"]]]',
        b'["p1", "b", "f", "dr", [{"a": 1}]]',
        b'["p1", ["b"], "f", "dr", []]',
        b'["p1", "b", "f", "dr", "stripe.com"]',
        b'["p1", "b", "f", "dr"]',
        b'{"p1": "b"}',
        b"\xff",
        b"[" * 100_000,
    ],
)
def test_an_entry_note_of_any_other_shape_names_nothing(note: bytes) -> None:
    assert announcements.read_entry_note(note) == (None, None)
    assert announcements.read_history_note(note) == (None, None)
