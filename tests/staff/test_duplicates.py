"""Duplicates: flagged at lead creation (phone, e-mail, company similarity), merged by
managers, the customer-side exactly-once guarantee kept."""

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

from .conftest import login, make_lead

ANSWERS = {"gpus": 256, "gpus_per_server": 8, "workload": "training", "budget": "balanced",
           "determinism": "standard", "throughput_limited": False, "nic_speed": 400}


def _submit(**contact):
    data = {"name": "张伟", "company": "深圳算力科技有限公司", "phone": "+8613812345678",
            "email": "zhang.wei@example.com", "role": "CTO", "timeline": "0-3m",
            "wechat": "", "message": ""}
    data.update(contact)
    ws = WizardSession.objects.create(answers=dict(ANSWERS), furthest_step=6)
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
    flag = DuplicateFlag.objects.get(lead=similar)
    assert (flag.other, flag.reasons, flag.similarity) == (first, ["company"], 1.0)
    flag = DuplicateFlag.objects.get(lead=closer)
    assert flag.other == close and 0.6 <= flag.similarity < 1
    assert not DuplicateFlag.objects.filter(lead=different).exists()


def test_a_company_with_many_leads_flags_its_newest_ones(db):
    """A big customer: every earlier lead of the company matches; the newest MAX_FLAGS
    are flagged (phone/e-mail matches would still come first)."""
    from selector.leads.duplicates import MAX_FLAGS

    earlier = [_submit(company="Nimbus Compute Co., Ltd.", phone=f"+861380000{n:04d}",
                       email=f"n{n}@nimbus.example") for n in range(MAX_FLAGS + 2)]
    new = _submit(company="NIMBUS COMPUTE LIMITED", phone="+8613900009999",
                  email="new@nimbus.example")
    flags = DuplicateFlag.objects.filter(lead=new)
    assert {f.other_id for f in flags} == {lead.pk for lead in earlier[-MAX_FLAGS:]}
    assert {(tuple(f.reasons), f.similarity) for f in flags} == {(("company",), 1.0)}


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
    ws = WizardSession.objects.create(answers=dict(ANSWERS), furthest_step=6)
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
        {"other": other.report_number, "keep": "this", "confirm": "on"})
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


def test_the_possible_duplicates_filter_lists_both_sides_of_open_flags(client, manager):
    from django.utils import timezone

    a, b, c, d, e = (make_lead() for _ in range(5))
    DuplicateFlag.objects.create(lead=b, other=a, reasons=["phone"])
    DuplicateFlag.objects.create(lead=d, other=c, reasons=["email"],
                                 dismissed_at=timezone.now())
    DuplicateFlag.objects.create(lead=e, other=b, reasons=["company"], similarity=0.8)
    response = login(client, manager).get(reverse("staff:lead_list"),
                                          {"follow_up": "duplicates"})
    assert {x.pk for x in response.context["page"].object_list} == {a.pk, b.pk, e.pk}
    assert response.context["counted"].count == 3
