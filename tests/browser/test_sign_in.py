"""Sign-in and roles in a real browser, against a real OpenID Connect provider on 127.0.0.1.

The app runs with a secrets file whose ``[auth]`` points at ``oidc-provider-mock`` (tests/browser/oidc.py)
and whose ``[access]`` lists an admin, two editors and a whole domain of viewers. Each person signs in
through the provider's own authorization page, in a browser context of their own:

- nobody signed in: every address, a deep link too, shows the sign-in page only (no sidebar, no data);
- someone on no list: a page saying so and whom to ask, nothing else; sign-out leads back to sign-in;
- someone whose address is on ``admins`` but not verified by the provider (``email_verified: false``),
  and someone whose provider says nothing about it: "No access yet" with the reason, nothing else;
- a viewer: reads, sees "Track keyword" disabled with the editors-only reason, no own-key field; a
  click on the disabled button forced through the page's script sends nothing; sign-out;
- an editor: adds a tracked keyword, sent exactly once, and finds it as their own row on Activity;
- an editor taken off the editors list while their page is open: their next click is refused (never
  sent) and audited as refused by role;
- an admin: Activity lists everyone's rows.

Finally no secret (API key, cookie secret, OIDC client secret) is in any page, message, URL, the log,
a CSV, the audit log or the history database file. One app and one browser for the module.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pytest
from playwright.sync_api import BrowserContext, Page, expect

from client.inputs import slug_for
from client.settings import key_fingerprint
from rigs.processes import app_process
from sandbox import DEMO_KEY, SandboxServer
from sandbox.accounts import ACCOUNTS
from store import HistoryStore
from tests.browser.oidc import (
    MockProvider,
    SignInSecrets,
    Someone,
    loopback_only,
    mock_provider,
    sign_in,
    write_secrets,
)
from tests.browser.tabs import (
    LAPTOP_WIDTHS,
    SIDEBAR,
    TIMEOUT_MS,
    BrowserProfile,
    assert_tables_fit,
    drawn_tables,
    go_to,
    read_text,
    screenshot,
    settled,
)
from tests.browser.test_secret_hygiene import secret_sightings

pytestmark = pytest.mark.browser

ADMIN = Someone("ada@team.example", "Ada Admin")
EDITOR = Someone("eddie@team.example", "Eddie Editor")
LEAVER = Someone("lee@team.example", "Lee Leaving")
VIEWER = Someone("vera@team.example", "Vera Viewer")
OUTSIDER = Someone("olaf@elsewhere.example", "Olaf Outside")
#: On the admins list, but the provider says the address was never verified.
UNVERIFIED = Someone("una@team.example", "Una Unverified", verified=False)
#: Not given to the provider up front: typed on its page, it signs in with an ``email`` claim only.
UNMARKED = Someone("nia@team.example", "Nia Unmarked", verified=None)
CONTACT = "it-help@team.example"
LISTS = {
    "admins": [ADMIN.email, UNVERIFIED.email],
    "editors": [EDITOR.email, LEAVER.email],
    "viewers": ["@team.example"],
}
#: The same lists once Lee has been taken off the editors (the team domain still makes Lee a viewer).
LISTS_WITHOUT_LEE = {**LISTS, "editors": [EDITOR.email]}

SITE = ACCOUNTS[DEMO_KEY].sites[0]
KEYWORDS_PATH = f"/api/v1/sites/{slug_for(SITE)}/keywords"
TRACKED_PAGE = "tracked-keywords"
TRACKED = f"{TRACKED_PAGE}?domain={SITE}"
EDITOR_KEYWORD = "sign in audit keyword"
LEAVER_KEYWORD = "too late keyword"
#: The guides' screenshots are taken at this width (a common laptop), in the light theme.
SCREENSHOT_WIDTH = max(LAPTOP_WIDTHS)
STATUS = '[data-testid="stStatusWidget"]'
#: A link that would open a mail program: e-mail addresses are shown as plain text instead.
MAILTO = 'a[href^="mailto:"]'
#: Calls a button's own click handler, past its ``disabled`` attribute: what a forged click can do.
FORCED_CLICK = """button => {
  const props = Object.entries(button).find(([k]) => k.startsWith('__reactProps'))?.[1];
  button.removeAttribute('disabled');
  if (props && props.onClick) { props.onClick({preventDefault() {}, stopPropagation() {}}); }
  else { button.click(); }
}"""


@dataclass
class SignedInApp:
    """The app with sign-in on, and everything a secret must never show up in."""

    url: str
    log: Path
    secrets_file: Path
    database: Path
    provider: MockProvider
    keys: SignInSecrets
    browser: BrowserProfile
    frames: list[bytes] = field(default_factory=list)
    html: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    csvs: list[str] = field(default_factory=list)

    def context(self) -> BrowserContext:
        """A browser context of its own (one person's cookies), loopback only, watched for secrets."""
        context = self.browser.new_context(
            viewport={"width": SCREENSHOT_WIDTH, "height": 1100}, color_scheme="light", accept_downloads=True
        )
        loopback_only(context)
        context.on("page", self._watch)
        return context

    def _watch(self, page: Page) -> None:
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        page.on("framenavigated", lambda frame: self.urls.append(frame.url))

    def _frame(self, payload: str | bytes) -> None:
        self.frames.append(payload.encode() if isinstance(payload, str) else payload)

    def keep(self, page: Page) -> None:
        self.html.append(page.content())

    def set_lists(self, lists: dict[str, list[str]]) -> None:
        write_secrets(self.secrets_file, self.provider, self.keys, lists, contact=CONTACT)

    def audit(self) -> pd.DataFrame:
        store = HistoryStore.open(f"sqlite:///{self.database}")
        try:
            return store.audit.events(key_fingerprint(DEMO_KEY))
        finally:
            store.close()


@pytest.fixture(scope="module")
def signed_app(
    sandbox: SandboxServer, browser: BrowserProfile, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SignedInApp]:
    folder = tmp_path_factory.mktemp("signin")
    keys = SignInSecrets.fresh()
    with mock_provider([ADMIN, EDITOR, LEAVER, VIEWER, OUTSIDER, UNVERIFIED]) as provider:
        secrets_file = write_secrets(folder / "secrets.toml", provider, keys, LISTS, contact=CONTACT)
        database = folder / "history.sqlite3"
        with app_process(
            api_base=sandbox.base_url,
            api_key=DEMO_KEY,
            extra=["--secrets.files", str(secrets_file)],
            log_path=folder / "streamlit.log",
            database_url=f"sqlite:///{database}",
        ) as app:
            yield SignedInApp(
                app.url, folder / "streamlit.log", secrets_file, database, provider, keys, browser
            )


def _sidebar_text(page: Page) -> str:
    """The sidebar's text once its connection settings are drawn to the end (the quota line), and the
    signed-in block above them to its end (the Sign out button)."""
    page.locator(SIDEBAR).get_by_text("Quota left").wait_for(timeout=TIMEOUT_MS)
    page.locator(SIDEBAR).get_by_role("button", name="Sign out").wait_for(timeout=TIMEOUT_MS)
    return read_text(page, SIDEBAR)


def _own_key_fields(page: Page) -> int:
    """How many own-key fields the sidebar offers, once its widgets are drawn (they may show a moment
    after its text on a session's first run)."""
    fresh = page.locator(f'{SIDEBAR} [data-stale="false"]')
    expect(fresh.get_by_role("radiogroup")).to_be_visible(timeout=TIMEOUT_MS)
    settled(page)
    return fresh.get_by_label("API key for this session", exact=True).count()


def _posts(sandbox: SandboxServer) -> int:
    return sum(
        1 for method, path, _, _ in sandbox.state.request_log if method == "POST" and path == KEYWORDS_PATH
    )


def _sign_out(page: Page, app: SignedInApp) -> None:
    """Sign out in the app, confirm at the provider's end-of-session page, land on sign-in again."""
    page.get_by_role("button", name="Sign out").click()
    page.get_by_role("button", name="End session").click(timeout=TIMEOUT_MS)
    page.wait_for_url(f"{app.url}/**", timeout=TIMEOUT_MS)
    expect(page.get_by_role("button", name="Sign in")).to_be_visible(timeout=TIMEOUT_MS)


def _track(page: Page, keyword: str) -> None:
    page.get_by_label("Keyword to track").fill(keyword)
    page.get_by_role("button", name="Track keyword").click()


def _activity_csv(page: Page, app: SignedInApp) -> pd.DataFrame:
    """The Activity page's rows, as its "Download CSV" hands them to a person."""
    go_to(page, f"{app.url}/activity")
    button = page.get_by_role("button", name="Download CSV").first
    button.wait_for(timeout=TIMEOUT_MS)
    with page.expect_download(timeout=TIMEOUT_MS) as download:
        button.click()
    text = Path(download.value.path()).read_text()
    app.csvs.append(text)
    app.keep(page)
    return pd.read_csv(io.StringIO(text))


def _until_the_app_reads_the_new_lists(context: BrowserContext, app: SignedInApp) -> None:
    """The app reloads its secrets file when it changes (polled a few times a second): wait, in another
    tab of Lee's, until a fresh page already names Lee a viewer. Lee's first tab stays as it was."""
    probe = context.new_page()
    try:
        for _ in range(20):
            go_to(probe, app.url)
            if "Viewer:" in _sidebar_text(probe):
                return
            probe.wait_for_timeout(250)
        raise AssertionError("the app never read the changed access lists")
    finally:
        probe.close()


@dataclass(frozen=True)
class Writes:
    """What the editor's add and the former editor's refused click left behind."""

    editor_posts: int
    editor_rows: pd.DataFrame
    leaver_posts: int
    leaver_sidebar: str
    leaver_page: str


@pytest.fixture(scope="module")
def writes(signed_app: SignedInApp, sandbox: SandboxServer) -> Writes:
    """An editor adds a keyword; an editor taken off the list meanwhile clicks "Track keyword"."""
    app = signed_app
    editor = app.context()
    leaver = app.context()
    try:
        page = editor.new_page()
        sign_in(page, app.url, EDITOR, path=TRACKED)
        # Signing in from the link lands on it (one more page load): wait for that load, not race it.
        # The address keeps the page; ``?domain=`` may go again at once, since the site it names is the
        # picker's first (Streamlit keeps no URL-bound value that equals the field's default).
        expect(page).to_have_url(
            re.compile(rf"^{re.escape(f'{app.url}/{TRACKED_PAGE}')}(\?|$)"), timeout=TIMEOUT_MS
        )
        page.get_by_text("Keyword to track").wait_for(timeout=TIMEOUT_MS)
        expect(page.get_by_role("combobox", name="Your site")).to_have_value(SITE, timeout=TIMEOUT_MS)
        settled(page)
        before = _posts(sandbox)
        _track(page, EDITOR_KEYWORD)
        expect(page.get_by_text(EDITOR_KEYWORD).first).to_be_visible(timeout=TIMEOUT_MS)
        settled(page)
        editor_posts = _posts(sandbox) - before
        app.keep(page)
        editor_rows = _activity_csv(page, app)
        screenshot(page, "sign-in-editor-activity")

        page = leaver.new_page()
        sign_in(page, app.url, LEAVER)
        go_to(page, f"{app.url}/{TRACKED}", ready="text=Keyword to track")
        expect(page.get_by_role("button", name="Track keyword")).to_be_enabled()
        app.set_lists(LISTS_WITHOUT_LEE)
        _until_the_app_reads_the_new_lists(leaver, app)
        before = _posts(sandbox)
        _track(page, LEAVER_KEYWORD)
        page.locator(STATUS, has_text="Stop").wait_for(state="detached")
        expect(page.get_by_text("Viewer:")).to_be_visible(timeout=TIMEOUT_MS)
        leaver_posts = _posts(sandbox) - before
        app.keep(page)
        screenshot(page, "sign-in-refused-after-removal")
        seen = Writes(editor_posts, editor_rows, leaver_posts, _sidebar_text(page), read_text(page, "main"))
    finally:
        editor.close()
        leaver.close()
        app.set_lists(LISTS)
    return seen


def test_a_visitor_not_signed_in_sees_only_the_sign_in_page(signed_app: SignedInApp) -> None:
    app = signed_app
    context = app.context()
    try:
        page = context.new_page()
        for path in ("", "trust-map?domain=stripe.com"):
            go_to(page, f"{app.url}/{path}")
            expect(page.get_by_role("button", name="Sign in")).to_be_visible()
            assert page.locator(SIDEBAR).count() == 0, f"/{path}: a sidebar is drawn before sign-in"
            text = read_text(page)
            assert "Sign in to continue" in text and CONTACT in text
            assert page.locator(MAILTO).count() == 0, f"/{path}: the contact address is a mailto link"
            for hidden in ("Connection", "Trust Map", "Tracked keywords", "Page not found", SITE):
                assert hidden not in text, f"/{path} shows {hidden!r} before sign-in"
            app.keep(page)
        screenshot(page, "sign-in-page")
    finally:
        context.close()


def test_someone_on_no_list_is_told_whom_to_ask_and_can_sign_out(signed_app: SignedInApp) -> None:
    app = signed_app
    context = app.context()
    try:
        page = context.new_page()
        sign_in(page, app.url, OUTSIDER)
        expect(page.get_by_role("heading", name="No access yet")).to_be_visible()
        go_to(page, f"{app.url}/{TRACKED}")
        text = read_text(page)
        assert OUTSIDER.email in text and CONTACT in text
        assert page.locator(SIDEBAR).count() == 0
        assert "Track keyword" not in text and "Connection" not in text
        app.keep(page)
        screenshot(page, "sign-in-no-list")
        _sign_out(page, app)
    finally:
        context.close()


@pytest.mark.parametrize("person", [UNVERIFIED, UNMARKED], ids=["marked-not-verified", "no-claim"])
def test_an_address_the_provider_has_not_verified_gets_no_role(
    signed_app: SignedInApp, person: Someone
) -> None:
    """Una is on the admins list and Nia's domain on the viewers list, yet neither address is verified
    by the provider: both see "No access yet" saying so, on every address, with no sidebar or page."""
    app = signed_app
    context = app.context()
    try:
        page = context.new_page()
        sign_in(page, app.url, person)
        expect(page.get_by_role("heading", name="No access yet")).to_be_visible()
        for path in ("", TRACKED, "activity"):
            go_to(page, f"{app.url}/{path}")
            expect(page.get_by_role("heading", name="No access yet")).to_be_visible()
            text = read_text(page)
            assert person.email in text and "not verified" in text and CONTACT in text, text
            assert "email_verified" not in text, "a raw claim name is shown"
            assert page.locator(SIDEBAR).count() == 0, f"/{path}: a sidebar is drawn"
            for hidden in ("Admin:", "Viewer:", "Track keyword", "Connection", "Download CSV"):
                assert hidden not in text, f"/{path} shows {hidden!r} to an unverified address"
            app.keep(page)
        screenshot(page, f"sign-in-unverified-{person.email.split('@')[0]}")
        _sign_out(page, app)
    finally:
        context.close()


def test_a_viewer_reads_but_every_change_is_for_editors(
    signed_app: SignedInApp, sandbox: SandboxServer
) -> None:
    app = signed_app
    context = app.context()
    try:
        page = context.new_page()
        sign_in(page, app.url, VIEWER)
        sidebar = _sidebar_text(page)
        assert f"Signed in as {VIEWER.name} ({VIEWER.email})" in sidebar
        assert "Viewer:" in sidebar and "Sign out" in sidebar
        assert _own_key_fields(page) == 0, "a viewer is offered a key of their own"
        assert "Sign-in is off" not in sidebar
        assert page.locator(f"{SIDEBAR} {MAILTO}").count() == 0, "the sidebar's address is a mailto link"

        go_to(page, f"{app.url}/{TRACKED}", ready="text=Keyword to track")
        track = page.get_by_role("button", name="Track keyword")
        expect(track).to_be_disabled()
        track.hover(force=True)
        expect(page.get_by_text("Editors only").first).to_be_visible(timeout=TIMEOUT_MS)
        screenshot(page, "sign-in-viewer-tracked")

        before = _posts(sandbox)
        page.get_by_label("Keyword to track").fill("a viewer's forged keyword")
        track.evaluate(FORCED_CLICK)
        settled(page, linger_ms=500)
        assert _posts(sandbox) == before, "a viewer's forced click reached the service"
        app.keep(page)
        _sign_out(page, app)
    finally:
        context.close()


def test_an_editor_adds_a_keyword_once_and_finds_it_on_activity(writes: Writes) -> None:
    assert writes.editor_posts == 1
    rows = writes.editor_rows
    assert set(rows["Person"]) == {EDITOR.email}, "an editor sees only their own rows"
    added = rows[rows["On"].astype(str).str.contains(EDITOR_KEYWORD)]
    assert len(added) == 1 and added["Outcome"].iloc[0] == "Sent"
    assert added["Change"].iloc[0] == "Add tracked keyword"


def test_an_editor_taken_off_the_list_is_refused_at_once_and_audited(
    writes: Writes, signed_app: SignedInApp
) -> None:
    assert writes.leaver_posts == 0, "a write of someone no longer an editor was sent"
    assert "Viewer:" in writes.leaver_sidebar
    assert "Editors only" in writes.leaver_page
    audit = signed_app.audit()
    refused = audit[(audit["person"] == LEAVER.email) & (audit["outcome"] == "refused_by_role")]
    assert len(refused) == 1 and refused["role"].iloc[0] == "viewer"
    assert LEAVER_KEYWORD in str(refused["target"].iloc[0])


def test_an_admin_sees_everyones_activity(writes: Writes, signed_app: SignedInApp) -> None:
    app = signed_app
    context = app.context()
    try:
        page = context.new_page()
        sign_in(page, app.url, ADMIN)
        sidebar = _sidebar_text(page)
        assert f"Signed in as {ADMIN.name} ({ADMIN.email})" in sidebar and "Admin:" in sidebar
        assert page.locator(f"{SIDEBAR} {MAILTO}").count() == 0, "the sidebar's address is a mailto link"
        assert _own_key_fields(page) == 1, "an admin is not offered a key of their own"
        rows = _activity_csv(page, app)
        assert {EDITOR.email, LEAVER.email} <= set(rows["Person"])
        assert "Refused: editors only" in set(rows["Outcome"])
        assert {"Editor", "Viewer"} <= set(rows["Role"]), "the CSV leaves out the role the table leaves out"
        for width in sorted(LAPTOP_WIDTHS):  # the widest last: the screenshot's
            page.set_viewport_size({"width": width, "height": 1100})
            settled(page)
            assert_tables_fit(drawn_tables(page), f"Activity at {width}px")
            screenshot(page, f"sign-in-admin-activity-{width}")
    finally:
        context.close()


def test_no_secret_reaches_a_page_a_url_the_log_a_csv_or_the_audit_log(
    writes: Writes, signed_app: SignedInApp
) -> None:
    app = signed_app
    secrets = {
        "API key": DEMO_KEY,
        "cookie secret": app.keys.cookie_secret,
        "OIDC client secret": app.keys.client_secret,
    }
    audit = app.audit()
    assert not audit.empty and app.frames and app.html and app.csvs
    sightings = secret_sightings(
        secrets,
        websocket=app.frames,
        html=app.html,
        urls=app.urls,
        log=[app.log.read_text(errors="replace")],
        csv=app.csvs,
        audit_log=[audit.to_csv()],
        database=[f.read_bytes() for f in app.database.parent.glob(app.database.name + "*")],
    )
    assert not sightings, sightings
