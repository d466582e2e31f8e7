"""The lead pool (公海) and routing (issue 24): new leads round robin over the manager's
team or into the pool; a rep claims a pool lead with one version-checked POST; an open
lead its owner has not touched returns to the pool on the tick."""

import threading

import pytest
from django.db import connection, connections

from selector.domain import Answers
from selector.leads import notify, services
from selector.leads.models import Lead, LeadEvent, RoutingRule
from selector.staff.models import StaffProfile
from selector.staff.permissions import SALES_GROUP
from tests.leads.conftest import ANSWERS, contact_data, make_session

from .conftest import make_user

CONTACT = {k: v for k, v in contact_data(phone="+8613812345678").items()
           if k not in {"consent", "website", "started"}}


def _create(ws=None):
    return services.lead_create(wizard_session=ws or make_session(),
                                answers=Answers.from_dict(ANSWERS), contact=CONTACT,
                                language="zh-hans")[0]


def _rule(team, **fields):
    rule = RoutingRule.objects.create(name="华南", mode=RoutingRule.Mode.ROUND_ROBIN,
                                      **fields)
    rule.team.set(team)
    return rule


@pytest.mark.django_db
def test_new_leads_round_robin_over_the_active_team(content, sales, sales2):
    gone = make_user("ray", SALES_GROUP, is_active=False)
    _rule([sales, sales2, gone])
    owners = [_create().owner for _ in range(5)]
    assert owners == [sales, sales2, sales, sales2, sales]  # the inactive rep is skipped
    lead = Lead.objects.get(pk=_create().pk)
    assert lead.owner == sales2
    event = lead.events.get(kind=LeadEvent.Kind.OWNER_CHANGED)
    assert event.data["to"] == "sue" and event.actor is None


@pytest.mark.django_db
def test_without_a_rule_or_in_pool_mode_new_leads_stay_in_the_pool(content, sales):
    assert _create().owner is None
    rule = _rule([sales])
    rule.mode = RoutingRule.Mode.POOL
    rule.save()
    assert Lead.objects.get(pk=_create().pk).owner is None


@pytest.mark.django_db
def test_one_rule_active_at_a_time(sales):
    from django.db import IntegrityError, transaction

    _rule([sales])
    with pytest.raises(IntegrityError), transaction.atomic():
        _rule([sales])


@pytest.mark.django_db
def test_the_new_lead_message_mentions_the_owner(content, sales, settings):
    sales.first_name, sales.last_name = "娜", "李"
    sales.save()
    StaffProfile.objects.create(user=sales, mobile="13800138000")
    _rule([sales])
    lead = Lead.objects.select_related("owner").get(pk=_create().pk)
    message = notify.new_lead_message(lead)
    assert message.mobiles == ("13800138000",)
    assert message.names == ("李娜",)
    body = notify.payload(message, "wecom")["text"]
    assert body["mentioned_mobile_list"] == ["13800138000"]
    dingtalk = notify.payload(message, "dingtalk")
    assert dingtalk["at"]["atMobiles"] == ["13800138000"]
    assert "@13800138000" in dingtalk["markdown"]["text"]
    settings.LEAD_WEBHOOK_LANGUAGE = "zh-hans"
    assert "负责人：李娜" in notify.new_lead_message(lead).lines


@pytest.mark.django_db
def test_feishu_mentions_the_owner_by_the_user_id_in_the_profile(content, sales):
    """Feishu's custom robots @mention with <at user_id="…">name</at> in a text message
    (自定义机器人使用指南); without an id the name is plain text, as before (issue 24)."""
    sales.first_name, sales.last_name = "娜", "李"
    sales.save()
    StaffProfile.objects.create(user=sales, mobile="13800138000",
                                feishu_user_id="ou_7d8a6e6df7621556ce0d21922b676706")
    _rule([sales])
    lead = Lead.objects.select_related("owner").get(pk=_create().pk)
    text = notify.payload(notify.new_lead_message(lead), "feishu")["content"]["text"]
    assert '<at user_id="ou_7d8a6e6df7621556ce0d21922b676706">李娜</at>' in text
    StaffProfile.objects.filter(user=sales).update(feishu_user_id="")
    lead = Lead.objects.select_related("owner__staff_profile").get(pk=lead.pk)
    text = notify.payload(notify.new_lead_message(lead), "feishu")["content"]["text"]
    assert "<at" not in text and "@李娜" in text


