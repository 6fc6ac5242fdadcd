"""White-label settings: ``[report]`` in the secrets files (``brand``, ``logo``, ``accent``, ``footer``).

With a brand set, the report names that brand and never this app; without one, it is signed
"Authority Dashboard". The logo is a local image file (PNG, JPEG or SVG), embedded in the report so the
HTML stands alone; an unreadable logo or a colour that is not ``#rgb``/``#rrggbb`` is a plain error.
"""

from __future__ import annotations

import base64
import mimetypes
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from store.config import SECRETS_FILES, secrets_tables

APP_NAME = "Authority Dashboard"
DEFAULT_ACCENT = "#5b8def"
LOGO_TYPES = {"image/png", "image/jpeg", "image/svg+xml"}
MAX_LOGO_BYTES = 2_000_000
_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")


class BrandingError(ValueError):
    """A ``[report]`` setting that cannot be used; the message names it."""


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
    path = Path(path_text).expanduser()
    path = path if path.is_absolute() else base / path
    kind = mimetypes.guess_type(path.name)[0]
    if kind not in LOGO_TYPES:
        raise BrandingError(f"[report] logo must be a PNG, JPEG or SVG file, not {path.name!r}")
    try:
        data = path.read_bytes()
    except OSError:
        raise BrandingError(f"[report] logo: the file {path.name!r} cannot be read") from None
    if len(data) > MAX_LOGO_BYTES:
        raise BrandingError(f"[report] logo: {path.name!r} is over 2 MB")
    return f"data:{kind};base64,{base64.b64encode(data).decode()}"


def branding_from(section: Mapping[str, Any], base: Path | None = None) -> Branding:
    """The branding a ``[report]`` table says; BrandingError naming the setting that cannot be used."""
    accent = _text(section, "accent") or DEFAULT_ACCENT
    if not _COLOUR.fullmatch(accent):
        raise BrandingError(f"[report] accent is a colour written #rrggbb, not {accent!r}")
    logo = _text(section, "logo")
    return Branding(
        brand=_text(section, "brand"),
        logo=_logo(logo, base or Path.cwd()) if logo else None,
        accent=accent,
        footer=_text(section, "footer"),
    )


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
