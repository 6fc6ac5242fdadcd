"""The role rules of ``[access]``: who gets which role from addresses and ``@domain`` entries, in any
case and spacing, the highest role winning, lookalike domains refused, and lists that change between two
calls taking effect at once."""

from __future__ import annotations

import pytest

from components.common.access_rules import (
    LOCAL_PERSON,
    LOCAL_ROLE,
    AccessLists,
    may_see_everyones_activity,
    may_write,
    refusal_words,
    role_for,
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
