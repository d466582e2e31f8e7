"""Shared Playwright fixtures: one Debian Chromium per test module, a fresh context per
test (JavaScript on or off), and a guard that no page talks to another host or breaks the
Content-Security-Policy."""

import os
from pathlib import Path

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "artifacts"


# Module scope, not session: Playwright's sync API allows one running instance per thread,
# so a test module that starts its own must find ours closed.
@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS,
                                    headless=True)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _links_follow_the_live_server(settings):
    """As in development: no SITE_URL, so absolute links (share links, canonical URLs)
    point at the live server's random port, the way `PORT=9000 make run` works."""
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "testserver"]


@pytest.fixture
def new_page(browser, live_server):
    """``new_page(js=True, width=1280)``: a page in a fresh browser context (own cookies).
    On teardown it fails the test if a page requested another host or hit a CSP error."""
    contexts, problems = [], []

    def make(js: bool = True, width: int = 1280, height: int = 900):
        context = browser.new_context(base_url=live_server.url, java_script_enabled=js,
                                      viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("request", lambda r: None if r.url.startswith(live_server.url)
                or r.url.startswith("data:") else problems.append(f"foreign: {r.url}"))
        page.on("console", lambda m: problems.append(f"console: {m.text}")
                if "Content Security Policy" in m.text or m.type == "error" else None)
        return page

    yield make
    for context in contexts:
        context.close()  # closing twice is harmless
    assert not _without_aborted_requests(problems), problems


def _without_aborted_requests(problems: list[str]) -> list[str]:
    """htmx logs an aborted request (an inline-validation request cut short because the
    visitor already moved on) as two console errors, htmx:sendAbort and the failed
    htmx:afterRequest. That is the browser being quicker than the network, not a fault:
    drop each abort and one afterRequest per abort; anything else still fails."""
    aborts = sum("htmx:sendAbort" in p for p in problems)
    kept = []
    for problem in problems:
        if "htmx:sendAbort" in problem:
            continue
        if aborts and "htmx:afterRequest" in problem:
            aborts -= 1
            continue
        kept.append(problem)
    return kept


@pytest.fixture
def artifacts_dir():
    def make(name: str) -> Path:
        path = ARTIFACTS / name
        path.mkdir(parents=True, exist_ok=True)
        return path
    return make
