"""No lost updates in a real browser (issue 24): a rep has the lead open in two browsers;
in A they mark it won at ¥1,200,000; B, still showing "qualified", picks "proposal": B is
told the lead changed, sees it as it is now next to the refused change, and one click
applies the change anyway. Both languages; screenshots in artifacts/staff/."""

import datetime as dt

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.utils import timezone

from selector.leads.models import Lead
from selector.staff.permissions import SALES_GROUP
from selector.staff.roles import ensure_roles
from tests.conftest import make_lead

pytestmark = pytest.mark.browser
PASSWORD = "correct-horse-battery-9"
TEXT = {
    "zh": {"prefix": "", "status": "更改状态", "conflict": "未保存：您打开页面后，此线索已被修改",
           "now": "成交 · ¥1,200,000.00", "yours": "状态：已报方案"},
    "en": {"prefix": "/en", "status": "Change status",
           "conflict": "Not saved: this lead changed after you opened it",
           "now": "Won · ¥1,200,000.00", "yours": "Status: Proposal"},
}


def _log_in(page, prefix):
    page.goto(f"{prefix}/staff/login/")
    page.fill("input[name=username]", "sam")
    page.fill("input[name=password]", PASSWORD)
    page.click(".staff-login button[type=submit]")
    page.wait_for_url(f"**{prefix}/staff/")


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_stale_tab_is_told_and_can_apply_its_change_anyway(
        new_page, live_server, artifacts_dir, transactional_db, language):
    t = TEXT[language]
    call_command("load_content", force=True, verbosity=0)
    ensure_roles(apps)
    rep = User.objects.create_user("sam", "sam@example.com", PASSWORD, is_staff=True,
                                   first_name="娜", last_name="李")
    rep.groups.add(Group.objects.get(name=SALES_GROUP))
    lead = make_lead(name="李明", company="星云智算科技有限公司", gpus=512, snapshot=True,
                     owner=rep, status="qualified", next_action_kind="call",
                     next_action_due=timezone.now() + dt.timedelta(days=1))
    url = f"{t['prefix']}/staff/leads/{lead.public_id}/"
    tab_a, tab_b = new_page(), new_page()
    for tab in (tab_a, tab_b):
        _log_in(tab, t["prefix"])
        tab.goto(url)

    tab_a.click(f"summary:has-text('{t['status']}')")
    tab_a.select_option("#status-form select[name=status]", "won")
    tab_a.fill("#status-form input[name=deal_value]", "1200000")
    tab_a.click("#status-form button[type=submit]")
    tab_a.wait_for_url(f"**{url}")
    assert Lead.objects.get(pk=lead.pk).status == "won"

    tab_b.click(f"summary:has-text('{t['status']}')")
    tab_b.select_option("#status-form select[name=status]", "proposal")
    tab_b.click("#status-form button[type=submit]")
    conflict = tab_b.get_by_test_id("conflict")
    conflict.wait_for()
    assert t["conflict"] in conflict.inner_text()
    assert t["now"] in tab_b.get_by_test_id("conflict-current").inner_text()
    assert t["yours"] in tab_b.get_by_test_id("conflict-yours").inner_text()
    stored = Lead.objects.get(pk=lead.pk)
    assert (stored.status, stored.deal_value) == ("won", 1200000)  # nothing undone
    tab_b.screenshot(path=str(artifacts_dir("staff") / f"conflict-{language}.png"),
                     full_page=False)
    tab_b.set_viewport_size({"width": 390, "height": 844})
    tab_b.screenshot(path=str(artifacts_dir("staff") / f"conflict-{language}-390.png"),
                     full_page=False)

    tab_b.get_by_test_id("apply-anyway").click()
    tab_b.wait_for_url(f"**{url}")
    assert tab_b.get_by_test_id("conflict").count() == 0
    applied = Lead.objects.get(pk=lead.pk)
    assert (applied.status, applied.deal_value) == ("proposal", None)
