"""Share links in real Chromium, against the app with sign-in on (a real OpenID Connect provider on
127.0.0.1, tests/browser/oidc.py) and demo history for the demo key's sites.

- a valid link opens its report (the site and the period, the report document itself) without signing
  in, and nothing else of the app: no sidebar, no navigation, no sign-in page;
- an expired, a revoked and an altered link say so in one sentence and show no report, and the browser
  tab is signed by the team's ``[report] brand``, never by this app;
- the app itself still asks to sign in: at its start page in a fresh browser, and within the very session
  the link opened, on a move to another page;
- the opening is in the audit log, by "someone with the link";
- on a computer set to dark mode, the report reads as on paper: its own dark text on its own white.

Each visitor is a browser context of their own (no cookies), loopback only. One app for the module.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from client.settings import key_fingerprint
from components.core.history.store import seed_demo_history
from rigs.processes import app_process
from sandbox import DEMO_KEY, SandboxServer
from store import HistoryStore
from store.reports.links import ANYONE, EXPIRED, NOT_VALID, REVOKED
from store.reports.period import parse_month
from tests.browser.contrast import READ_FIRST, drawn_in_frame, page_background
from tests.browser.oidc import SignInSecrets, Someone, loopback_only, mock_provider, write_secrets
from tests.browser.tabs import COUNT_SERVER_MESSAGES, SIDEBAR, TIMEOUT_MS, BrowserProfile, go_to, settled

pytestmark = pytest.mark.browser

ACCOUNT = key_fingerprint(DEMO_KEY)
SITE = "example.com"
#: The demo history ends on the sandbox's pinned day (2025-01-06): its last whole month.
PERIOD = parse_month("2024-12")
TODAY = date(2025, 1, 6)
VIEWER = Someone("vic@team.example", "Vic Viewer")
NAVIGATION = '[data-testid="stSidebarNav"]'
#: The white label the module's app is given (``[report] brand`` in the secrets of its home folder).
BRAND = "Acme Digital"


@dataclass(frozen=True)
class SharedApp:
    url: str
    database: str
    browser: BrowserProfile

    def store(self) -> HistoryStore:
        return HistoryStore.open(self.database)


@pytest.fixture(scope="module")
def shared_app(
    sandbox: SandboxServer, browser: BrowserProfile, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SharedApp]:
    folder = tmp_path_factory.mktemp("share-links")
    database = f"sqlite:///{folder / 'history.sqlite3'}"
    with HistoryStore.open(database) as store:
        seed_demo_history(store, ACCOUNT, DEMO_KEY, TODAY)
    home = folder / "home"
    (home / ".streamlit").mkdir(parents=True)
    (home / ".streamlit" / "secrets.toml").write_text(f'[report]\nbrand = "{BRAND}"\n', encoding="utf-8")
    with mock_provider([VIEWER]) as provider:
        secrets_file = write_secrets(
            folder / "secrets.toml", provider, SignInSecrets.fresh(), {"viewers": ["@team.example"]}
        )
        with app_process(
            api_base=sandbox.base_url,
            api_key=DEMO_KEY,
            extra=["--secrets.files", str(secrets_file)],
            log_path=folder / "streamlit.log",
            database_url=database,
            env={"HOME": str(home)},
        ) as app:
            yield SharedApp(app.url, database, browser)


@pytest.fixture
def visitor(shared_app: SharedApp) -> Iterator[Page]:
    """Someone who was never signed in: a browser context of their own, loopback only."""
    context = shared_app.browser.new_context(viewport={"width": 1280, "height": 1000})
    loopback_only(context)
    context.add_init_script(COUNT_SERVER_MESSAGES)
    try:
        yield context.new_page()
    finally:
        context.close()


def _link(app: SharedApp, *, days: int = 30, now: datetime | None = None, revoked: bool = False) -> str:
    with app.store() as store:
        link, token = store.report_links.create_report_link(
            ACCOUNT, SITE, PERIOD, "ann@team.example", days=days, now=now
        )
        if revoked:
            store.report_links.revoke_report_link(ACCOUNT, link.id, "ann@team.example")
    return token


def _open(page: Page, app: SharedApp, token: str, path: str = "") -> None:
    page.goto(f"{app.url}/{path}?report={token}", wait_until="domcontentloaded")
    page.locator("h1").first.wait_for(timeout=TIMEOUT_MS)
    settled(page)


def _nothing_of_the_app(page: Page) -> None:
    assert page.locator(SIDEBAR).count() == 0
    assert page.locator(NAVIGATION).count() == 0
    assert page.get_by_role("button", name="Sign in").count() == 0


def test_a_valid_link_opens_its_report_alone_without_signing_in(shared_app: SharedApp, visitor: Page) -> None:
    token = _link(shared_app)
    _open(visitor, shared_app, token, path="history")  # any page's address: the report alone
    expect(visitor.get_by_role("heading", name=f"{SITE}: December 2024")).to_be_visible(timeout=TIMEOUT_MS)
    report = visitor.frame_locator("iframe").first
    expect(report.locator("body")).to_contain_text(SITE, timeout=TIMEOUT_MS)
    expect(report.locator("body")).to_contain_text("December 2024", timeout=TIMEOUT_MS)
    _nothing_of_the_app(visitor)
    with shared_app.store() as store:
        opened = store.audit.events(ACCOUNT, operation="open_share_link")
    assert opened["person"].tolist() == [ANYONE]
    assert opened["target"].tolist() == [f"{SITE}, December 2024"]

    # Within the same session, any other page of the app still asks to sign in.
    go_to(visitor, f"{shared_app.url}/history")
    expect(visitor.get_by_role("button", name="Sign in")).to_be_visible(timeout=TIMEOUT_MS)
    assert visitor.locator("iframe").count() == 0


def test_a_link_opened_on_a_computer_in_dark_mode_shows_the_report_readable(shared_app: SharedApp) -> None:
    context = shared_app.browser.new_context(viewport={"width": 1280, "height": 1000}, color_scheme="dark")
    loopback_only(context)
    context.add_init_script(COUNT_SERVER_MESSAGES)
    try:
        page = context.new_page()
        _open(page, shared_app, _link(shared_app))
        report = page.frame_locator("iframe").first
        expect(report.locator("h1").first).to_have_text(SITE, timeout=TIMEOUT_MS)
        assert page_background(page) < 0.1  # the app follows the computer: its own background is dark
        for selector, least in READ_FIRST.items():
            drawn = drawn_in_frame(page, report, "iframe", selector)
            assert drawn.contrast >= least, drawn
    finally:
        context.close()


@pytest.mark.parametrize(
    ("kind", "reason"),
    [("expired", EXPIRED), ("revoked", REVOKED), ("altered", NOT_VALID)],
)
def test_a_link_that_cannot_open_says_why_and_shows_no_report(
    shared_app: SharedApp, visitor: Page, kind: str, reason: str
) -> None:
    if kind == "expired":
        token = _link(shared_app, days=2, now=datetime.now(UTC) - timedelta(days=3))
    elif kind == "revoked":
        token = _link(shared_app, revoked=True)
    else:
        valid = _link(shared_app)
        head, claims, signature = valid.split(".")
        token = f"{head}.{claims}.{signature[::-1]}"
    _open(visitor, shared_app, token)
    expect(visitor.get_by_text(reason, exact=True)).to_be_visible(timeout=TIMEOUT_MS)
    expect(visitor).to_have_title(f"Shared report — {BRAND}", timeout=TIMEOUT_MS)
    assert visitor.locator("iframe").count() == 0
    assert SITE not in visitor.locator("body").inner_text()
    _nothing_of_the_app(visitor)


def test_with_sign_in_on_the_app_itself_still_asks_to_sign_in(shared_app: SharedApp, visitor: Page) -> None:
    visitor.goto(f"{shared_app.url}/", wait_until="domcontentloaded")
    expect(visitor.get_by_role("button", name="Sign in")).to_be_visible(timeout=TIMEOUT_MS)
    assert SITE not in visitor.locator("body").inner_text()
