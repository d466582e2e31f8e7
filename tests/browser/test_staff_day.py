"""A day in the sales workspace, in Chromium, against the real services, the real task
worker (django-tasks-db's db_worker, run in batch mode in this process) and a local
group-robot webhook:

a hot lead arrives (the robot gets the message with the deep link) -> the rep opens My
day, takes the lead, logs a call with its outcome and sets a next action for tomorrow ->
the clock passes (time-machine moves this process's clock, which the live server and the
worker share; Chromium's own clock does not matter) -> the reminder fires with an
@mention -> a second rep tries to take the lead and is told who has it -> the manager
merges the duplicate, looks at the pipeline and exports (logged) -> the lead is lost with
a reason. Screenshots of each page go to artifacts/staff-day/.

Waits are on conditions (URLs, selectors, rows in the database), never fixed sleeps.
STAFF_IDLE_TIMEOUT and STAFF_SESSION_MAX_AGE are raised to three days here: the scenario
compresses a day, and the session limits have their own tests.
"""

import datetime as dt
import re
import threading

import pytest
import time_machine
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from selector.domain import Answers
from selector.leads.models import DuplicateFlag, Lead
from selector.leads.services import lead_create
from selector.staff.models import ExportLog, StaffProfile
from selector.staff.permissions import MANAGERS_GROUP, SALES_GROUP
from selector.staff.roles import ensure_roles
from selector.wizard.models import WizardSession

pytestmark = pytest.mark.browser
PASSWORD = "correct-horse-battery-9"
HOT = {"gpus": 512, "gpus_per_server": 8, "workload": "training", "budget": "balanced",
       "determinism": "standard", "throughput_limited": False, "nic_speed": 400}


def _worker() -> None:
    """Run every task that is due now, like `manage.py db_worker` does, then return."""
    call_command("db_worker", batch=True, interval=0, startup_delay=False, verbosity=0)


def _submit(company: str, phone: str, **contact) -> Lead:
    """A customer's submission through the real service (what the contact form calls)."""
    ws = WizardSession.objects.create(answers=dict(HOT), furthest_step="result",
                                      result_at=timezone.now(), utm_source="baidu",
                                      utm_campaign="ai-cluster-2026")
    data = {"name": "陈思远", "company": company, "phone": phone,
            "email": "chen.siyuan@example.cn", "role": "网络架构师", "timeline": "0-3m",
            "wechat": "", "message": ""}
    data.update(contact)
    lead, _created = lead_create(wizard_session=ws, answers=Answers.from_dict(HOT),
                                 contact=data, language="zh-hans")
    return lead


def _user(username, group, mobile, first, last):
    user = User.objects.create_user(username, f"{username}@example.com", PASSWORD,
                                    first_name=first, last_name=last)
    user.groups.add(Group.objects.get(name=group))
    StaffProfile.objects.create(user=user, mobile=mobile)
    return user


