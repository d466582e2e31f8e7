"""Browser: "talk to an engineer" on the thank-you page without JavaScript (issue 26,
finding 10): the WeCom link carries the report number; a call-back request with the
browser's date-time field becomes the lead's next action and is confirmed on the page."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command
from django.utils import timezone

from selector.content.models import CompanyProfile
from selector.leads.models import Lead, NextActionKind

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WECOM = "https://work.weixin.qq.com/ca/cawcde0123456789"
STEPS = [("scale", {"gpus": "64", "gpus_per_server": "8"}),
         ("workload", {"workload": "training"}),
         ("budget", {"budget": "balanced"}),
         ("determinism", {"determinism": "strict"}),
         ("nic-speed", {"nic_speed": "400"})]


@pytest.mark.parametrize("js", [False, True])
def test_a_call_back_from_the_thank_you_page(new_page, settings, js):
    call_command("load_content", force=True, verbosity=0)
    CompanyProfile.objects.update(wecom_link=WECOM)
    settings.LEAD_MIN_FILL_SECONDS = 0  # the fill-time guard has its own tests
    page = new_page(js=js)
    page.goto("/wizard/")
    for step, values in STEPS:
        page.wait_for_url(f"**/wizard/{step}/")
        for name, value in values.items():
            if name in ("gpus", "gpus_per_server"):
                page.fill(f"input[name={name}]", value)
            else:
                page.check(f"input[name={name}][value='{value}']")
        page.click(".wizard-form button[type=submit]")
    page.wait_for_url("**/wizard/result/")
    assert page.get_attribute("[data-testid=talk-to-engineer] a[data-testid=wecom-link]",
                              "href") == WECOM + "?customer_channel=selector-result"
    page.locator("[data-testid=determinism]").wait_for()  # strict: the section is there
    page.click("[data-testid=report-button]")
    page.wait_for_url("**/contact/")
    page.fill("input[name=name]", "李雷")
    page.fill("input[name=company]", "深圳星河智算科技有限公司")
    page.fill("input[name=phone]", "138 1234 5678")
    page.check("input[name=consent]")
    page.click(".lead-form button[type=submit]")
    page.wait_for_url("**/contact/thanks/")
    lead = Lead.objects.get()
    assert page.get_attribute("[data-testid=wecom-link]", "href") == (
        f"{WECOM}?customer_channel={lead.report_number}")
    at = (timezone.localtime() + dt.timedelta(days=1)).replace(hour=10, minute=0, second=0,
                                                               microsecond=0)
    page.fill("input[name=preferred]", at.strftime("%Y-%m-%dT%H:%M"))
    page.fill("input[name=note]", "<b>8 台</b> https://evil.example")
    page.click(".callback-form button[type=submit]")
    page.locator("[data-testid=callback-requested]").wait_for()
    assert f"{at:%Y-%m-%d} 10:00" in page.locator("[data-testid=callback-requested]").inner_text()
    lead.refresh_from_db()
    assert (lead.next_action_kind, lead.next_action_due) == (NextActionKind.CALL, at)
    assert lead.next_action_note == "<b>8 台</b> https://evil.example"
