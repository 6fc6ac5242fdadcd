"""White-label settings: ``[report]`` in the secrets files (``brand``, ``logo``, ``accent``, ``footer``).

With a brand set, the report names that brand and never this app; without one, it is signed
"Authority Dashboard". The logo is a local image file (PNG, JPEG or SVG, judged by its bytes in
``services.reports.logo``), embedded in the report so the HTML stands alone. A colour that is not
``#rgb``/``#rrggbb`` is a plain error; a logo that cannot be used is refused in words, and the report is
built without it (``usable_branding``).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from services.reports.logo import MAX_LOGO_BYTES, LogoRefused, logo_kind
from store.config import SECRETS_FILES, secrets_tables

APP_NAME = "Authority Dashboard"
DEFAULT_ACCENT = "#5b8def"
_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")


class BrandingError(ValueError):
    """A ``[report]`` setting that cannot be used; the message names it."""


class LogoProblem(BrandingError):
    """The ``[report]`` logo cannot be used; ``without_logo`` is every other setting, usable as it is."""

    def __init__(self, message: str, without_logo: Branding) -> None:
        super().__init__(message)
        self.without_logo = without_logo


@dataclass(frozen=True)
class Branding:
    #: Who the report is from ("Acme Digital"); None: this app's own name.
    brand: str | None = None
    #: The logo as a ``data:`` URL (None: no logo).
    logo: str | None = None
    accent: str = DEFAULT_ACCENT
    footer: str | None = None

    @property
    def signed_by(self) -> str:
        return self.brand or APP_NAME


def _text(section: Mapping[str, Any], key: str) -> str | None:
    value = section.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise BrandingError(f"[report] {key} is text, not {type(value).__name__}")
    return " ".join(value.split()) or None


def _logo(path_text: str, base: Path) -> str:
    """The logo file as a ``data:`` URL; LogoRefused saying why it cannot be used."""
    path = Path(path_text).expanduser()
    path = path if path.is_absolute() else base / path
    try:
        with path.open("rb") as file:
            data = file.read(MAX_LOGO_BYTES + 1)  # never more than one byte past the limit
    except OSError:
        raise LogoRefused("the file cannot be read") from None
    kind = logo_kind(data)
    return f"data:{kind};base64,{base64.b64encode(data).decode()}"


def branding_from(section: Mapping[str, Any], base: Path | None = None) -> Branding:
    """The branding a ``[report]`` table says; BrandingError naming the setting that cannot be used
    (LogoProblem, carrying the branding without the logo, when only the logo cannot)."""
    accent = _text(section, "accent") or DEFAULT_ACCENT
    if not _COLOUR.fullmatch(accent):
        raise BrandingError(f"[report] accent is a colour written #rrggbb, not {accent!r}")
    branding = Branding(brand=_text(section, "brand"), accent=accent, footer=_text(section, "footer"))
    logo = _text(section, "logo")
    if not logo:
        return branding
    try:
        return replace(branding, logo=_logo(logo, base or Path.cwd()))
    except LogoRefused as exc:
        words = f"[report] logo {Path(logo).name!r} was not used: {exc}; the report is made without it"
        raise LogoProblem(words, branding) from None


def report_section(files: tuple[Path, ...] = SECRETS_FILES) -> dict[str, Any]:
    """``[report]`` merged over the secrets files, later files winning key by key."""
    merged: dict[str, Any] = {}
    for data in secrets_tables(files):
        section = data.get("report")
        if isinstance(section, dict):
            merged.update(section)
    return merged


def load_branding(files: tuple[Path, ...] = SECRETS_FILES) -> Branding:
    """The branding in force (the secrets files'); BrandingError when a setting cannot be used."""
    return branding_from(report_section(files))


def usable_branding(files: tuple[Path, ...] = SECRETS_FILES) -> tuple[Branding, str | None]:
    """The branding in force, and why its logo was left out (None: nothing was). BrandingError when
    another setting cannot be used; a logo that cannot be used never stops a report."""
    try:
        return load_branding(files), None
    except LogoProblem as exc:
        return exc.without_logo, str(exc)
