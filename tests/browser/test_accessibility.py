"""WCAG 2.2 AA on the customer journey (issue 26, item 6): axe-core (the maintained
engine, bundled by the axe-playwright-python package) runs on every page of the journey in
both languages, on a desktop and a phone, and the test fails on any serious or critical
violation. Keyboard: the configuration snippet can be reached and scrolled with Tab."""

from __future__ import annotations

import datetime as dt

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.management import call_command
from django.utils import timezone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STEPS = [("scale", {"gpus": "256", "gpus_per_server": "8"}),
         ("workload", {"workload": "training"}),
         ("budget", {"budget": "balanced"}),
         ("determinism", {"determinism": "standard"}),
         ("nic-speed", {"nic_speed": "400"})]
BLOCKING = {"serious", "critical"}
# WCAG 2.0/2.1/2.2 A and AA rules (axe-core's tags).
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa",
                                               "wcag22aa"]}, "resultTypes": ["violations"]}


@pytest.fixture
def journey(settings):
    call_command("load_content", force=True, verbosity=0)
    settings.LEAD_MIN_FILL_SECONDS = 0  # the fill-time guard has its own tests


def _blocking(page, axe: Axe, where: str) -> list[str]:
    results = axe.run(page, options=RULES).response
    found = []
    for violation in results["violations"]:
        if violation["impact"] in BLOCKING:
            targets = [", ".join(node["target"]) for node in violation["nodes"]][:5]
            found.append(f"{where}: {violation['id']} ({violation['impact']}): "
                         f"{violation['help']} at {targets}")
    return found


@pytest.mark.parametrize("prefix", ["", "/en"])
@pytest.mark.parametrize("width", [1280, 360])
def test_no_serious_violation_on_any_page_of_the_journey(new_page, journey, prefix, width):
    page = new_page(js=True, width=width, height=800)
    page.set_default_timeout(60_000)  # a shared machine; axe reads every node
    axe = Axe()
    found: list[str] = []
    for path in ("/", "/faq/", "/compare/", "/privacy/"):
        page.goto(prefix + path)
        found += _blocking(page, axe, prefix + path)
    page.goto(prefix + "/wizard/")
    for step, values in STEPS:
        page.wait_for_url(f"**{prefix}/wizard/{step}/")
        page.locator("h1[data-step-heading]").wait_for()
        found += _blocking(page, axe, f"{prefix}/wizard/{step}/")
        for name, value in values.items():
            if name in ("gpus", "gpus_per_server"):
                page.fill(f"input[name={name}]", value)
            else:
                page.check(f"input[name={name}][value='{value}']")
        page.click(".wizard-form button[type=submit]")
    page.wait_for_url(f"**{prefix}/wizard/result/")
    page.locator("[data-testid=result-summary]").wait_for()
    found += _blocking(page, axe, prefix + "/wizard/result/")
    # A what-if preview (issue 26, finding 4), then back to the own result.
    page.click("a.what-if-btn >> nth=0")
    page.locator("[data-testid=what-if-preview]").wait_for()
    found += _blocking(page, axe, prefix + "/wizard/result/what-if/")
    page.click("[data-testid=what-if-apply] a")
    page.wait_for_url(f"**{prefix}/wizard/result/")
    page.locator("[data-testid=report-button]").wait_for()
    page.click("[data-testid=report-button]")
    page.wait_for_url(f"**{prefix}/contact/")
    found += _blocking(page, axe, prefix + "/contact/")
    # A refused form (its error summary and messages) must be accessible too.
    page.click(".lead-form button[type=submit]")
    page.locator("[data-testid=error-summary]").wait_for()
    found += _blocking(page, axe, prefix + "/contact/ (errors)")
    page.fill("input[name=name]", "李雷")
    page.fill("input[name=company]", "深圳星河智算科技有限公司")
    page.fill("input[name=phone]", "138 1234 5678")
    page.check("input[name=consent]")
    page.click(".lead-form button[type=submit]")
    page.wait_for_url(f"**{prefix}/contact/thanks/")
    found += _blocking(page, axe, prefix + "/contact/thanks/")
    # Talk to an engineer (issue 26, finding 10): a refused call-back, then one accepted.
    page.click(".callback-form button[type=submit]")
    page.locator(".callback-form .field-error").first.wait_for()
    found += _blocking(page, axe, prefix + "/contact/thanks/callback/ (errors)")
    tomorrow = (timezone.localtime() + dt.timedelta(days=1)).strftime("%Y-%m-%dT10:00")
    page.fill("input[name=preferred]", tomorrow)
    page.click(".callback-form button[type=submit]")
    page.locator("[data-testid=callback-requested]").wait_for()
    found += _blocking(page, axe, prefix + "/contact/thanks/ (call-back requested)")
    assert found == [], "\n".join(found)


def test_the_config_snippet_is_reached_by_keyboard(new_page, journey):
    page = new_page(js=True)
    page.set_default_timeout(60_000)
    page.goto("/en/wizard/")
    for step, values in STEPS:
        page.wait_for_url(f"**/en/wizard/{step}/")
        page.locator("h1[data-step-heading]").wait_for()
        for name, value in values.items():
            if name in ("gpus", "gpus_per_server"):
                page.fill(f"input[name={name}]", value)
            else:
                page.check(f"input[name={name}][value='{value}']")
        page.click(".wizard-form button[type=submit]")
    page.wait_for_url("**/en/wizard/result/")
    snippet = page.locator("pre").first
    snippet.wait_for()
    assert snippet.get_attribute("tabindex") == "0"
    for _ in range(200):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.tagName") == "PRE":
            break
    else:
        pytest.fail("Tab never reached the configuration snippet")
    # It has an accessible name (a <pre> may not carry aria-label on its own role).
    assert page.evaluate("document.activeElement.getAttribute('role')") == "region"
    assert page.evaluate("document.activeElement.getAttribute('aria-labelledby') || "
                         "document.activeElement.getAttribute('aria-label')")
