"""Browser: the wizard to each rule's result with JavaScript, without it, and by keyboard
only; Back, refresh, the skipped-step redirect and the what-if preview (in place with JS);
screenshots of every step at 360 and 1280 px (artifacts/wizard/, git-ignored)."""

import pytest

from tests.wizard.conftest import EXPECTED, RULE_CASES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STEP_FIELDS = {
    "scale": ("gpus", "gpus_per_server"),
    "workload": ("workload", "throughput_limited"),
    "budget": ("budget",),
    "determinism": ("determinism",),
    "nic-speed": ("nic_speed",),
}
RESULT_HEADINGS = {
    "standard-network": "Standard Ethernet",
    "infiniband": "InfiniBand",
    "roce-v2-400g": "RoCE v2 lossless Ethernet, 400G",
    "roce-v2-800g": "RoCE v2 lossless Ethernet, 800G core",
}


def _value(case, name):
    return "8" if name == "gpus_per_server" else case.get(name)


def _fill_by_mouse(page, case, step):
    for name in STEP_FIELDS[step]:
        value = _value(case, name)
        if value is None:
            continue
        if name in ("gpus", "gpus_per_server"):
            page.fill(f"input[name={name}]", value)
        else:
            page.check(f"input[name={name}][value='{value}']")


def _expect_step(page, step):
    page.wait_for_url(f"**/wizard/{step}/")
    page.locator("h1[data-step-heading]").wait_for()
    _settled(page)


