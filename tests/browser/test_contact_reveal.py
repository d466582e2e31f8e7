"""Issue 24, finding 10 in Chromium at 390 px, both languages: a rep opens a colleague's
lead, sees the company and the plan but not the phone, e-mail or WeChat ID, reveals them
(the timeline records it), and reads them. Screenshots in artifacts/staff-day/
(contact-hidden-390-<lang>.png, contact-revealed-390-<lang>.png)."""

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.core.management import call_command

from selector.leads.models import LeadEvent
from selector.staff.permissions import SALES_GROUP
from selector.staff.roles import ensure_roles
from tests.conftest import make_lead

pytestmark = pytest.mark.browser
PASSWORD = "correct-horse-battery-9"
PREFIX = {"zh": "", "en": "/en"}
WORDS = {"zh": {"reveal": "查看联系方式", "event": "已查看联系方式"},
         "en": {"reveal": "Reveal the contact", "event": "Contact details revealed"}}


def _rep(username, first, last):
    user = User.objects.create_user(username, f"{username}@example.com", PASSWORD,
                                    first_name=first, last_name=last)
    user.groups.add(Group.objects.get(name=SALES_GROUP))
    return user


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_rep_reveals_a_colleagues_contact_at_390_px(new_page, live_server, artifacts_dir,
                                                      transactional_db, lang):
    shots = artifacts_dir("staff-day")
    call_command("load_content", force=True, verbosity=0)
    ensure_roles(apps)
    _rep("wang", "磊", "王")
    owner = _rep("li", "娜", "李")
    lead = make_lead(snapshot=True, owner=owner, name="陈思远", company="深圳星河智算科技有限公司",
                     phone="+8613912345678", email="chen.siyuan@example.cn",
                     wechat="chensiyuan_ai")
    page = new_page(width=390, height=844)
    page.goto(f"{PREFIX[lang]}/staff/login/")
    page.fill("input[name=username]", "wang")
    page.fill("input[name=password]", PASSWORD)
    page.click(".staff-login button[type=submit]")
    page.wait_for_url(f"**{PREFIX[lang]}/staff/")

    page.goto(f"{PREFIX[lang]}/staff/leads/{lead.public_id}/")
    hidden = page.locator("[data-testid=contact-hidden]")
    hidden.wait_for()
    text = page.locator(".contact-card").inner_text()
    for secret in ("139 1234 5678", "chen.siyuan@example.cn", "chensiyuan_ai"):
        assert secret not in page.content()
    assert "深圳星河智算科技有限公司" in page.locator("h1").inner_text()
    assert page.locator(".lead-plan").is_visible()  # the plan stays readable
    assert WORDS[lang]["reveal"] in text
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator(".contact-card").screenshot(
        path=str(shots / f"contact-hidden-390-{lang}.png"))
    page.screenshot(path=str(shots / f"contact-hidden-390-{lang}-page.png"), full_page=False)

    page.click("[data-testid=reveal-contact]")
    page.locator("[data-testid=contact-details]").wait_for()
    details = page.locator(".contact-card").inner_text()
    assert "+86 139 1234 5678" in details and "chen.siyuan@example.cn" in details
    assert "chensiyuan_ai" in details
    assert WORDS[lang]["event"] in page.locator(".timeline").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator(".contact-card").screenshot(
        path=str(shots / f"contact-revealed-390-{lang}.png"))
    event = LeadEvent.objects.get(lead=lead, kind=LeadEvent.Kind.CONTACT_REVEALED)
    assert event.actor.username == "wang"