@pytest.mark.parametrize("name, feishu_id", [
    ('<at user_id="all">所有人</at>', "ou_1"),  # a name cannot mention everyone
    ("李娜", 'ou_1"><at user_id="all'),  # nor an id that slipped past the form
    ("李娜", ""),
])
def test_a_feishu_mention_never_forms_a_tag_from_user_text(name, feishu_id):
    message = notify.Message(title="t", lines=(), link="https://x.example/l", link_text="l",
                             names=(name,), feishu_ids=(feishu_id,))
    text = notify.payload(message, "feishu")["content"]["text"]
    assert 'user_id="all"' not in text
    assert text.count("<at ") == (1 if feishu_id == "ou_1" else 0)


@pytest.mark.django_db
def test_a_pool_lead_message_says_it_is_in_the_pool(content, settings):
    settings.LEAD_WEBHOOK_LANGUAGE = "zh-hans"
    message = notify.new_lead_message(Lead.objects.get(pk=_create().pk))
    assert message.mobiles == () and message.names == ()
    assert any("公海" in line for line in message.lines)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
@pytest.mark.django_db(transaction=True)
def test_concurrent_lead_creation_keeps_the_round_robin_fair(content):
    """Six leads created at once over a team of three: each rep gets exactly two (the
    rule's row lock serialises the turns; without it racers read the same cursor)."""
    from django.apps import apps
    from django.core.management import call_command

    from selector.staff.roles import ensure_roles
    ensure_roles(apps)
    call_command("load_content", force=True, verbosity=0)
    team = [make_user(f"r{i}", SALES_GROUP) for i in range(3)]
    _rule(team)
    sessions = [make_session() for _ in range(6)]
    barrier = threading.Barrier(6)
    errors = []

    def run(i):
        try:
            barrier.wait(timeout=30)
            _create(sessions[i])
        except Exception as exc:  # asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    counts = {u.username: Lead.objects.filter(owner=u).count() for u in team}
    assert counts == {"r0": 2, "r1": 2, "r2": 2}


@pytest.mark.django_db
def test_the_manager_page_states_the_active_rule(client, manager, sales, sales2):
    from .conftest import login

    login(client, manager)
    page = client.get("/staff/pipeline/").content.decode()
    assert "没有启用的分配规则：新线索进入公海。" in page
    sales2.first_name, sales2.last_name = "娜", "李"
    sales2.save()
    _rule([sales, sales2], return_after_hours=48)
    page = client.get("/staff/pipeline/").content.decode()
    assert "规则“华南”：新线索在 sam、李娜 之间轮流分配。" in page
    assert "负责人 48 个工作小时未跟进的进行中线索退回公海。" in page
    page = client.get("/en/staff/pipeline/").content.decode()
    assert "Rule 华南: new leads round robin over sam, 李娜." in page
    assert "not touched for 48 working hours returns to the pool." in page


def _take(client, lead, version):
    from django.urls import reverse

    return client.post(reverse("staff:lead_take", args=[lead.public_id]),
                       {"version": str(version)}, follow=True)


@pytest.mark.django_db
def test_a_rep_claims_a_pool_lead_with_one_post(client, sales, sales2, lead):
    from .conftest import login

    login(client, sales)
    page = client.get(f"/staff/leads/{lead.public_id}/").content.decode()
    assert f'name="version" value="{lead.version}"' in page  # the claim form carries it
    response = _take(client, lead, lead.version)
    assert "你已接手该线索。" in response.content.decode()
    lead.refresh_from_db()
    assert lead.owner == sales and lead.version == 2
    event = lead.events.get(kind=LeadEvent.Kind.OWNER_CHANGED)
    assert event.actor == sales and event.data == {"from": None, "to": "sam"}
    # A colleague's claim from an older page: refused, and told who has it.
    login(client, sales2)
    page = _take(client, lead, 1).content.decode()
    assert "该线索已被 sam 接手。" in page
    lead.refresh_from_db()
    assert lead.owner == sales


