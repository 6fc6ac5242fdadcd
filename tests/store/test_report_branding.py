"""A report's logo is judged by its bytes, never by its name.

The logo: a PNG or JPEG by its magic number, an SVG only when it parses as an ``<svg>`` drawing that runs
nothing and loads nothing from outside the file, at most 1 MiB; whatever the file is called. One that
cannot be used is refused in words, in the report command and on the Reports page (see
``tests/apptest/test_reports_page.py``), and the report is made without it.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from sandbox import DEMO_KEY
from services.jobs import report as report_command
from services.reports.branding import LogoProblem, branding_from, usable_branding
from services.reports.logo import MAX_LOGO_BYTES, PNG_MAGIC
from store import HistoryStore

ACCOUNT = key_fingerprint(DEMO_KEY)
TODAY = date(2026, 11, 26)
SITE = "acme-widgets.com"
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
    'width="40" height="20">'
)
PNG = PNG_MAGIC + b"\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00" + b"\x00" * 40
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + b"\x00" * 40
#: Files that must not become a report's logo, whatever they are called: name, bytes, why (in words).
REFUSED: tuple[tuple[str, bytes, str], ...] = (
    ("logo.png", b"<html><body>not a picture</body></html>", "not a PNG, JPEG or SVG image"),
    ("logo.jpg", b"GIF89a\x01\x00\x01\x00", "not a PNG, JPEG or SVG image"),
    ("logo.png", b"", "empty"),
    ("logo.svg", f"{SVG}<script>alert(1)</script></svg>".encode(), "<script>"),
    ("logo.svg", f'{SVG}<rect width="4" height="4" onclick="alert(1)"/></svg>'.encode(), "event handlers"),
    ("logo.svg", f'{SVG}<image xlink:href="https://tracker.example/p.png"/></svg>'.encode(), "link to"),
    ("logo.svg", f'{SVG}<a href="javascript:alert(1)"><rect/></a></svg>'.encode(), "link to"),
    ("logo.svg", f"{SVG}<foreignObject><p>hi</p></foreignObject></svg>".encode(), "<foreignobject>"),
    (
        "logo.svg",
        f"{SVG}<style>@import url(https://x.example/a.css);</style></svg>".encode(),
        "load anything",
    ),
    ("logo.svg", f'{SVG}<rect fill="url(https://x.example/f)"/></svg>'.encode(), "load anything"),
    (
        "logo.svg",
        b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg"/>',
        "DOCTYPE",
    ),
    ("logo.svg", b'<?xml-stylesheet href="https://x.example/a.css"?><svg/>', "processing instructions"),
    ("logo.svg", b"<html><body/></html>", "not <svg>"),
    ("logo.svg", SVG.encode() + b"<rect/>", "does not parse"),
    ("logo.png", PNG_MAGIC + b"\x00" * MAX_LOGO_BYTES, "larger than 1 MiB"),
)


def _logo(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(("name", "data", "why"), REFUSED, ids=[f"{n}-{w}" for n, _d, w in REFUSED])
def test_a_logo_that_is_not_a_safe_picture_is_refused_in_words(
    tmp_path: Path, name: str, data: bytes, why: str
) -> None:
    path = _logo(tmp_path, name, data)
    with pytest.raises(LogoProblem) as refused:
        branding_from({"brand": "Acme Digital", "logo": str(path), "accent": "#aa3366"})
    words = str(refused.value)
    assert why in words and name in words and "made without it" in words
    kept = refused.value.without_logo  # every other setting still holds
    assert (kept.brand, kept.accent, kept.logo) == ("Acme Digital", "#aa3366", None)


@pytest.mark.parametrize(
    ("name", "data", "kind"),
    [
        ("logo.png", PNG, "image/png"),
        ("logo.jpeg", JPEG, "image/jpeg"),
        (
            "logo.svg",
            f'{SVG}<defs><linearGradient id="g"/></defs><rect fill="url(#g)"/></svg>'.encode(),
            "svg",
        ),
        ("brand.svg", PNG, "image/png"),  # the bytes say what it is, not the name
        ("logo", JPEG, "image/jpeg"),
    ],
)
def test_a_png_jpeg_or_plain_svg_logo_is_embedded_as_what_its_bytes_are(
    tmp_path: Path, name: str, data: bytes, kind: str
) -> None:
    branding = branding_from({"logo": str(_logo(tmp_path, name, data))})
    media = "image/svg+xml" if kind == "svg" else kind
    assert branding.logo == f"data:{media};base64,{base64.b64encode(data).decode()}"


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HistoryStore]:
    url = f"sqlite:///{tmp_path_factory.mktemp('report-logo') / 'history.sqlite3'}"
    with HistoryStore.open(url) as store:
        seed_demo_history(store, ACCOUNT, DEMO_KEY, TODAY)
        yield store


def test_the_report_command_says_a_refused_logo_and_makes_the_report_without_it(
    demo_store: HistoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _logo(tmp_path, "logo.svg", f'{SVG}<rect onload="alert(1)"/></svg>'.encode())
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "secrets.toml").write_text(
        '[report]\nbrand = "Acme Digital"\nlogo = "logo.svg"\n'
    )
    monkeypatch.chdir(tmp_path)  # the secrets file beside the command, as in a deployment
    assert usable_branding()[1] is not None
    said: list[str] = []
    told: list[str] = []
    output = tmp_path / "report.html"
    code = report_command.run(
        demo_store, ACCOUNT, site=SITE, month="2026-10", output=output, say=said.append, tell=told.append
    )
    assert code == 0, said
    assert told == [str(output)]
    refusal = [line for line in said if "logo" in line]
    assert refusal == [
        "[report] logo 'logo.svg' was not used: an SVG logo may not carry event handlers "
        "(they run code); the report is made without it."
    ]
    html = output.read_text()
    assert "Acme Digital" in html and "data:image" not in html and "onload" not in html
