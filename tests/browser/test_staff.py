"""Sales workspace in a real browser: log in, filter, open a lead, change its status, add a
note and download the PDF report (the reports app's staff download)."""

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.core.management import call_command

from selector.staff.permissions import SALES_GROUP
from selector.staff.roles import ensure_roles
from tests.conftest import make_lead

pytestmark = pytest.mark.browser
PASSWORD = "correct-horse-battery-9"


def test_sales_work_a_lead_end_to_end(new_page, live_server, artifacts_dir, transactional_db):
    call_command("load_content", force=True, verbosity=0)
    ensure_roles(apps)
    user = User.objects.create_user("sam", "sam@example.com", PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name=SALES_GROUP))
    target = make_lead(name="李明", company="星云智算科技有限公司", gpus=512, snapshot=True)
    make_lead(name="Other Buyer", company="Orbit AI Labs", status="won", gpus=512,
              snapshot=True)

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
