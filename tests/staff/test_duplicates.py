"""Duplicates: flagged at lead creation (the same person: phone, e-mail, WeChat ID, or the
name at the same or a similar company), merged by managers, the customer-side exactly-once
guarantee kept. Other people at one company are colleagues, not duplicates
(tests/staff/test_duplicate_precision.py)."""

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.urls import reverse

from selector.domain import Answers
from selector.leads.duplicates import company_key
from selector.leads.models import DuplicateFlag, Lead, LeadEvent
from selector.leads.services import lead_create
from selector.staff.services import leads_merge
from selector.wizard.models import WizardSession
from tests.conftest import make_lead

from .conftest import edit, login

ANSWERS = {"gpus": 256, "gpus_per_server": 8, "workload": "training", "budget": "balanced",
           "determinism": "standard", "throughput_limited": False, "nic_speed": 400}


def _submit(**contact):
    data = {"name": "张伟", "company": "深圳算力科技有限公司", "phone": "+8613812345678",
            "email": "zhang.wei@example.com", "role": "CTO", "timeline": "0-3m",
            "wechat": "", "message": ""}
    data.update(contact)
    ws = WizardSession.objects.create(answers=dict(ANSWERS), furthest_step="result")
    lead, created = lead_create(wizard_session=ws, answers=Answers.from_dict(ANSWERS),
                                contact=data, language="zh-hans")
    return lead


@pytest.mark.parametrize("name,key", [
    ("星云智算科技（深圳）有限公司", "星云智算科技"),
    ("星云智算科技股份有限公司", "星云智算科技"),
    ("Nimbus Compute Co., Ltd.", "nimbuscompute"),
    ("NIMBUS COMPUTE LIMITED", "nimbuscompute"),
    ("Ｎｉｍｂｕｓ　Ｃｏｍｐｕｔｅ", "nimbuscompute"),
])
def test_company_names_are_normalised(name, key):
    assert company_key(name) == key


def test_same_phone_email_or_company_flags_both_leads(db):
    first = _submit()
    by_phone = _submit(email="other@example.com", company="别的公司")
    by_email = _submit(phone="+8613900000000", email="ZHANG.WEI@example.com",
                       company="另一家公司")
    unrelated = _submit(phone="+8613700000000", email="x@example.org", company="无关企业")
    assert set(DuplicateFlag.objects.filter(lead=by_phone).values_list("other", flat=True)) \
        == {first.pk}
    assert DuplicateFlag.objects.get(lead=by_phone, other=first).reasons == ["phone"]
    assert DuplicateFlag.objects.get(lead=by_email, other=first).reasons == ["email"]
    assert not DuplicateFlag.objects.filter(lead=unrelated).exists()
    texts = LeadEvent.objects.filter(lead=first, kind="duplicate_flagged")
    assert {e.data["other"] for e in texts} >= {by_phone.report_number, by_email.report_number}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="pg_trgm similarity")
def test_similar_company_names_match_by_trigram_similarity(db):
    first = _submit(company="星云智算科技（深圳）有限公司", phone="+8613800000001",
                    email="a@example.com")
    similar = _submit(company="星云智算科技有限公司", phone="+8613800000002",
                      email="b@example.com")
    close = _submit(company="Nimbus Compute Co., Ltd.", phone="+8613800000003",
                    email="c@example.com")
    closer = _submit(company="Nimbus Computer Ltd", phone="+8613800000004",
                     email="d@example.com")
    different = _submit(company="星海数据服务有限公司", phone="+8613800000005",
                        email="e@example.com")
    # The same name (the default 张伟) at the same company written two ways.
    flag = DuplicateFlag.objects.get(lead=similar)
    assert (flag.other, flag.reasons, flag.similarity) == (first, ["name"], 1.0)
    flag = DuplicateFlag.objects.get(lead=closer)
    assert flag.other == close and 0.6 <= flag.similarity < 1
    assert not DuplicateFlag.objects.filter(lead=different).exists()


