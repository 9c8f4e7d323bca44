"""Browser tests: Playwright for Python driving Debian's Chromium against a live server.

Skipped with a clear message when Chromium is absent, except under CI (``CI=true``), where a
missing browser is a failure.

Every page a test opens, through the ``page`` fixture or ``chromium.new_context()``, is checked
with axe (tests/e2e/a11y.py) after each load and again as it is when the test ends or closes it;
the test then fails listing every violation, of any impact, with the page it was on. A page is
not audited again when every kind of element on it (tag, id, classes, state) was already on an
audited page with the same kind of address and language, in this test or an earlier one.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.a11y import EXCLUDED_PATHS, SHAPE, axe_results, describe, page_key

CHROMIUM = os.environ.get("KNOCK_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# Playwright's sync API runs an event loop in this thread; the test database calls made by the
# fixtures around it are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail(f"Chromium not found at {CHROMIUM}: CI must install Debian's chromium")
        pytest.skip(
            f"Chromium not found at {CHROMIUM}: apt-get install chromium to run browser tests"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


class Audit:
    """axe on every page of one test's browser contexts. ``seen`` (shared by the whole session)
    holds, for each kind of address and language, the kinds of element already audited there."""

    def __init__(self, seen: dict[tuple[str, str], set[str]], stats: dict[str, int]) -> None:
        self.seen = seen
        self.stats = stats
        self.found: dict[str, list[str]] = {}
        self.contexts: list[Any] = []
        self.closed: set[int] = set()
        self.busy = 0

    def watch(self, context: Any) -> None:
        self.contexts.append(context)
        context.on("page", self._page)
        context.on("close", lambda _: self.closed.add(id(context)))
        for page in context.pages:
            self._page(page)
        context.close = self._before(context.close, lambda: list(context.pages))

    def _page(self, page: Any) -> None:
        page.on("load", self.check)
        page.close = self._before(page.close, lambda: [page])

    def _before(self, close: Callable[..., Any], pages: Callable[[], list[Any]]) -> Any:
        """``close`` that first audits the pages as they are at that moment."""

        def audited_close(*args: Any, **kwargs: Any) -> Any:
            self.settle(pages())
            for page in pages():
                self.check(page)
            return close(*args, **kwargs)

        return audited_close

    def check(self, page: Any) -> None:
        """Audit ``page`` as it is now, unless every kind of element on it was on a page with
        the same address and language audited before. Runs in the test's own greenlet or, after
        a load, in Playwright's event greenlet, next to the test."""
        if page.is_closed():
            return
        self.busy += 1
        try:
            shape = page.evaluate(SHAPE)
            if shape["path"] in EXCLUDED_PATHS:
                return
            kinds = set(shape["kinds"])
            audited = self.seen.setdefault((page_key(shape["path"]), shape["lang"]), set())
            if kinds <= audited:
                self.stats["same"] += 1
                return
            violations = axe_results(page)
        except PlaywrightError:
            # The test navigated or closed the page while axe ran: that document is gone.
            self.stats["gone"] += 1
            return
        finally:
            self.busy -= 1
        audited |= kinds
        self.stats["audited"] += 1
        where = f"{shape['path']} [{shape['lang']}]"
        for violation in violations:
            line = describe(violation)
            if line not in self.found.setdefault(where, []):
                self.found[where].append(line)

    def settle(self, pages: list[Any]) -> None:
        """Let the audits started by loads finish (they run while the test goes on)."""
        open_pages = [page for page in pages if not page.is_closed()]
        for _ in range(400):
            if not self.busy or not open_pages:
                return
            open_pages[0].wait_for_timeout(25)

    def finish(self) -> str:
        """Audit what is still open, close it, and say what was found ("" when nothing)."""
        for context in self.contexts:
            if id(context) not in self.closed:
                context.close()
        return "\n".join(
            f"{where}:\n" + "\n".join(f"  {line}" for line in lines)
            for where, lines in self.found.items()
        )


AXE_STATS = {"audited": 0, "same": 0, "gone": 0}


class AuditedBrowser:
    """The session's Chromium, whose new contexts are audited by ``audit``."""

    def __init__(self, browser: Any, audit: Audit) -> None:
        self._browser = browser
        self._audit = audit

    def new_context(self, **kwargs: Any) -> Any:
        context = self._browser.new_context(**kwargs)
        self._audit.watch(context)
        return context

    def new_page(self, **kwargs: Any) -> Any:
        page = self._browser.new_page(**kwargs)
        self._audit.watch(page.context)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def axe_seen() -> dict[tuple[str, str], set[str]]:
    return {}


@pytest.fixture
def chromium(chromium_browser: Any, axe_seen: dict[tuple[str, str], set[str]]) -> Iterator[Any]:
    audit = Audit(axe_seen, AXE_STATS)
    yield AuditedBrowser(chromium_browser, audit)
    report = audit.finish()
    if report:
        pytest.fail(f"axe violations on the pages this test opened:\n{report}", pytrace=False)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if any(AXE_STATS.values()):
        terminalreporter.write_line(
            f"axe: {AXE_STATS['audited']} page audits, {AXE_STATS['same']} pages seen before, "
            f"{AXE_STATS['gone']} left before their audit ended"
        )


@pytest.fixture
def page(chromium: Any, live_server: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url)
    page = context.new_page()
    yield page
    context.close()
