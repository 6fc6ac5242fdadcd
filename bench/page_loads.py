"""How the first-paint benchmark times a page load: inside the page, from the navigation's start to the
first animation frame at which the page's main element (and, asked, its first content) is on screen, so
a figure holds the app's response and not the test driver's round trips. A cold load is a fresh browser
context (empty cache, a new Streamlit session); a returning one a new tab in a context that has loaded
the page once (the front end's files cached)."""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from typing import Any

VIEWPORT = {"width": 1400, "height": 1000}

#: Installed before a page's own scripts: notes in ``window.__p3`` the first animation frame (ms since
#: the navigation started) at which the ready selector is on screen and, when asked, the first at which
#: the title and a card or text after the page's own description are. Checked at most once a frame.
_MARKS_JS = """
(() => {
  const READY = %s, CONTENT = %s;
  const marks = (window.__p3 = {});
  const shown = (el) => { const box = el.getBoundingClientRect(); return box.width > 0 && box.height > 0; };
  const KINDS = ["stMetric", "stAlert", "stHeading", "stMarkdown", "stCode"]
    .map((id) => `[data-stale="false"] [data-testid="${id}"]`).join(",");
  const contentShown = () => {
    const main = document.querySelector('[data-testid="stMain"]');
    const title = main && main.querySelector('[data-stale="false"] h1');
    if (!title || !shown(title)) return false;
    const header = title.closest('[data-testid="stElementContainer"]');
    const next = header && header.nextElementSibling;
    const description = next && next.querySelector('[data-testid="stCaptionContainer"]') ? next : null;
    return [...main.querySelectorAll(KINDS)].some((el) =>
      !el.contains(title) && !(description && description.contains(el)) &&
      (title.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) && shown(el));
  };
  let pending = false;
  const check = () => {
    pending = false;
    const now = performance.now();
    if (marks.ready === undefined && [...document.querySelectorAll(READY)].some(shown)) marks.ready = now;
    if (CONTENT && marks.content === undefined && contentShown()) marks.content = now;
    if (marks.ready !== undefined && (!CONTENT || marks.content !== undefined)) {
      marks.done = true;
      watcher.disconnect();
    }
  };
  const watcher = new MutationObserver(() => {
    if (!pending) { pending = true; requestAnimationFrame(check); }
  });
  watcher.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();
"""


@dataclass(frozen=True)
class Load:
    """One page load: seconds from navigation to the main element, and to the first content."""

    ready: float
    content: float | None


def _context(browser: Any, ready: str, content: bool) -> Any:
    """A new browser context whose pages note when ``ready`` (and, asked, the first content) show."""
    context = browser.new_context(viewport=VIEWPORT)
    # A fresh context's first run: nothing on screen is stale, and layout blocks carry no mark.
    context.add_init_script(script=_MARKS_JS % (json.dumps(ready), json.dumps(content)))
    return context


def _open(context: Any, url: str, content: bool) -> Load:
    page = context.new_page()
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__p3 && window.__p3.done", timeout=60_000, polling=100)
    marks = page.evaluate("() => window.__p3")
    page.close()
    return Load(marks["ready"] / 1000, marks["content"] / 1000 if content else None)


def cold_loads(browser: Any, url: str, ready: str, repeats: int, content: bool = False) -> list[Load]:
    loads = []
    for _ in range(repeats):
        context = _context(browser, ready, content)
        loads.append(_open(context, url, content))
        context.close()
    return loads


def returning_loads(browser: Any, url: str, ready: str, repeats: int) -> list[Load]:
    """New tabs (new sessions) in a browser that has loaded the page once: front-end files cached."""
    context = _context(browser, ready, False)
    _open(context, url, False)
    loads = [_open(context, url, False) for _ in range(repeats)]
    context.close()
    return loads


def median(loads: list[Load], which: str = "ready") -> float:
    return statistics.median(getattr(load, which) for load in loads)
