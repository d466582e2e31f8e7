"""My day with more follow-ups than it lists (issue 24, exact counts), in a real browser:
the numbers are the database's, "N more" opens the lead list of exactly those leads.
Both languages; screenshots in artifacts/staff/."""

import datetime as dt

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.utils import timezone

from selector.staff.permissions import SALES_GROUP
from selector.staff.roles import ensure_roles
from tests.conftest import make_lead

pytestmark = pytest.mark.browser
PASSWORD = "correct-horse-battery-9"
OVERDUE = 57
TEXT = {"zh": {"prefix": "", "more": f"还有 {OVERDUE - 50} 条", "count": f"{OVERDUE} 条线索"},
        "en": {"prefix": "/en", "more": f"{OVERDUE - 50} more", "count": f"{OVERDUE} leads"}}


@pytest.mark.parametrize("language", ["zh", "en"])
def test_my_day_counts_every_overdue_lead_and_links_to_all_of_them(
        new_page, live_server, artifacts_dir, transactional_db, language):
    t = TEXT[language]
    ensure_roles(apps)
    rep = User.objects.create_user("sam", "sam@example.com", PASSWORD, is_staff=True)
    rep.groups.add(Group.objects.get(name=SALES_GROUP))
    now = timezone.now()
    for n in range(OVERDUE):
        make_lead(name=f"逾期客户{n}", owner=rep, next_action_kind="call",
                  next_action_due=now - dt.timedelta(hours=1, minutes=n))
    page = new_page(width=1280, height=900)
    page.goto(f"{t['prefix']}/staff/login/")
    page.fill("input[name=username]", "sam")
    page.fill("input[name=password]", PASSWORD)
    page.click(".staff-login button[type=submit]")
    page.wait_for_url(f"**{t['prefix']}/staff/")
    overdue = page.locator(".day-overdue")
    assert overdue.locator(".count").inner_text() == str(OVERDUE)
    assert overdue.locator(".day-item").count() == 50
    more = overdue.get_by_test_id("day-more")
    assert t["more"] in more.inner_text()
    more.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir("staff") / f"my-day-more-{language}.png"))
    more.click()
    page.wait_for_url("**/staff/leads/?owner=mine&follow_up=overdue")
    assert page.locator(".result-count").inner_text().startswith(t["count"])
    page.screenshot(path=str(artifacts_dir("staff") / f"my-day-more-list-{language}.png"))
