"""Issue 24, finding 10: a rep sees phone, e-mail and WeChat ID only on the leads they own
(or have taken); on the others, the company and the plan, and a "reveal" that is recorded
on the lead's timeline and the audit page and lasts 30 minutes. Managers see everything.
The lead page, the lead search and the exports ask the same helper (staff.access)."""

import csv
import datetime as dt
import io

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from selector.leads.models import Lead, LeadEvent
from selector.leads.validators import phone_text
from selector.staff import access, permissions
from tests.conftest import make_lead

from .conftest import login

PHONE = "+8613912345678"
EMAIL = "li.na@xinghe.example.cn"
WECHAT = "lina_xinghe88"


def _lead(**fields):
    return make_lead(phone=PHONE, email=EMAIL, wechat=WECHAT, name="李娜",
                     company="深圳星河智算科技有限公司", **fields)


def detail(lead):
    return reverse("staff:lead_detail", args=[lead.public_id])


def _shows_contact(body: str) -> bool:
    secrets = (PHONE, phone_text(PHONE), EMAIL, WECHAT)
    shown = [s for s in secrets if s in body]
    assert not shown or len(shown) == len(secrets), shown  # all or nothing
    return bool(shown)


def test_a_rep_sees_the_contact_of_their_own_lead_only(client, sales, sales2, content):
    mine, theirs, pool = _lead(owner=sales), _lead(owner=sales2), _lead()
    login(client, sales)
    assert _shows_contact(client.get(detail(mine)).content.decode())
    for lead in (theirs, pool):
        body = client.get(detail(lead)).content.decode()
        assert not _shows_contact(body)
        assert "深圳星河智算科技有限公司" in body  # the company and the plan stay
        assert 'data-testid="reveal-contact"' in body
    # Taking the unassigned lead makes it theirs: the contact shows at once.
    client.post(reverse("staff:lead_take", args=[pool.public_id]))
    assert _shows_contact(client.get(detail(pool)).content.decode())


def test_managers_see_every_contact_without_revealing(client, manager, sales, content):
    lead = _lead(owner=sales)
    body = login(client, manager).get(detail(lead)).content.decode()
    assert _shows_contact(body)
    assert 'data-testid="reveal-contact"' not in body
    assert not LeadEvent.objects.filter(kind=LeadEvent.Kind.CONTACT_REVEALED).exists()


def test_revealing_is_audited_and_lasts_thirty_minutes(client, sales, sales2, manager,
                                                        content):
    lead = _lead(owner=sales2)
    version = lead.version
    login(client, sales)
    response = client.post(reverse("staff:lead_reveal", args=[lead.public_id]))
    assert response.status_code == 302
    event = LeadEvent.objects.get(lead=lead, kind=LeadEvent.Kind.CONTACT_REVEALED)
    assert event.actor == sales
    page = client.get(detail(lead)).content.decode()
    assert _shows_contact(page)
    assert "Contact details revealed" in page or "已查看联系方式" in page  # the timeline
    lead.refresh_from_db()
    assert lead.version == version  # not an edit: no conflict for the owner's open tab
    # The other rep is not given it by this reveal.
    assert not access.contact_visible(sales2, _lead(owner=sales))
    # 30 minutes later it is hidden again.
    LeadEvent.objects.filter(pk=event.pk).update(
        created_at=event.created_at - dt.timedelta(minutes=permissions.CONTACT_REVEAL_MINUTES,
                                                   seconds=1))
    assert not _shows_contact(client.get(detail(lead)).content.decode())
    # The managers' audit page lists who revealed which lead.
    audit = login(client, manager).get(reverse("staff:audit")).content.decode()
    assert lead.report_number in audit and 'id="reveals"' in audit


def test_revealing_a_merged_or_missing_lead_changes_nothing(client, sales, content):
    survivor = _lead()
    merged = _lead(merged_into=survivor)
    login(client, sales)
    client.post(reverse("staff:lead_reveal", args=[merged.public_id]))
    assert not LeadEvent.objects.filter(kind=LeadEvent.Kind.CONTACT_REVEALED).exists()
    missing = reverse("staff:lead_reveal", args=["00000000-0000-0000-0000-000000000000"])
    assert client.post(missing).status_code == 404
    assert client.get(reverse("staff:lead_reveal", args=[survivor.public_id])
                      ).status_code == 405


@pytest.mark.parametrize("q", [PHONE[3:], "139 1234 5678", EMAIL, WECHAT])
def test_search_by_contact_finds_only_leads_whose_contact_you_see(client, sales, sales2,
                                                                  manager, q, content):
    theirs = _lead(owner=sales2)
    mine = _lead(owner=sales)
    url = reverse("staff:lead_list") + "?" + f"q={q}"
    body = login(client, sales).get(url).content.decode()
    assert mine.report_number in body
    assert theirs.report_number not in body  # it would say whose number it is
    assert theirs.report_number in login(client, manager).get(url).content.decode()
    # Revealed: found like one's own.
    client.force_login(sales)
    client.post(reverse("staff:lead_reveal", args=[theirs.public_id]))
    assert theirs.report_number in client.get(url).content.decode()


def test_search_by_name_or_company_still_finds_every_lead(client, sales, sales2, content):
    theirs = _lead(owner=sales2)
    for q in ("星河智算", "李娜", theirs.report_number[-6:]):
        body = login(client, sales).get(reverse("staff:lead_list") + f"?q={q}").content
        assert theirs.report_number in body.decode(), q


def test_an_export_by_a_rep_leaves_out_the_contact_of_others_leads(client, sales, sales2,
                                                                   manager):
    sales.user_permissions.add(Permission.objects.get(codename="export_lead"))
    mine, theirs = _lead(owner=sales), _lead(owner=sales2)
    response = login(client, sales).get(reverse("staff:export_csv"))
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    table = {row[0]: row for row in csv.reader(io.StringIO(text))}
    assert phone_text(PHONE) in table[mine.report_number]
    assert EMAIL in table[mine.report_number]
    row = table[theirs.report_number]
    assert not {phone_text(PHONE), EMAIL, WECHAT} & set(row)
    assert "深圳星河智算科技有限公司" in row
    # A manager's export has them all.
    text = b"".join(login(client, manager).get(reverse("staff:export_csv"))
                    .streaming_content).decode("utf-8-sig")
    assert text.count(EMAIL) == 2


def test_the_scope_and_the_lead_check_agree(db, sales, sales2, manager):
    leads = [_lead(owner=sales), _lead(owner=sales2), _lead()]
    LeadEvent.objects.create(lead=leads[1], kind=LeadEvent.Kind.CONTACT_REVEALED, actor=sales)
    for user in (sales, sales2, manager):
        scope = access.contact_scope(user)
        in_scope = set(Lead.objects.filter(scope).values_list("pk", flat=True)) \
            if scope is not None else {lead.pk for lead in leads}
        assert in_scope == {lead.pk for lead in leads if access.contact_visible(user, lead)}