def test_a_company_with_many_leads_flags_only_the_same_person(db):
    """A big customer: its other people are colleagues (no flag); the same person at the
    company, with a new phone and e-mail, is flagged by name (the newest MAX_FLAGS)."""
    from selector.leads.duplicates import MAX_FLAGS, colleagues

    earlier = [_submit(name=f"同事{n}", company="Nimbus Compute Co., Ltd.",
                       phone=f"+861380000{n:04d}", email=f"n{n}@nimbus.example")
               for n in range(MAX_FLAGS + 2)]
    new = _submit(name="Li Na", company="NIMBUS COMPUTE LIMITED", phone="+8613900009999",
                  email="new@nimbus.example")
    assert not DuplicateFlag.objects.filter(lead=new).exists()
    shown, count = colleagues(new)
    assert count == len(earlier) and {c.pk for c in shown} <= {e.pk for e in earlier}
    again = _submit(name="li na", company="Nimbus Compute Ltd", phone="+8613900008888",
                    email="li.na@nimbus.example")
    flag = DuplicateFlag.objects.get(lead=again)
    assert (flag.other, flag.reasons, flag.similarity) == (new, ["name"], 1.0)


def test_the_notification_names_the_duplicate(db, settings, mailoutbox,
                                              django_capture_on_commit_callbacks):
    settings.SALES_NOTIFY_EMAILS = ["sales@example.com"]
    first = _submit()
    with django_capture_on_commit_callbacks(execute=True):
        second = _submit()
    body = mailoutbox[-1].body
    assert f"Possible duplicate of: {first.report_number}" in body
    assert f"/staff/leads/{second.public_id}/" in body


def test_a_resubmission_of_the_same_session_is_not_a_duplicate(db):
    ws = WizardSession.objects.create(answers=dict(ANSWERS), furthest_step="result")
    contact = {"name": "张伟", "company": "深圳算力科技有限公司", "phone": "+8613812345678",
               "email": "zhang.wei@example.com", "role": "CTO", "timeline": "0-3m"}
    a, created_a = lead_create(wizard_session=ws, answers=Answers.from_dict(ANSWERS),
                               contact=contact, language="zh-hans")
    b, created_b = lead_create(wizard_session=ws, answers=Answers.from_dict(ANSWERS),
                               contact=contact, language="zh-hans")
    assert (a.pk, created_a, created_b) == (b.pk, True, False)
    assert Lead.objects.count() == 1 and not DuplicateFlag.objects.exists()


def test_managers_merge_events_consent_and_downloads_move(client, manager, sales):
    survivor = make_lead(name="保留", phone="+8613800000001", wechat="")
    other = make_lead(name="合并", phone="+8613800000002", wechat="wx_other",
                      consent_user_agent="Mozilla/5.0 test")
    DuplicateFlag.objects.create(lead=other, other=survivor, reasons=["company"])
    LeadEvent.objects.create(lead=other, kind="report_downloaded", data={"via": "customer"})
    LeadEvent.objects.create(lead=other, kind="note", actor=sales, data={"text": "老客户"})
    response = login(client, manager).post(
        reverse("staff:lead_merge", args=[survivor.public_id]),
        edit(survivor, {"other": other.report_number, "keep": "this", "confirm": "on"}))
    assert response.status_code == 302
    other.refresh_from_db()
    survivor.refresh_from_db()
    assert other.merged_into == survivor
    assert survivor.wechat == "wx_other"
    kinds = list(survivor.events.values_list("kind", flat=True))
    assert kinds.count("created") == 2 and "report_downloaded" in kinds and "note" in kinds
    merged = survivor.events.get(kind="merged").data
    assert merged["merged"]["report_number"] == other.report_number
    assert merged["consent"]["user_agent"] == "Mozilla/5.0 test"
    assert merged["consent"]["notice_version"] == other.consent_notice_version
    assert list(other.events.values_list("kind", flat=True)) == ["merged"]
    assert not DuplicateFlag.objects.exists()
    page = client.get(reverse("staff:lead_detail", args=[survivor.public_id])).content
    assert other.report_number.encode() in page


