"""Whether the report's text can be read where a browser draws it: the contrast between an element's
computed text colour and the background it is drawn on.

The background is the first opaque one from the element up through its document; a report shown in the
app sits in an iframe, and where its document paints no background of its own the page around the
iframe shows through, so the search goes on from the iframe element in the page. Contrast is WCAG's
ratio of relative luminances (4.5 is its floor for body text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import FrameLocator, Page

#: WCAG 2's least contrast for ordinary text, and for large text (a heading of 14 pt bold or more, such
#: as a section's title in the brand's colour).
READABLE = 4.5
READABLE_LARGE = 3.0
#: The report's parts a reader reads first, and the contrast each needs: the site's name, the month, the
#: summary's words, a table's cell, a section's title.
READ_FIRST = {
    "h1": READABLE,
    ".cover .period": READABLE,
    "p.words": READABLE,
    "td": READABLE,
    "h2": READABLE_LARGE,
}
#: The computed colours of an element, and the first opaque background from it up (None: none there).
_STYLES = """element => {
  const opaque = node => {
    for (let at = node; at; at = at.parentElement) {
      const colour = getComputedStyle(at).backgroundColor;
      const alpha = colour.match(/rgba\\(.*,\\s*([\\d.]+)\\)/);
      if (colour !== 'transparent' && !(alpha && Number(alpha[1]) === 0)) return colour;
    }
    return null;
  };
  return {colour: getComputedStyle(element).color, background: opaque(element)};
}"""
#: The first opaque background from the element up in the page (the iframe's surroundings).
_AROUND = "element => (" + _STYLES + ")(element).background"


@dataclass(frozen=True)
class Drawn:
    """One element's text colour and the background it is drawn on, and their contrast."""

    text: str
    colour: str
    background: str

    @property
    def contrast(self) -> float:
        lighter, darker = sorted((_luminance(self.colour), _luminance(self.background)), reverse=True)
        return (lighter + 0.05) / (darker + 0.05)


def _channels(colour: str) -> tuple[float, float, float]:
    found = re.findall(r"[\d.]+", colour)
    if len(found) < 3:
        raise ValueError(f"not a computed colour: {colour!r}")
    red, green, blue = (float(value) for value in found[:3])
    return red, green, blue


def _luminance(colour: str) -> float:
    def linear(channel: float) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in _channels(colour))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def drawn_in_frame(page: Page, frame: FrameLocator, iframe: str, selector: str) -> Drawn:
    """How the first ``selector`` in the report's ``frame`` (the iframe ``iframe`` of ``page``) is drawn."""
    element = frame.locator(selector).first
    styles = element.evaluate(_STYLES)
    background = styles["background"] or page.locator(iframe).first.evaluate(_AROUND)
    assert background is not None, f"nothing under {selector} paints a background"
    return Drawn(element.inner_text().strip()[:60], styles["colour"], background)


def page_background(page: Page, selector: str = '[data-testid="stApp"]') -> float:
    """The relative luminance of the app's own background (near 0: a dark theme)."""
    return _luminance(page.locator(selector).first.evaluate(_AROUND) or "rgb(255, 255, 255)")
