"""The one way the services build a Jinja2 environment for their HTML (the report, the digest).

Every value is escaped (``select_autoescape``, on for every template name, ``.j2`` included), so no
text that came from the service or the history can become markup; only what a template marks as
``Markup`` itself (the report's charts) goes in as is. Block tags keep no stray line breaks
(``trim_blocks``, ``lstrip_blocks``).
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape


def html_templates(folder: Path, *, keep_trailing_newline: bool = False) -> Environment:
    """The templates in ``folder``, autoescaped; ``keep_trailing_newline`` keeps a template's last line
    break in what it renders."""
    return Environment(
        loader=FileSystemLoader(folder),
        autoescape=select_autoescape(["html", "j2"], default=True),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=keep_trailing_newline,
    )