def _settled(page):
    """htmx wires up swapped-in content when it settles, 20 ms after the swap (its
    defaultSettleDelay; the new nodes carry ``htmx-added`` until then). A key pressed before
    that submits the form natively, as without JavaScript (a full page, the focus on the
    body): no person is that fast, but this test's keyboard is."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-added, .htmx-settling, .htmx-request')")


def _expect_result(page, rule):
    page.wait_for_url("**/wizard/result/")
    page.get_by_text(f"Rule {rule}", exact=True).wait_for()
    heading = page.locator("h1").inner_text()
    assert RESULT_HEADINGS[EXPECTED[rule]] in heading


def _walk_by_mouse(page, case, shots=None, width=None):
    page.goto("/en/wizard/")
    for step in STEP_FIELDS:
        _expect_step(page, step)
        _fill_by_mouse(page, case, step)
        if shots:
            page.screenshot(path=str(shots / f"{step}-{width}.png"), full_page=True)
        page.click(".wizard-form button[type=submit]")


# Keyboard: Tab until the wanted control has focus, type or move with the arrow keys.
def _tab_to(page, selector, limit=40):
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def _choose_radio(page, name, value):
    _tab_to(page, f"input[name={name}]")
    page.keyboard.press("Space")
    for _ in range(6):
        if page.evaluate(f"document.querySelector('input[name={name}]:checked').value") == value:
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"{name}={value} not reachable by arrows")


def _walk_by_keyboard(page, case):
    page.goto("/en/wizard/")
    for step in STEP_FIELDS:
        _expect_step(page, step)
        for name in STEP_FIELDS[step]:
            value = _value(case, name)
            if value is None:
                continue
            if name in ("gpus", "gpus_per_server"):
                _tab_to(page, f"input[name={name}]")
                page.keyboard.press("ControlOrMeta+a")
                page.keyboard.type(value)
            else:
                _choose_radio(page, name, value)
        _tab_to(page, ".wizard-form button[type=submit]")
        page.keyboard.press("Enter")
        if step != "nic-speed":
            page.wait_for_function("() => document.activeElement && "
                                   "document.activeElement.matches('h1[data-step-heading]')")


# One test per mode walks to all seven rules (a fresh browser context each): the database
# set-up per test costs more than a walk, and the suite must stay fast on two cores.
def test_it_reaches_each_rule_with_javascript(new_page, content):
    for rule in sorted(RULE_CASES):
        page = new_page(js=True)
        _walk_by_mouse(page, RULE_CASES[rule])
        _expect_result(page, rule)
        # htmx swapped the region in place; focus is on the result heading.
        assert page.evaluate("document.activeElement.id") == "step-heading", rule
        page.context.close()


def test_it_reaches_each_rule_without_javascript(new_page, content):
    for rule in sorted(RULE_CASES):
        page = new_page(js=False)
        _walk_by_mouse(page, RULE_CASES[rule])
        _expect_result(page, rule)
        page.context.close()


def test_it_reaches_each_rule_by_keyboard_only(new_page, content):
    for rule in sorted(RULE_CASES):
        page = new_page(js=True)
        _walk_by_keyboard(page, RULE_CASES[rule])
        _expect_result(page, rule)
        page.context.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_screenshots_of_every_step(new_page, content, artifacts_dir, width):
    shots = artifacts_dir("wizard")
    page = new_page(js=True, width=width, height=800)
    _walk_by_mouse(page, RULE_CASES["R6"], shots=shots, width=width)
    _expect_result(page, "R6")
    page.screenshot(path=str(shots / f"result-{width}.png"), full_page=True)
    # Mobile first: nothing wider than the viewport (tables scroll inside their box).
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.goto("/wizard/scale/")  # Chinese, the default language
    page.screenshot(path=str(shots / f"scale-zh-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_back_refresh_and_closing_the_tab_keep_the_answers(new_page, content):
    page = new_page(js=True)
    page.goto("/en/wizard/")
    _expect_step(page, "scale")
    _fill_by_mouse(page, RULE_CASES["R7"], "scale")
    page.click(".wizard-form button[type=submit]")
    _expect_step(page, "workload")
    page.check("input[name=workload][value=mixed]")
    page.click(".wizard-form button[type=submit]")
    _expect_step(page, "budget")
    # The browser's Back button: the pushed URL, with the stored answer.
    page.go_back()
    _expect_step(page, "workload")
    assert page.is_checked("input[name=workload][value=mixed]")
    page.go_back()
    _expect_step(page, "scale")
    assert page.input_value("input[name=gpus]") == "64"
    page.go_forward()
    _expect_step(page, "workload")
    # The Back control on the page.
    page.click("text=Back")
    _expect_step(page, "scale")
    page.reload()
    _expect_step(page, "scale")
    assert page.input_value("input[name=gpus]") == "64"
    # Close the tab, open a new one in the same browser: resume where we left off.
    context = page.context
    page.close()
    page = context.new_page()
    page.goto("/en/wizard/")
    _expect_step(page, "budget")


def test_a_skipped_step_redirects_to_the_first_incomplete_one(new_page, content):
    page = new_page(js=True)
    page.goto("/en/wizard/determinism/")
    _expect_step(page, "scale")
    page.goto("/en/wizard/result/")
    _expect_step(page, "scale")


def test_inline_validation_and_live_server_count(new_page, content):
    page = new_page(js=True)
    page.goto("/en/wizard/")
    _expect_step(page, "scale")
    page.fill("input[name=gpus]", "0")
    page.locator("#id_gpus_error").get_by_text("Enter a number of at least 1.").wait_for()
    assert page.get_attribute("input[name=gpus]", "aria-invalid") == "true"
    page.fill("input[name=gpus]", "20")
    page.locator("#servers-live").get_by_text("= 3 servers").wait_for()
    assert page.locator("#id_gpus_error").inner_text().strip() == ""
    assert page.get_attribute("input[name=gpus]", "aria-invalid") is None
    # Submitting an error shows it next to the field and focuses that field.
    page.fill("input[name=gpus]", "")
    page.click(".wizard-form button[type=submit]")
    page.locator(".wizard-error-summary[role=alert]").wait_for()
    assert page.evaluate("document.activeElement.name") == "gpus"
    assert page.url.endswith("/en/wizard/scale/")


def _expect_preview(page, rule, query):
    page.wait_for_url(f"**/wizard/result/what-if/?{query}")
    page.get_by_text(f"Rule {rule}", exact=True).wait_for()
    page.locator("[data-testid=what-if-preview]").wait_for()


def _expect_own_result(page, rule):
    _expect_result(page, rule)
    assert page.locator("[data-testid=what-if-preview]").count() == 0


def test_what_if_is_a_preview_in_place(new_page, content):
    """Issue 26, finding 4, with JavaScript: the what-if swaps in a preview (no reload),
    Back returns to the customer's own result, "Use these answers" applies it."""
    page = new_page(js=True)
    _walk_by_mouse(page, RULE_CASES["R7"])
    _expect_result(page, "R7")
    page.evaluate("window.__noReload = true")
    page.click("a.what-if-btn[data-field=budget][data-value=performance]")
    _expect_preview(page, "R5", "budget=performance")
    assert page.evaluate("window.__noReload") is True  # swapped, not reloaded
    assert "InfiniBand" in page.locator("h1").inner_text()
    assert page.evaluate("document.activeElement.id") == "step-heading"
    assert page.locator("[data-testid^=report-button]").count() == 0
    # Back: the customer's own result, unchanged; a reload shows it too.
    page.go_back()
    _expect_own_result(page, "R7")
    page.reload()
    _expect_own_result(page, "R7")
    # Preview again, then "Use these answers": stored, at the result's own URL.
    page.evaluate("window.__noReload = true")
    page.click("a.what-if-btn[data-field=budget][data-value=performance]")
    _expect_preview(page, "R5", "budget=performance")
    page.click("[data-testid=what-if-apply] button[type=submit]")
    page.wait_for_url("**/wizard/result/")
    page.locator("a.what-if-btn").first.wait_for()
    _expect_own_result(page, "R5")
    assert page.evaluate("window.__noReload") is True
    page.reload()
    _expect_own_result(page, "R5")
    # The share link reproduces the new result for someone else.
    url = page.input_value("#share-url")
    other = new_page(js=False)
    other.goto(url)
    other.get_by_text("Rule R5", exact=True).wait_for()
    assert other.locator("a.what-if-btn").count() == 0


def test_what_if_preview_without_javascript(new_page, content):
    page = new_page(js=False)
    _walk_by_mouse(page, RULE_CASES["R7"])
    _expect_result(page, "R7")
    page.click("a.what-if-btn[data-field=determinism][data-value=strict]")
    _expect_preview(page, "R2", "determinism=strict")
    # "Back to your result" and the browser's Back both return to the own result.
    page.click("[data-testid=what-if-apply] a")
    _expect_own_result(page, "R7")
    page.go_back()
    _expect_preview(page, "R2", "determinism=strict")
    page.go_back()
    _expect_own_result(page, "R7")
    page.go_forward()
    _expect_preview(page, "R2", "determinism=strict")
    page.click("[data-testid=what-if-apply] button[type=submit]")
    _expect_own_result(page, "R2")
    page.reload()
    _expect_own_result(page, "R2")
