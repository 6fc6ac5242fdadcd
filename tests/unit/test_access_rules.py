"""The role rules of ``[access]``: who gets which role from addresses and ``@domain`` entries, in any
case and spacing, the highest role winning, lookalike domains refused, and lists that change between two
calls taking effect at once; and a role only for an address the sign-in provider has verified
(``email_verified``, Entra's ``xms_edov`` from an Entra issuer only, or the opt-in
``trust_unverified_email_from`` when the provider says nothing)."""

from __future__ import annotations

import pytest

from components.common.access_rules import (
    LOCAL_PERSON,
    LOCAL_ROLE,
    AccessLists,
    address_verified,
    may_see_everyones_activity,
    may_write,
    provider_verdict,
    refusal_words,
    role_for,
    role_for_claims,
)

TEAM = AccessLists.from_mapping(
    {
        "admins": ["Boss@Company.com"],
        "editors": ["  @company.com ", "freelancer@gmail.com"],
        "viewers": ["@partner.org", "auditor@gmail.com", "boss@company.com"],
        "contact": " it@company.com ",
    }
)


@pytest.mark.parametrize(
    ("email", "role"),
    [
        ("boss@company.com", "admin"),  # admin beats the domain's editor and the viewer entry
        ("BOSS@company.COM", "admin"),
        ("  boss@company.com\n", "admin"),
        ("ana@company.com", "editor"),
        ("Ana@COMPANY.com", "editor"),
        ("freelancer@gmail.com", "editor"),
        ("auditor@gmail.com", "viewer"),
        ("someone@partner.org", "viewer"),
        ("other@gmail.com", None),  # an address entry grants nothing to its domain
        ("ana@sub.company.com", None),  # a domain entry does not cover its subdomains
        ("ana@notcompany.com", None),  # nor a domain that merely ends the same way
        ("ana@company.com.evil.io", None),
        ("company.com", None),  # not an address
        ("@company.com", None),
        ("", None),
        (None, None),
    ],
)
def test_the_highest_role_any_entry_grants(email: str | None, role: str | None) -> None:
    assert role_for(email, TEAM) == role


def test_entries_are_read_in_any_case_and_spacing_and_the_contact_is_kept() -> None:
    assert TEAM.admins == ("boss@company.com",)
    assert TEAM.editors == ("@company.com", "freelancer@gmail.com")
    assert TEAM.contact == "it@company.com"


def test_a_bare_domain_entry_reads_as_the_whole_domain_and_junk_entries_grant_nothing() -> None:
    lists = AccessLists.from_mapping({"editors": ["Company.com", "", "@", "a@", "x y@z.com", 42, None]})
    assert lists.editors == ("@company.com",)
    assert role_for("ana@company.com", lists) == "editor"
    assert role_for("x y@z.com", lists) is None


@pytest.mark.parametrize(
    "mapping",
    [None, {}, {"admins": []}, {"admins": None, "editors": ""}, {"viewers": 7}, "not a table"],
)
def test_empty_or_missing_lists_give_nobody_a_role(mapping: object) -> None:
    lists = AccessLists.from_mapping(mapping)  # type: ignore[arg-type]
    assert lists.empty
    assert lists.contact is None
    assert role_for("boss@company.com", lists) is None


def test_a_single_string_instead_of_a_list_is_one_entry() -> None:
    lists = AccessLists.from_mapping({"admins": "boss@company.com"})
    assert role_for("boss@company.com", lists) == "admin"


def test_lists_changing_between_calls_take_effect_at_once() -> None:
    before = AccessLists.from_mapping({"editors": ["ana@company.com"], "viewers": ["@company.com"]})
    assert role_for("ana@company.com", before) == "editor"
    # Ana is taken off the editors: the very next decision makes her a viewer, then nobody.
    after = AccessLists.from_mapping({"viewers": ["@company.com"]})
    assert role_for("ana@company.com", after) == "viewer"
    assert role_for("ana@company.com", AccessLists.from_mapping({})) is None
    # And put back: the role returns just as fast; the earlier lists are untouched.
    assert role_for("ana@company.com", before) == "editor"


def test_who_may_write_and_who_sees_everyones_activity() -> None:
    assert [may_write(role) for role in ("viewer", "editor", "admin", None)] == [False, True, True, False]
    assert [may_see_everyones_activity(r) for r in ("viewer", "editor", "admin", None)] == [
        False,
        False,
        True,
        False,
    ]
    assert (LOCAL_PERSON, LOCAL_ROLE) == ("local", "admin")
    assert may_write(LOCAL_ROLE)