def test_sales_cannot_merge_and_a_lead_cannot_be_merged_twice(sales, manager):
    a, b, c = make_lead(), make_lead(), make_lead()
    with pytest.raises(PermissionDenied):
        leads_merge(survivor=a, other=b, actor=sales)
    leads_merge(survivor=a, other=b, actor=manager)
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        leads_merge(survivor=c, other=b, actor=manager)
    leads_merge(survivor=c, other=a, actor=manager)  # b now points at c too
    assert Lead.objects.get(pk=b.pk).merged_into_id == c.pk


def test_deleting_a_survivor_on_request_deletes_its_merged_duplicates(manager):
    from selector.staff.services import lead_delete_on_request

    a, b = make_lead(), make_lead()
    leads_merge(survivor=a, other=b, actor=manager)
    lead_delete_on_request(lead=a, actor=manager, reason="客户要求")
    assert not Lead.objects.filter(pk__in=[a.pk, b.pk]).exists()


def _listed(client, **params):
    response = client.get(reverse("staff:lead_list"), params)
    page = response.content.decode()
    return {x.pk: f'<a href="{x.detail_url}">{x.name}</a> <span class="badge dup">' in page
            for x in response.context["page"].object_list}


def test_the_badge_and_the_filter_follow_flags_through_dismiss_merge_and_delete(
        client, manager):
    """Lead.possible_duplicate (the list's badge and its "possible duplicates" filter)
    follows the open flags: set on both leads at creation, cleared when dismissing,
    merging or deleting leaves a lead no open flag."""
    from selector.staff.services import duplicate_dismiss, lead_delete_on_request

    a = _submit(name="甲", phone="+8613800000001", email="a@example.com", company="甲公司")
    b = _submit(name="乙", phone="+8613800000001", email="b@example.com", company="乙公司")
    c = _submit(name="丙", phone="+8613800000003", email="c@example.com", company="丙公司")
    d = _submit(name="丁", phone="+8613800000004", email="d@example.com", company="丁公司")
    e = _submit(name="戊", phone="+8613800000005", email="d@example.com", company="戊公司")
    login(client, manager)
    assert _listed(client, follow_up="duplicates") == {a.pk: True, b.pk: True, d.pk: True,
                                                       e.pk: True}
    assert _listed(client)[c.pk] is False
    duplicate_dismiss(flag=DuplicateFlag.objects.get(lead=e, other=d), actor=manager)
    assert _listed(client, follow_up="duplicates") == {a.pk: True, b.pk: True}
    assert _listed(client)[e.pk] is False
    f = _submit(name="己", phone="+8613800000006", email="c@example.com", company="己公司")
    assert set(_listed(client, follow_up="duplicates")) == {a.pk, b.pk, c.pk, f.pk}
    leads_merge(survivor=a, other=b, actor=manager)  # their only flag was with each other
    assert set(_listed(client, follow_up="duplicates")) == {c.pk, f.pk}
    lead_delete_on_request(lead=f, actor=manager, reason="客户要求")
    assert _listed(client, follow_up="duplicates") == {}
    assert not Lead.objects.filter(possible_duplicate=True).exists()


def test_merging_two_leads_flagged_with_the_same_third_keeps_one_flag(manager):
    """A resubmission (other) and the first lead (survivor) both flagged with a third lead
    (the same phone): merging moved the other's flag onto the survivor's pair (a unique
    violation, so the merge failed)."""
    colleague = _submit(name="同事", phone="+8613800000012", email="x@example.com")
    survivor = _submit(name="张伟", phone="+8613800000012", email="z@example.com")
    other = _submit(name="张伟", phone="+8613800000012", email="z@example.com")
    assert DuplicateFlag.objects.filter(lead=survivor, other=colleague).exists()
    assert DuplicateFlag.objects.filter(lead=other, other=colleague).exists()
    leads_merge(survivor=survivor, other=other, actor=manager)
    assert list(DuplicateFlag.objects.values_list("lead", "other")) == [
        (survivor.pk, colleague.pk)]
    assert Lead.objects.get(pk=other.pk).merged_into_id == survivor.pk
    assert Lead.objects.filter(possible_duplicate=True).count() == 2