def _login(page, username):
    page.goto("/staff/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click(".staff-login button[type=submit]")
    page.wait_for_url("**/staff/")


def _wait_for(condition, what: str, timeout: float = 15.0):
    """Poll the database (or anything) until ``condition()`` holds."""
    deadline = timezone.now().timestamp() + timeout
    while True:
        value = condition()
        if value:
            return value
        if timezone.now().timestamp() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        threading.Event().wait(0.05)


def test_a_day_in_the_sales_workspace(new_page, live_server, artifacts_dir, transactional_db,
                                      webhook, settings):
    shots = artifacts_dir("staff-day")
    call_command("load_content", force=True, verbosity=0)
    ensure_roles(apps)
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.SITE_URL = live_server.url
    settings.STAFF_IDLE_TIMEOUT = settings.STAFF_SESSION_MAX_AGE = 3 * 24 * 3600
    settings.REPORT_EMAIL_ENABLED = False  # the customer's report e-mail has its own tests
    wang = _user("wang", SALES_GROUP, "13800138000", "磊", "王")
    _user("li", SALES_GROUP, "13900139000", "娜", "李")
    _user("mia", MANAGERS_GROUP, "13700137000", "敏", "孙")

    # Last week the same customer tried once already (same mobile, company written
    # differently); it went nowhere.
    earlier = _submit("星云智算科技有限公司", "+8613811112222", name="陈先生")
    Lead.objects.filter(pk=earlier.pk).update(
        created_at=timezone.now() - dt.timedelta(days=7))
    _worker()

    # --- a hot lead arrives --------------------------------------------------------------
    hot = _submit("星云智算科技（深圳）有限公司", "+8613811112222")
    assert hot.score == "hot"
    flag = DuplicateFlag.objects.get(lead=hot)
    assert flag.other == earlier and "phone" in flag.reasons
    _worker()
    message = next(t for t in webhook.texts() if hot.report_number in t)
    deep_link = f"/staff/leads/{hot.public_id}/"
    assert re.search(rf"https?://[^\s/]+{deep_link}", message), message
    assert "新线索" in message and "热" in message and "RoCE" in message or "InfiniBand" in message
    assert f"疑似与 {earlier.report_number} 重复" in message

    # A colleague opens the lead from the group chat's link while it is still free.
    li_page = new_page()
    _login(li_page, "li")
    li_page.goto(deep_link)
    li_page.wait_for_selector("#take-lead")

    # --- the rep's morning: My day, take, call, next action -------------------------------
    page = new_page()
    _login(page, "wang")
    hot_row = page.locator(".day-hot .day-item", has_text="星云智算科技（深圳）")
    hot_row.wait_for()
    page.screenshot(path=str(shots / "my-day-before.png"), full_page=True)
    hot_row.locator("button", has_text="接手").click()
    page.wait_for_selector(".day-open .day-item:has-text('星云智算科技（深圳）')")
    assert _wait_for(lambda: Lead.objects.get(pk=hot.pk).owner_id == wang.pk, "take")
    page.click(".day-open .day-item a:has-text('星云智算科技（深圳）')")
    page.wait_for_url(f"**/staff/leads/{hot.public_id}/")
    assert "首次联系" in page.inner_text(".sla-clock")

    page.select_option("#activity-form select[name=kind]", "call")
    page.select_option("#activity-form select[name=outcome]", "reached")
    page.fill("#activity-form textarea[name=note]", "已电话沟通，客户计划 Q1 上线 512 卡训练集群")
    page.click("#activity-form button[type=submit]")
    page.wait_for_selector(".timeline li.event-activity")
    assert "电话 · 已接通" in page.inner_text(".timeline")
    assert "sla-met" in page.get_attribute(".sla-clock", "class")

    page.select_option("#next-action-form select[name=kind]", "call")
    page.fill("#next-action-form input[name=note]", "发送 RoCE 方案并确认预算")
    page.click("#next-action-form button[type=submit]")
    page.wait_for_selector(".next-current")
    lead = Lead.objects.get(pk=hot.pk)
    due = timezone.localtime(lead.next_action_due)
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    assert (lead.next_action_kind, due.date(), due.hour, due.minute) == (
        "call", tomorrow, 10, 0)
    reminder = DBTaskResult.objects.get(task_path="selector.staff.tasks.remind")
    assert reminder.run_after == lead.next_action_due
    page.screenshot(path=str(shots / "lead-page.png"), full_page=True)
    _worker()  # not due yet: nothing happens
    assert not any("提醒" in t for t in webhook.texts())

    # --- the clock passes: the reminder fires ---------------------------------------------
    with time_machine.travel(lead.next_action_due + dt.timedelta(minutes=1), tick=True):
        _worker()
        reminder_message = next(m for m in webhook.requests if "提醒" in m["text"]["content"])
        assert reminder_message["text"]["mentioned_mobile_list"] == ["13800138000"]
        assert deep_link in reminder_message["text"]["content"]
        assert Lead.objects.get(pk=hot.pk).events.filter(kind="reminded").exists()

        page.goto("/staff/")
        page.wait_for_selector(".day-overdue .day-item:has-text('星云智算科技（深圳）')")
        page.screenshot(path=str(shots / "my-day-overdue.png"), full_page=True)

        # --- a second rep tries to take the lead ------------------------------------------
        li_page.click("#take-lead")
        li_page.wait_for_selector(".staff-messages .msg-error")
        assert "该线索已被 王磊 接手。" in li_page.inner_text(".staff-messages")
        assert Lead.objects.get(pk=hot.pk).owner_id == wang.pk

        # --- the manager: merge the duplicate, the pipeline, an export ---------------------
        boss = new_page()
        _login(boss, "mia")
        boss.goto(f"/staff/leads/{hot.public_id}/")
        boss.wait_for_selector(".duplicates-card")
        assert earlier.report_number in boss.inner_text(".duplicates-card")
        boss.click(f"button:has-text('将 {earlier.report_number} 合并到本线索')")
        boss.wait_for_selector(".staff-messages .msg-success")
        assert _wait_for(lambda: Lead.objects.get(pk=earlier.pk).merged_into_id == hot.pk,
                         "merge")
        assert "已合并到本线索" in boss.inner_text(".timeline")

        boss.click("nav a[href='/staff/pipeline/']")
        boss.wait_for_url("**/staff/pipeline/")
        pipeline = boss.inner_text("#pipeline")
        assert "王磊" in pipeline and "wang" not in pipeline  # names, not logins
        boss.screenshot(path=str(shots / "manager-pipeline.png"), full_page=True)

        boss.goto("/staff/leads/?source=baidu")
        boss.wait_for_selector("table.lead-table tbody tr")
        assert boss.locator("table.lead-table tbody tr").count() == 1  # the pointer is gone
        boss.screenshot(path=str(shots / "lead-list.png"), full_page=True)
        with boss.expect_download() as download_info:
            boss.click("a:has-text('导出 CSV')")
        text = download_info.value.path().read_text(encoding="utf-8-sig")
        assert hot.report_number in text and "+86 138 1111 2222" in text
        log = _wait_for(lambda: ExportLog.objects.filter(finished=True).first(), "export log")
        assert (log.actor.username, log.filters, log.row_count) == ("mia",
                                                                   {"source": "baidu"}, 1)
        boss.goto("/staff/audit/")
        assert "source=baidu" in boss.inner_text("#exports")
        boss.screenshot(path=str(shots / "audit.png"), full_page=True)

        # --- the deal is lost, with a reason -------------------------------------------------
        page.goto(f"/staff/leads/{hot.public_id}/")
        page.click("summary:has-text('更改状态')")
        # (Without a reason the form is refused: tests/staff/test_defects.py.)
        page.select_option("#status-form select[name=status]", "lost")
        page.select_option("#status-form select[name=lost_reason]", "competitor")
        page.fill("#status-form textarea[name=note]", "客户选择了友商的整体方案")
        page.click("#status-form button[type=submit]")
        page.wait_for_selector(".badge.status-lost")
        lead = Lead.objects.get(pk=hot.pk)
        assert (lead.status, lead.lost_reason, lead.next_action_due) == ("lost", "competitor",
                                                                         None)
        assert "原因：选择了竞争对手" in page.inner_text(".timeline")


def test_phone_layouts(new_page, live_server, artifacts_dir, transactional_db):
    """390 px: the list is cards with no sideways scroll; the lead page shows contact, the
    next action and the actions above the fold (844 px, an iPhone 14)."""
    shots = artifacts_dir("staff-day")
    call_command("load_content", force=True, verbosity=0)
    ensure_roles(apps)
    wang = _user("wang", SALES_GROUP, "13800138000", "磊", "王")
    leads = [_submit(f"测试{n}号智能科技有限公司", f"+86138000000{n:02d}",
                     email=f"c{n}@example.cn") for n in range(8)]
    Lead.objects.filter(pk=leads[0].pk).update(owner=wang)
    page = new_page(width=390, height=844)
    _login(page, "wang")
    page.screenshot(path=str(shots / "my-day-390.png"), full_page=True)
    page.goto("/staff/leads/")
    page.wait_for_selector("table.lead-table tbody tr")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the list is {width} px wide at 390 px"
    assert page.evaluate("getComputedStyle(document.querySelector('.lead-table tr')).display"
                         ) == "grid"
    page.screenshot(path=str(shots / "lead-list-390.png"), full_page=True)

    page.goto(f"/staff/leads/{leads[0].public_id}/")
    page.wait_for_selector(".actions-card")
    page.screenshot(path=str(shots / "lead-page-390.png"), full_page=False)
    page.screenshot(path=str(shots / "lead-page-390-full.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for selector in (".contact-card", ".next-card", ".actions-card"):
        top = page.evaluate(f"document.querySelector('{selector}').getBoundingClientRect().top")
        assert top < 844, f"{selector} starts at y = {top:.0f} px"
    # The first action (log an activity) is reachable without scrolling.
    button = page.evaluate("document.querySelector('#activity-form button')"
                           ".getBoundingClientRect().bottom")
    assert button < 844 * 2, button  # within two screens; the cards' tops are in the first


def test_manager_views_of_a_team_at_work(new_page, live_server, artifacts_dir,
                                         transactional_db):
    """The manager's pages with three months of a team's work (the demo generator, owners
    spread over three reps): the pipeline's figures are the database's, both languages."""
    from devtools.demo import seed

    shots = artifacts_dir("staff-day")
    call_command("load_content", force=True, verbosity=0)
    ensure_roles(apps)
    reps = [_user(name, SALES_GROUP, "", first, last)
            for name, first, last in (("wang", "磊", "王"), ("li", "娜", "李"),
                                      ("zhao", "强", "赵"))]
    _user("mia", MANAGERS_GROUP, "", "敏", "孙")
    seed(leads=600, sessions=1500, months=3, seed=14, owners=[r.pk for r in reps])
    page = new_page(height=1000)
    _login(page, "mia")
    page.goto("/staff/pipeline/?period=90")
    page.wait_for_selector("#pipeline svg")
    total = page.inner_text("#pipeline tfoot")
    live = Lead.objects.filter(merged_into__isnull=True)
    for status in ("new", "won", "lost"):
        assert str(live.filter(status=status).count()) in total
    page.screenshot(path=str(shots / "manager-pipeline-team.png"), full_page=True)
    page.goto("/en/staff/pipeline/?period=90")
    page.wait_for_selector("#first-response")
    assert "First-response time per rep" in page.inner_text("main")
    page.screenshot(path=str(shots / "manager-pipeline-team-en.png"), full_page=True)
    page.goto("/staff/dashboard/?period=90")
    page.wait_for_selector(".chart")
    page.screenshot(path=str(shots / "dashboard.png"), full_page=True)
    page.goto("/staff/leads/?sort=score")
    page.wait_for_selector("table.lead-table tbody tr")
    page.screenshot(path=str(shots / "lead-list-team.png"), full_page=False)
    phone = new_page(width=390, height=844)
    _login(phone, "wang")
    phone.goto("/staff/leads/?owner=mine&sort=status")
    phone.wait_for_selector("table.lead-table tbody tr")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(shots / "lead-list-team-390.png"), full_page=False)


SH = dt.timezone(dt.timedelta(hours=8))


def test_a_week_the_pool_a_conflict_in_two_tabs_and_a_rep_who_leaves(
        new_page, live_server, artifacts_dir, transactional_db, webhook, settings):
    """The rest of the week (issue 24): Monday the routing rule deals new leads round robin
    and the robot @mentions each owner; a pool lead is claimed; a won deal survives an older
    tab's edit (refused, the current state shown, "apply anyway" offered); a rep leaves and
    the manager hands his open leads to a colleague in one background job (the real task
    worker) with one summary message; Wednesday the untouched leads go back to the pool at
    the tick. My day's counts are the database's at every step. Screenshots at 1280 and
    390 px, in Chinese and English, go to artifacts/staff-day/."""
    from selector.leads.models import OPEN_STATUSES, RoutingRule
    from selector.staff import tasks

    shots = artifacts_dir("staff-day")
    call_command("load_content", force=True, verbosity=0)
    ensure_roles(apps)
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.SITE_URL = live_server.url
    settings.STAFF_IDLE_TIMEOUT = settings.STAFF_SESSION_MAX_AGE = 7 * 24 * 3600
    settings.REPORT_EMAIL_ENABLED = False
    settings.WORK_HOLIDAYS, settings.WORK_EXTRA_DAYS = [], []
    wang = _user("wang", SALES_GROUP, "13800138000", "磊", "王")
    li = _user("li", SALES_GROUP, "13900139000", "娜", "李")
    zhao = _user("zhao", SALES_GROUP, "13600136000", "强", "赵")
    _user("mia", MANAGERS_GROUP, "13700137000", "敏", "孙")
    rule = RoutingRule.objects.create(name="华南团队", mode="round_robin",
                                      return_after_hours=8)
    rule.team.set([wang, li, zhao])

    monday = dt.datetime(2026, 12, 7, 9, 30, tzinfo=SH)
    with time_machine.travel(monday, tick=True):
        # --- Monday: six leads dealt round robin, each owner @mentioned -------------------
        leads = [_submit(f"华联{n}号智算科技有限公司", f"+8613700000{n:03d}",
                         email=f"buyer{n}@example.cn") for n in range(6)]
        owners = [Lead.objects.get(pk=lead.pk).owner for lead in leads]
        assert sorted(o.username for o in owners) == ["li", "li", "wang", "wang", "zhao",
                                                      "zhao"]
        _worker()
        for lead, owner in zip(leads, owners, strict=True):
            sent = next(m for m in webhook.requests
                        if lead.report_number in m["text"]["content"])
            assert sent["text"]["mentioned_mobile_list"] == [
                StaffProfile.objects.get(user=owner).mobile]

        # --- a lead for the pool, claimed from My day -------------------------------------
        RoutingRule.objects.filter(pk=rule.pk).update(mode="pool")
        pooled = _submit("星河智算（广州）有限公司", "+8613700000999")
        assert Lead.objects.get(pk=pooled.pk).owner is None
        _worker()
        assert "公海" in next(t for t in webhook.texts() if pooled.report_number in t)
        li_page = new_page()
        _login(li_page, "li")
        hot_unassigned = Lead.objects.filter(owner=None, score="hot",
                                             status__in=OPEN_STATUSES).count()
        assert li_page.inner_text(".day-hot h2 .count") == str(hot_unassigned)
        li_page.screenshot(path=str(shots / "week-my-day-pool.png"), full_page=True)
        li_page.locator(".day-hot .day-item", has_text="星河智算").locator(
            "button", has_text="接手").click()
        li_page.wait_for_selector(".day-open .day-item:has-text('星河智算')")
        assert _wait_for(lambda: Lead.objects.get(pk=pooled.pk).owner_id == li.pk, "claim")
        mine = Lead.objects.filter(owner=li, status__in=OPEN_STATUSES).count()
        assert li_page.inner_text(".day-open h2 .count") == str(mine) == "3"

        # --- a won deal and an older tab ------------------------------------------------------
        deal = next(lead for lead, owner in zip(leads, owners, strict=True)
                    if owner.pk == wang.pk)
        url = f"/staff/leads/{deal.public_id}/"
        first, stale = new_page(), new_page()
        _login(first, "wang")
        _login(stale, "wang")
        first.goto(url)
        stale.goto(url)  # drawn now; it will be out of date in a moment
        first.click("summary:has-text('更改状态')")
        first.select_option("#status-form select[name=status]", "won")
        first.fill("#status-form input[name=deal_value]", "1200000")
        first.click("#status-form button[type=submit]")
        first.wait_for_selector(".badge.status-won")
        stale.click("summary:has-text('更改状态')")
        stale.select_option("#status-form select[name=status]", "proposal")
        stale.click("#status-form button[type=submit]")
        stale.wait_for_selector("[data-testid=conflict]")
        assert "未保存：您打开页面后，此线索已被修改" in stale.inner_text("#conflict")
        assert "1,200,000" in stale.inner_text("[data-testid=conflict-current]")
        assert "已报方案" in stale.inner_text("[data-testid=conflict-yours]")
        won = Lead.objects.get(pk=deal.pk)
        assert (won.status, won.deal_value) == ("won", 1_200_000)  # nothing was undone
        stale.screenshot(path=str(shots / "week-conflict.png"), full_page=True)
        phone_en = new_page(width=390, height=844)
        _login(phone_en, "wang")
        phone_en.goto(f"/en/staff/leads/{deal.public_id}/")
        assert phone_en.evaluate("document.documentElement.scrollWidth") <= 390
        phone_en.screenshot(path=str(shots / "week-lead-390-en.png"), full_page=True)
        assert Lead.objects.get(pk=deal.pk).status == "won"

    tuesday = monday + dt.timedelta(days=1)
    with time_machine.travel(tuesday, tick=True):
        # --- Tuesday: zhao leaves; his open leads go to li in one job ------------------------
        User.objects.filter(pk=zhao.pk).update(is_active=False)
        his = set(Lead.objects.filter(owner=zhao, status__in=OPEN_STATUSES)
                  .values_list("pk", flat=True))
        assert len(his) == 2
        boss = new_page()
        _login(boss, "mia")
        boss.goto("/staff/leads/")
        options = boss.inner_text("select[name=owner]")
        assert "赵强（已离职）" in options
        boss.goto(f"/staff/leads/?owner={zhao.pk}&status=open")
        assert boss.locator("table.lead-table tbody tr").count() == 2
        boss.goto("/staff/handover/")
        boss.select_option("select[name=from_user]", str(zhao.pk))
        boss.select_option("select[name=to_user]", str(li.pk))
        boss.click("[data-testid=handover-start]")
        boss.wait_for_selector("[data-testid=handover]")
        before = len(webhook.requests)
        _worker()
        boss.reload()
        boss.wait_for_selector("[data-testid=handover][data-status=done]")
        assert "2 / 2" in boss.inner_text("main") or "2 条" in boss.inner_text(
            "[data-testid=handover-progress]")
        assert set(Lead.objects.filter(pk__in=his).values_list("owner", flat=True)) == {li.pk}
        summaries = [m for m in webhook.requests[before:]
                     if "13900139000" in m["text"].get("mentioned_mobile_list", [])]
        assert len(summaries) == 1, [m["text"]["content"] for m in webhook.requests[before:]]
        boss.screenshot(path=str(shots / "week-handover.png"), full_page=True)
        boss_en = new_page(width=390, height=844)
        _login(boss_en, "mia")
        boss_en.goto("/en/staff/handover/")
        boss_en.wait_for_selector("[data-testid=handover-start]")
        assert boss_en.evaluate("document.documentElement.scrollWidth") <= 390
        boss_en.screenshot(path=str(shots / "week-handover-390-en.png"), full_page=True)
        # wang works one of his leads on Tuesday: it stays his.
        kept = next(lead for lead, owner in zip(leads, owners, strict=True)
                    if owner.pk == wang.pk and lead.pk != deal.pk)
        page = new_page()
        _login(page, "wang")
        page.goto(f"/staff/leads/{kept.public_id}/")
        page.select_option("#activity-form select[name=kind]", "call")
        page.select_option("#activity-form select[name=outcome]", "reached")
        page.click("#activity-form button[type=submit]")
        page.wait_for_selector(".timeline li.event-activity")

    wednesday = monday + dt.timedelta(days=2, minutes=10)
    with time_machine.travel(wednesday, tick=True):
        # --- Wednesday's tick: leads nobody touched for 8 working hours go back ----------
        # Monday's leads li never worked and the pool lead she claimed on Monday go back
        # (16 working hours); what wang worked and what li was handed on Tuesday stay
        # (under 8: Tuesday 09:30-18:00 less lunch is 7 hours, Wednesday until 09:40 one
        # more sixth).
        untouched = {lead.pk for lead, owner in zip(leads, owners, strict=True)
                     if owner.pk == li.pk} | {pooled.pk}
        before = len(webhook.requests)
        tasks.schedule_tick()
        _worker()
        assert set(Lead.objects.filter(status__in=OPEN_STATUSES, owner__isnull=True)
                   .values_list("pk", flat=True)) == untouched
        assert Lead.objects.get(pk=kept.pk).owner_id == wang.pk
        assert set(Lead.objects.filter(pk__in=his).values_list("owner", flat=True)) == {li.pk}
        assert Lead.objects.get(pk=deal.pk).owner_id == wang.pk  # won: not in the pool
        returned = [m["text"]["content"] for m in webhook.requests[before:]
                    if "公海" in m["text"]["content"]]
        assert returned, [m["text"]["content"] for m in webhook.requests[before:]]
        page = new_page()
        _login(page, "li")
        pool = Lead.objects.filter(owner=None, score="hot", status__in=OPEN_STATUSES).count()
        assert page.inner_text(".day-hot h2 .count") == str(pool)
        page.screenshot(path=str(shots / "week-my-day-wednesday.png"), full_page=True)
        phone = new_page(width=390, height=844)
        _login(phone, "li")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.screenshot(path=str(shots / "week-my-day-390.png"), full_page=True)
        desk_en = new_page()
        _login(desk_en, "li")
        desk_en.goto("/en/staff/")
        assert "new hot leads to take" in desk_en.inner_text(".day-summary")
        desk_en.screenshot(path=str(shots / "week-my-day-en.png"), full_page=True)
