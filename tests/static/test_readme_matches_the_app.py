"""The README's first screen says what the app and CI really have: its tour names the sidebar's groups and
pages as the page registry defines them, and its set-up names every Debian package ``.ci/run`` installs.

Both drifted once (the tour kept groups the sidebar never had; the set-up forgot Pango, which reports
need), so each is read from its source here rather than copied.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from components.core.nav.pages import SECTIONS

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
CI_RUN = ROOT / ".ci" / "run"

_GROUP = re.compile(r"^\*\*(.+?)\*\*\s*$")
_PAGE = re.compile(r"^- \[(.+?)\]\(")
_APT_INSTALL = re.compile(r"apt-get install ([^`\n>;&|)]+)")


def section(text: str, heading: str) -> str:
    """The text under ``## heading`` up to the next ``## `` heading."""
    lines = text.splitlines()
    start = lines.index(f"## {heading}") + 1
    end = next((n for n in range(start, len(lines)) if lines[n].startswith("## ")), len(lines))
    return "\n".join(lines[start:end])


def tour(text: str) -> dict[str, list[str]]:
    """The README's tour as group → page titles, in the order it lists them."""
    groups: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in section(text, "A one-minute tour").splitlines():
        if group := _GROUP.match(line):
            current = groups.setdefault(group.group(1), [])
        elif (page := _PAGE.match(line)) and current is not None:
            current.append(page.group(1))
    return groups


def sidebar() -> dict[str, list[str]]:
    """The sidebar's groups and page titles, in order, from the page registry."""
    return {name: [page.title for page in pages] for name, pages in SECTIONS.items()}


def apt_packages(text: str) -> set[str]:
    """Every package an ``apt-get install`` in ``text`` names (options and redirections left out)."""
    found: set[str] = set()
    for arguments in _APT_INSTALL.findall(text):
        found |= {word for word in shlex.split(arguments) if not word.startswith("-")}
    return found


def tour_problems(text: str) -> list[str]:
    """What the README's tour says that the sidebar does not, or leaves out, in words."""
    said, real = tour(text), sidebar()
    problems = [f"group {g!r} is not in the sidebar" for g in said if g not in real]
    problems += [f"the sidebar's group {g!r} is missing" for g in real if g not in said]
    for group in said.keys() & real.keys():
        problems += [f"{group}: page {p!r} is not in this group" for p in said[group] if p not in real[group]]
        problems += [f"{group}: page {p!r} is missing" for p in real[group] if p not in said[group]]
    if not problems and said != real:
        problems.append(f"the order differs from the sidebar's: {real}")
    return problems


def test_the_tour_names_the_sidebars_groups_and_pages() -> None:
    problems = tour_problems(README.read_text(encoding="utf-8"))
    assert not problems, "README.md's tour:\n" + "\n".join(problems)


def test_a_tour_that_drifts_from_the_sidebar_is_caught() -> None:
    real = sidebar()
    first, second = list(real)[:2]
    good = "## A one-minute tour\n\n" + "\n\n".join(
        f"**{group}**\n" + "".join(f"- [{title}](docs/x.md): …\n" for title in titles)
        for group, titles in real.items()
    )
    assert tour(good) == real and not tour_problems(good)
    renamed = good.replace(f"**{first}**", "**Made up**")
    assert "group 'Made up' is not in the sidebar" in tour_problems(renamed)
    assert f"the sidebar's group {first!r} is missing" in tour_problems(renamed)
    dropped = good.replace(f"- [{real[second][0]}](docs/x.md): …\n", "")
    assert tour_problems(dropped) == [f"{second}: page {real[second][0]!r} is missing"]
    swapped = good.replace(f"- [{real[first][0]}](", "- [Nowhere](")
    assert f"{first}: page 'Nowhere' is not in this group" in tour_problems(swapped)


def test_the_set_up_names_every_debian_package_ci_installs() -> None:
    """``.ci/run`` installs what the suite needs on a fresh machine; the README's set-up must name each,
    so a newcomer's machine and CI's cannot drift apart again."""
    ci = apt_packages(CI_RUN.read_text(encoding="utf-8"))
    readme = apt_packages(section(README.read_text(encoding="utf-8"), "Quick start"))
    assert {"chromium", "postgresql", "libpango-1.0-0"} <= ci  # the parser found .ci/run's installs
    assert not ci - readme, f"README.md's Quick start does not install {sorted(ci - readme)}"
    assert not readme - ci, f"README.md's Quick start installs {sorted(readme - ci)}, which CI never does"


def test_package_names_are_read_from_install_commands() -> None:
    text = (
        "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server nginx-light >/dev/null\n"
        "`apt-get install -y chromium libpango-1.0-0`; then `apt-get update`\n"
    )
    assert apt_packages(text) == {"redis-server", "nginx-light", "chromium", "libpango-1.0-0"}
