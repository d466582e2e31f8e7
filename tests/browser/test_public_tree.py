"""Browser: every leaf of the landing page's decision tree opens the wizard pre-filled, and
clicking Next through every step ends on that leaf's recommendation (and rule)."""

import os
import re

import pytest
from django.utils import translation

from selector.core.explain import fabric_label
from selector.domain import Answers, decide
from selector.public.tree import LEAF_ANSWERS
from selector.wizard.models import WizardSession

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = os.path.join(os.path.dirname(__file__), "..", "..", "artifacts")


@pytest.fixture(scope="module")
def public_browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS,
                                    headless=True)
        yield browser
        browser.close()


@pytest.fixture
def public_page(public_browser, live_server):
    context = public_browser.new_context(base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(15_000)
    foreign = []
    page.on("request", lambda r: None if r.url.startswith(live_server.url)
            or r.url.startswith("data:") else foreign.append(r.url))
    yield page
    context.close()
    assert not foreign, f"requests to another host: {foreign}"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("prefix,language", [("/en", "en"), ("", "zh-hans")])
def test_each_tree_leaf_walks_through_the_wizard_to_its_recommendation(
        public_page, content, prefix, language):
    page = public_page
    os.makedirs(ARTIFACTS, exist_ok=True)
    for rule, answers in LEAF_ANSWERS.items():
        page.context.clear_cookies()  # a fresh visitor for each leaf
        page.goto(prefix + "/")
        if rule == "R1":
            page.screenshot(path=os.path.join(ARTIFACTS, f"public-landing-{language}.png"),
                            full_page=True)
        page.click(f'a.tree-leaf[data-rule="{rule}"]')
        page.wait_for_url(re.compile(r"/wizard/[\w-]+/$"))
        for _ in range(10):  # the wizard has at most a handful of steps
            if page.url.endswith("/wizard/result/"):
                break
            before = page.url
            page.click(".wizard-nav button[type=submit]")
            page.wait_for_function("url => location.href !== url", arg=before)
        else:
            pytest.fail(f"{rule}: the wizard never reached the result ({page.url})")
        page.wait_for_selector("#step-heading")
        expected = decide(answers)
        with translation.override(language):
            label = fabric_label(expected.recommendation)
        assert page.inner_text("#step-heading").strip() == label, rule
        assert f"R{rule[1:]}" in page.inner_text(".rule .badge"), rule
        ws = WizardSession.objects.filter(result_at__isnull=False).latest("updated_at")
        assert decide(Answers.from_dict(ws.answers)).rule == rule