def test_the_refusal_says_editors_only_and_whom_to_ask() -> None:
    assert refusal_words("it@company.com") == (
        "Editors only: you can read everything here; ask it@company.com to change things."
    )
    assert refusal_words(None).startswith("Editors only: ")


ENTRA = "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0"
ANA = "ana@team.example"
ADMINS = AccessLists.from_mapping({"admins": [ANA], "viewers": ["@team.example"]})


@pytest.mark.parametrize(
    ("claims", "verdict"),
    [
        ({"email_verified": True}, True),  # Google, Okta, Auth0, Keycloak: JSON true
        ({"email_verified": "true"}, True),  # some providers send it as text
        ({"email_verified": " TRUE "}, True),
        ({"email_verified": False}, False),  # never confirmed: self-registered, or typed in a profile
        ({"email_verified": "false"}, False),
        ({"email_verified": "yes"}, False),  # anything but true is not a yes
        ({"email_verified": 1}, False),
        ({"email_verified": [True]}, False),
        ({}, None),  # the provider says nothing
        ({"email_verified": None}, None),
        ({"iss": ENTRA, "xms_edov": True}, True),  # Entra's optional claim, from Entra only
        ({"iss": ENTRA, "xms_edov": "1"}, True),
        ({"iss": "https://sts.windows.net/9188040d/", "xms_edov": "true"}, True),  # v1.0 tokens
        ({"iss": ENTRA, "xms_edov": False}, False),
        ({"iss": ENTRA}, None),  # Entra without the optional claim configured
        ({"iss": "https://idp.example/realms/team", "xms_edov": True}, None),  # not Entra's claim there
        ({"iss": "https://login.microsoftonline.com.evil.example/x", "xms_edov": True}, None),
        ({"iss": "http://login.microsoftonline.com/x", "xms_edov": True}, None),
        ({"iss": ENTRA, "xms_edov": True, "email_verified": False}, False),  # email_verified decides
    ],
)
def test_what_the_provider_says_of_the_address(claims: dict[str, object], verdict: bool | None) -> None:
    assert provider_verdict(claims) is verdict


@pytest.mark.parametrize(
    ("claims", "role"),
    [
        ({"email": ANA, "email_verified": True}, "admin"),
        ({"email": ANA.upper(), "email_verified": "true"}, "admin"),
        ({"email": ANA, "email_verified": False}, None),  # the finding: unverified, yet on admins
        ({"email": ANA, "email_verified": "false"}, None),
        ({"email": ANA}, None),  # no claim: not verified
        ({"email": "bo@team.example"}, None),  # the domain's viewers entry does not help either
        ({"email": "bo@team.example", "email_verified": True}, "viewer"),
        ({"email": ANA, "iss": ENTRA, "xms_edov": True}, "admin"),
        ({"email": ANA, "iss": ENTRA}, None),
        ({"email_verified": True}, None),  # verified, but no address
        ({"email": 42, "email_verified": True}, None),
    ],
)
def test_a_role_only_for_a_verified_address(claims: dict[str, object], role: str | None) -> None:
    assert role_for_claims(claims, ADMINS) == role


def test_trusting_unverified_addresses_is_opt_in_and_never_overrides_a_no() -> None:
    assert ADMINS.trust_unverified_email_from == ()
    trusting = AccessLists.from_mapping(
        {"admins": [ANA], "viewers": ["@partner.example"], "trust_unverified_email_from": [" Team.Example "]}
    )
    assert trusting.trust_unverified_email_from == ("@team.example",)
    # The provider says nothing: an address of the trusted domain counts, another domain's does not.
    assert address_verified(ANA, {}, trusting)
    assert role_for_claims({"email": ANA}, trusting) == "admin"
    assert role_for_claims({"email": "pat@partner.example"}, trusting) is None
    assert role_for_claims({"email": "ana@sub.team.example", "email_verified": None}, trusting) is None
    # The provider says "not verified": never trusted, whatever the list says.
    assert role_for_claims({"email": ANA, "email_verified": False}, trusting) is None
    assert role_for_claims({"email": ANA, "iss": ENTRA, "xms_edov": False}, trusting) is None
    # One address can be trusted instead of a whole domain.
    one = AccessLists.from_mapping({"admins": [ANA], "trust_unverified_email_from": ANA})
    assert address_verified(ANA, {}, one) and not address_verified("bo@team.example", {}, one)
    assert not address_verified(None, {"email_verified": True}, one)
