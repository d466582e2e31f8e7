"""Sales workspace in a real browser: log in, filter, open a lead, change its status, add a
note and download the PDF report (the reports app's staff download)."""

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.core.management import call_command

from selector.domain import Answers, Budget, Determinism, Workload, decide
from selector.leads.models import Lead, LeadEvent
from selector.planner.services import freeze, fresh
from selector.staff.permissions import SALES_GROUP
from selector.staff.roles import ensure_roles

pytestmark = pytest.mark.browser
PASSWORD = "correct-horse-battery-9"


def _lead(name, company, status="new", gpus=512):
    answers = Answers(gpus=gpus, workload=Workload.TRAINING, budget=Budget.BALANCED,
                      determinism=Determinism.STANDARD)
    decision = decide(answers)
    lead = Lead.objects.create(
        report_number=f"NS-20261130-{name[:1].upper()}BR{len(name):03d}"[:24], name=name,
        company=company, phone="+8613800138000", email="buyer@example.cn", role="CTO",
        timeline="0-3m", language="zh-hans", answers=answers.to_dict(),
        recommendation=decision.recommendation.value, rule=decision.rule,
        engine_version=decision.engine_version, score="hot", status=status,
        sizing=freeze(fresh(answers)),
        consent_given_at="2026-11-30T10:00:00+08:00", consent_notice_version="2026-11-30")
    LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.CREATED)
    return lead


def test_sales_work_a_lead_end_to_end(new_page, live_server, artifacts_dir, transactional_db):
    call_command("load_content", force=True, verbosity=0)
    ensure_roles(apps)
    user = User.objects.create_user("sam", "sam@example.com", PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name=SALES_GROUP))
    target = _lead("李明", "星云智算科技有限公司")
    _lead("Other Buyer", "Orbit AI Labs", status="won")

    page = new_page()
    page.goto("/staff/")
    assert "/staff/login/" in page.url
    page.fill("input[name=username]", "sam")
    page.fill("input[name=password]", PASSWORD)
    page.click(".staff-login button[type=submit]")
    page.wait_for_url("**/staff/")  # My day
    page.click("nav a[href='/staff/leads/']")
    page.wait_for_url("**/staff/leads/")
    assert page.locator("table.lead-table tbody tr").count() == 2

    # Filter with htmx: only the table is swapped, the URL keeps the filter.
    page.select_option("select[name=status]", "new")
    page.wait_for_url("**/staff/leads/?*status=new*")
    page.wait_for_function(
        "document.querySelectorAll('table.lead-table tbody tr').length === 1")
    assert "Orbit AI Labs" not in page.inner_text("#results")
    page.screenshot(path=str(artifacts_dir("staff") / "lead-list.png"), full_page=True)

    page.click("text=李明")
    page.wait_for_url(f"**/staff/leads/{target.public_id}/")
    assert "星云智算科技有限公司" in page.inner_text("main")
    page.click("#take-lead")
    page.wait_for_selector("#status-form", state="attached")

    page.click("summary:has-text('更改状态')")
    page.select_option("#status-form select[name=status]", "contacted")
    page.click("form[action$='/status/'] button[type=submit]")
    page.wait_for_url(f"**/staff/leads/{target.public_id}/")
    page.click("summary:has-text('添加备注')")
    page.fill("textarea[name=text]", "电话沟通，下周演示")
    page.click("form[action$='/notes/'] button[type=submit]")
    page.wait_for_url(f"**/staff/leads/{target.public_id}/")
    assert "电话沟通，下周演示" in page.inner_text(".timeline")
    page.screenshot(path=str(artifacts_dir("staff") / "lead-page.png"), full_page=True)

    with page.expect_download() as download_info:
        page.click(f"a[href$='/staff/leads/{target.public_id}/report/']")
    download = download_info.value
    pdf = download.path().read_bytes()
    assert pdf.startswith(b"%PDF")

    target.refresh_from_db()
    assert target.status == "contacted"
    assert target.events.filter(kind="status_changed", actor=user).exists()
    assert target.events.get(kind="note").data["text"] == "电话沟通，下周演示"
    assert target.events.filter(kind="report_downloaded").exists()
