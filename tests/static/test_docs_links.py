"""The README and the guides under docs/: every relative link and image resolves, and the README stays a
front door.

A link is checked as GitHub shows it: its file must exist beside the page that links it (so an image in
``docs/user-guide.md`` is ``overview.png``, not ``docs/overview.png``), and a ``#heading`` must be a
heading of its target, spelt as GitHub's anchors are (lowercase, spaces to hyphens, punctuation
dropped, a repeated heading numbered ``-1``, ``-2``). Links to other sites are not followed. Code blocks
and code spans are not Markdown, so a ``[x](y)`` inside them is not a link.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GUIDES = ("user-guide.md", "team-guide.md", "operations.md", "development.md", "benchmarks.md")
README_MAX_LINES = 250

_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"(`+).+?\1")
_INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:, …


def pages() -> list[Path]:
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


def _prose_lines(text: str) -> list[str]:
    """The lines that are Markdown prose: fenced code blocks blanked out (line numbers kept)."""
    lines, in_fence = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            lines.append("")
        else:
            lines.append("" if in_fence else line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link reads as its text
    text = re.sub(r"<[^>]+>", "", text)  # so does inline HTML
    text = text.replace("`", "").replace("*", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)  # punctuation goes; letters, digits, _ and - stay
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: Counter[str] = Counter()
    found = set()
    for line in _prose_lines(page.read_text(encoding="utf-8")):
        match = _HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        found.add(f"{base}-{seen[base]}" if seen[base] else base)
        seen[base] += 1
    return found


def links(page: Path) -> list[tuple[int, str]]:
    """(line number, target) of every link and image on the page."""
    found = []
    for number, line in enumerate(_prose_lines(page.read_text(encoding="utf-8")), start=1):
        prose = _CODE_SPAN.sub("", line)
        found += [(number, target) for target in _INLINE_LINK.findall(prose)]
        reference = _REFERENCE_LINK.match(prose)
        if reference:
            found.append((number, reference.group(1)))
    return found


def _label(page: Path) -> str:
    return str(page.relative_to(ROOT)) if page.is_relative_to(ROOT) else page.name


def broken_links(page: Path) -> list[str]:
    """Each relative link or image of ``page`` whose file or heading does not exist, in words."""
    problems = []
    for number, target in links(page):
        if _EXTERNAL.match(target) or target.startswith("//"):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        where = f"{_label(page)}:{number}: {target}"
        if not file.exists():
            problems.append(f"{where}: no file {path}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            problems.append(f"{where}: no heading #{anchor} in {file.name}")
    return problems


def test_every_relative_link_and_image_resolves() -> None:
    problems = [problem for page in pages() for problem in broken_links(page)]
    assert not problems, "broken links:\n" + "\n".join(problems)


def test_the_pages_have_links_to_check() -> None:
    # A parser that found nothing would pass the test above: the README's tour alone has 21 links.
    assert len(links(README)) > 25
    assert {page.name for page in pages()} >= {"README.md", *GUIDES}


def test_the_readme_is_a_short_front_door_linking_every_guide() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; at most {README_MAX_LINES}"
    targets = {target.partition("#")[0] for _, target in links(README)}
    missing = [guide for guide in GUIDES if f"docs/{guide}" not in targets]
    assert not missing, f"README.md does not link {missing}"


def test_anchors_are_spelt_as_github_spells_them() -> None:
    assert slug("Badges & snippets") == "badges--snippets"
    assert slug("…or with a systemd timer") == "or-with-a-systemd-timer"
    assert slug("A shared cache (Redis)") == "a-shared-cache-redis"
    assert (
        slug("Deployment: several app processes behind nginx")
        == "deployment-several-app-processes-behind-nginx"
    )
    assert slug("Streamlit's own settings") == "streamlits-own-settings"
    assert slug("The `pre-commit` hook") == "the-pre-commit-hook"


def test_a_broken_link_an_image_or_an_anchor_is_caught(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "shot.png").write_bytes(b"png")
    (tmp_path / "docs" / "guide.md").write_text(
        "# Guide\n\n## Same\n\n## Same\n\n![fine](shot.png) ![wrong folder](docs/shot.png)\n"
        "[fine](#same-1) [no such heading](#same-2) [back](../page.md#top)\n"
        "```\n[not a link](nowhere.md)\n```\n`[nor this](nowhere.md)`\n",
        encoding="utf-8",
    )
    page = tmp_path / "page.md"
    page.write_text(
        "# Top\n\n[fine](docs/guide.md#same) [gone](docs/missing.md) [web](https://example.com/x.md)\n"
        "[heading gone](docs/guide.md#other) [image](docs/shot.png)\n\n[ref]: docs/absent.png\n",
        encoding="utf-8",
    )
    problems = [
        p.split(": ", 1)[1] for p in broken_links(tmp_path / "docs" / "guide.md") + broken_links(page)
    ]
    assert problems == [
        "docs/shot.png: no file docs/shot.png",
        "#same-2: no heading #same-2 in guide.md",
        "docs/missing.md: no file docs/missing.md",
        "docs/guide.md#other: no heading #other in guide.md",
        "docs/absent.png: no file docs/absent.png",
    ]


def _readme_test_command() -> str:
    """Command 2 of the Quick start: the line after the "# 2." comment in its code block."""
    lines = README.read_text().splitlines()
    step = next(number for number, line in enumerate(lines) if line.startswith("# 2. "))
    return lines[step + 1].strip()


def test_ci_runs_exactly_the_readmes_test_command() -> None:
    """What a newcomer runs and what CI runs are one command: a coverage floor or a check added to one
    reaches the other."""
    ci_run = (ROOT / ".ci" / "run").read_text().splitlines()
    last_command = next(line for line in reversed(ci_run) if line.strip() and not line.startswith("#"))
    assert last_command.strip() == _readme_test_command()
    assert "--cov" in last_command  # the floors are enforced where the whole suite runs