@pytest.mark.django_db
def test_a_claim_on_an_older_version_of_a_pool_lead_is_refused_as_stale(client, manager,
                                                                        sales, lead):
    from selector.staff import services as staff_services

    from .conftest import login

    staff_services.lead_add_note(lead=lead, text="客户在出差", actor=manager, version=1)
    login(client, sales)
    for version in (1, "x"):
        page = _take(client, lead, version).content.decode()
        assert 'data-testid="conflict"' in page
        lead.refresh_from_db()
        assert lead.owner is None and lead.version == 2


@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
@pytest.mark.django_db(transaction=True)
def test_two_reps_claiming_at_once_exactly_one_wins(content):
    """Both POST the claim on the same version at the same moment: the row lock lets one
    through; the other is told who has the lead, and nothing of theirs is saved."""
    from django.apps import apps
    from django.contrib.contenttypes.models import ContentType
    from django.test import Client

    from selector.staff.roles import ensure_roles
    from tests.conftest import make_lead

    ContentType.objects.clear_cache()  # an earlier flush renumbered the content types
    ensure_roles(apps)
    reps = [make_user(f"c{i}", SALES_GROUP) for i in range(4)]
    lead = make_lead()
    barrier = threading.Barrier(len(reps))
    pages, errors = {}, []

    def run(i):
        try:
            browser = Client()
            browser.force_login(reps[i])
            barrier.wait(timeout=30)
            pages[i] = _take(browser, lead, 1).content.decode()
        except Exception as exc:  # asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(reps))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    lead.refresh_from_db()
    assert lead.owner in reps and lead.version == 2
    assert lead.events.filter(kind=LeadEvent.Kind.OWNER_CHANGED).count() == 1
    losers = [pages[i] for i, rep in enumerate(reps) if rep != lead.owner]
    assert len(losers) == 3
    assert all(f"该线索已被 {lead.owner.username} 接手。" in p for p in losers)


def _at(text):
    import datetime as dt
    from zoneinfo import ZoneInfo

    return dt.datetime.fromisoformat(text).replace(tzinfo=ZoneInfo("Asia/Shanghai"))


def _owned(owner, *, seen, **fields):
    from tests.conftest import make_lead

    lead = make_lead(owner=owner, **fields)
    Lead.objects.filter(pk=lead.pk).update(created_at=seen, last_activity_at=seen)
    return lead


@pytest.mark.django_db
def test_untouched_leads_return_to_the_pool_on_the_tick(client, content, manager, sales,
                                                        sales2, mailoutbox):
    from selector.leads.models import Status
    from selector.staff import tasks

    from .conftest import login

    now = _at("2026-12-02 11:00")  # a Wednesday
    _rule([sales, sales2], return_after_hours=8)
    old = _owned(sales, seen=_at("2026-11-20 10:00"))
    fresh = _owned(sales, seen=_at("2026-12-02 10:00"))
    claimed = _owned(sales2, seen=_at("2026-11-20 10:00"))
    event = LeadEvent.objects.create(lead=claimed, kind=LeadEvent.Kind.OWNER_CHANGED,
                                     actor=sales2, data={"from": None, "to": "sue"})
    LeadEvent.objects.filter(pk=event.pk).update(created_at=_at("2026-12-02 09:30"))
    won = _owned(sales2, seen=_at("2026-11-20 10:00"), status=Status.WON)
    other = _owned(sales2, seen=_at("2026-11-25 10:00"))

    result = tasks.run_tick(now)
    assert result["returned_to_pool"] == 2
    owners = dict(Lead.objects.values_list("pk", "owner_id"))
    assert owners[old.pk] is None and owners[other.pk] is None
    assert owners[fresh.pk] == sales.pk and owners[claimed.pk] == sales2.pk
    assert owners[won.pk] == sales2.pk
    back = old.events.get(kind=LeadEvent.Kind.OWNER_CHANGED)
    assert back.actor is None and back.data["returned_to_pool"] and back.data["from"] == "sam"
    assert Lead.objects.get(pk=old.pk).version == old.version + 1
    # One summary per rep, in the rep's language.
    returns = [m for m in mailoutbox if "退回公海" in m.subject]
    assert sorted(m.to[0] for m in returns) == ["sam@example.com", "sue@example.com"]
    sam_mail = next(m for m in returns if m.to == ["sam@example.com"])
    assert sam_mail.subject == "sam 的 1 条线索已退回公海"
    assert old.report_number in sam_mail.body and fresh.report_number not in sam_mail.body
    # The timeline says so; the lead is in the pool for anyone to claim.
    login(client, manager)
    page = client.get(f"/staff/leads/{old.public_id}/").content.decode()
    assert "已退回公海：sam 已 8 个工作小时未跟进" in page
    assert tasks.run_tick(now)["returned_to_pool"] == 0  # nothing twice
    assert len([m for m in mailoutbox if "退回公海" in m.subject]) == 2


