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

ARTIFACTS = os.path.join(os.path.dirname(__file__), "..", "..", "artifacts")


@pytest.fixture
def public_page(new_page):
    """A fresh Chromium page (tests/browser/conftest.py: no other host, no CSP errors)."""
    page = new_page()
    page.set_default_timeout(15_000)
    return page


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