@pytest.mark.django_db
def test_the_return_counts_working_hours_not_the_weekend(content, sales, mailoutbox):
    from selector.staff import sweeps

    _rule([sales], return_after_hours=4)
    lead = _owned(sales, seen=_at("2026-11-27 17:30"))  # a Friday, 30 minutes before 18:00
    # Monday 09:30: 64 clock hours, one working hour.
    assert sweeps.return_to_pool(_at("2026-11-30 09:30")) == 0
    assert Lead.objects.get(pk=lead.pk).owner == sales
    # Monday 14:30: 0.5 + 3 + 1 working hours.
    assert sweeps.return_to_pool(_at("2026-11-30 14:30")) == 1
    assert Lead.objects.get(pk=lead.pk).owner is None


@pytest.mark.django_db
def test_a_lead_edited_meanwhile_stays_with_its_owner(content, sales, monkeypatch):
    """The tick read the lead, then the rep logged a call: the conditional UPDATE on the
    version it read moves nothing."""
    from selector.staff import services as staff_services
    from selector.staff import sweeps

    _rule([sales], return_after_hours=8)
    lead = _owned(sales, seen=_at("2026-11-20 10:00"))
    real = sweeps.untouched_leads

    def then_a_call(hours, now=None):
        rows = list(real(hours, now).select_related("owner"))
        staff_services.lead_log_activity(lead=lead, actor=sales, kind="call",
                                         outcome="reached")
        return _Rows(rows)

    class _Rows(list):
        def select_related(self, *args):
            return self

    monkeypatch.setattr(sweeps, "untouched_leads", then_a_call)
    assert sweeps.return_to_pool(_at("2026-12-02 11:00")) == 0
    assert Lead.objects.get(pk=lead.pk).owner == sales


@pytest.mark.django_db
def test_managers_edit_the_routing_rules_in_the_admin_reps_do_not(client, sales):
    from selector.staff.permissions import MANAGERS_GROUP

    boss = make_user("boss", MANAGERS_GROUP, is_staff=True)
    client.force_login(boss)
    response = client.post("/admin/leads/routingrule/add/", {
        "name": "全国", "mode": "round_robin", "team": [str(sales.pk)], "active": "on",
        "return_after_hours": "16"})
    assert response.status_code == 302
    rule = RoutingRule.objects.get()
    assert (rule.mode, list(rule.team.all()), rule.return_after_hours) == (
        "round_robin", [sales], 16)
    rep = make_user("rita", SALES_GROUP, is_staff=True)
    client.force_login(rep)
    assert client.post("/admin/leads/routingrule/add/", {
        "name": "x", "mode": "pool", "active": ""}).status_code == 403
    assert client.post(f"/admin/leads/routingrule/{rule.pk}/change/", {
        "name": "x", "mode": "pool", "active": ""}).status_code == 403
    assert RoutingRule.objects.get().name == "全国"


@pytest.mark.django_db
def test_the_timeline_names_the_routing_rule(client, content, manager, sales):
    from .conftest import login

    _rule([sales])
    lead = _create()
    login(client, manager)
    page = client.get(f"/staff/leads/{lead.public_id}/").content.decode()
    assert "按分配规则“华南”分配给 sam" in page
