import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from selector.leads import lifecycle
from selector.leads.models import Lead, LeadEvent, ReportPdf
from selector.staff import services
from selector.staff.models import LeadDeletion
from tests.conftest import make_lead

from .conftest import edit, login

FROZEN_COLUMN = '"frozen_recommendation"'


def detail(lead):
    return reverse("staff:lead_detail", args=[lead.public_id])


def test_it_shows_everything_about_the_lead(client, sales, content):
    from selector.domain import Answers
    from selector.leads.validators import phone_text
    from selector.planner.services import freeze, fresh

    rec = fresh(Answers.from_dict(make_lead().answers))
    lead = make_lead(frozen_recommendation=freeze(rec), message="<script>alert(1)</script>",
                     utm_source="baidu", consent_user_agent="Mozilla/5.0 test", owner=sales)
    response = login(client, sales).get(detail(lead))
    body = response.content.decode()
    assert response.status_code == 200
    plan = rec.recommended.plan
    for text in (lead.name, lead.company, lead.phone, lead.email, lead.report_number,
                 "Mozilla/5.0 test", "baidu", "2026-11-30", f"{plan.switches:,}",
                 f"{plan.modules:,}", plan.switch.model, "nv set qos roce mode lossless"):
        assert text in body
    assert f'href="tel:{lead.phone}">{phone_text(lead.phone)}</a>' in body  # +86 138 ...
    assert " " in phone_text(lead.phone)
    assert "<svg" in body  # the fabric diagram
    assert "<script>alert(1)</script>" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert "GPU 总数" in body or "Total GPUs" in body  # answer labels from explain.py
    # The customer's result page: the wizard's signed share link.
    assert "/wizard/r/" in body
    # The report download of the reports app.
    assert reverse("staff:lead_report", args=[lead.public_id]) in body


def test_status_change_writes_an_event(client, sales, lead):
    lead.owner = sales
    lead.save()
    response = login(client, sales).post(reverse("staff:lead_status", args=[lead.public_id]),
                                         edit(lead, {"status": "qualified"}))
    assert response.status_code == 302
    lead.refresh_from_db()
    assert lead.status == "qualified"
    event = lead.events.get(kind=LeadEvent.Kind.STATUS_CHANGED)
    assert (event.actor, event.data) == (sales, {"from": "new", "to": "qualified"})
    page = client.get(detail(lead)).content.decode()
    assert "sam" in page


def test_a_bad_status_is_a_400_not_a_500(client, sales, lead):
    lead.owner = sales
    lead.save()
    response = login(client, sales).post(reverse("staff:lead_status", args=[lead.public_id]),
                                         {"status": "'; DROP TABLE"})
    assert response.status_code == 400
    lead.refresh_from_db()
    assert lead.status == "new"


def test_notes_are_escaped_and_limited(client, sales, lead):
    login(client, sales)
    url = reverse("staff:lead_note", args=[lead.public_id])
    client.post(url, edit(lead, {"text": "<b>call back</b> 周三"}))
    assert lead.events.get(kind="note").data["text"] == "<b>call back</b> 周三"
    assert "&lt;b&gt;call back&lt;/b&gt; 周三" in client.get(detail(lead)).content.decode()
    assert client.post(url, edit(lead, {"text": "x" * 2001})).status_code == 400
    assert client.post(url, edit(lead, {"text": "   "})).status_code == 400
    assert lead.events.filter(kind="note").count() == 1


def test_sales_take_an_unassigned_lead_but_cannot_give_it_away(client, sales, sales2, lead):
    login(client, sales)
    url = reverse("staff:lead_assign", args=[lead.public_id])
    assert client.post(url, edit(lead, {"owner": str(sales.pk)})).status_code == 302
    lead.refresh_from_db()
    assert lead.owner == sales
    assert client.post(url, edit(lead, {"owner": str(sales2.pk)})).status_code == 400
    lead.refresh_from_db()
    assert lead.owner == sales


def test_managers_assign_to_anyone_but_only_to_team_members(client, manager, sales, outsider,
                                                           lead):
    login(client, manager)
    url = reverse("staff:lead_assign", args=[lead.public_id])
    assert client.post(url, edit(lead, {"owner": str(sales.pk)})).status_code == 302
    assert client.post(url, edit(lead, {"owner": str(outsider.pk)})).status_code == 400
    lead.refresh_from_db()
    assert lead.owner == sales


def test_services_check_the_role_rules_too(sales, sales2):
    lead = make_lead(owner=sales2)
    with pytest.raises(PermissionDenied):
        services.lead_change_status(lead=lead, status="won", actor=sales)
    with pytest.raises(PermissionDenied):
        services.lead_add_note(lead=lead, text="hi", actor=sales)
    with pytest.raises(PermissionDenied):
        services.lead_delete_on_request(lead=lead, actor=sales, reason="asked")
    with pytest.raises(PermissionDenied):
        services.leads_bulk_update(leads=[lead], actor=sales, status="won")
    assert Lead.objects.get(pk=lead.pk).status == "new"


def test_delete_asks_for_confirmation(client, manager, lead):
    login(client, manager)
    url = reverse("staff:lead_delete", args=[lead.public_id])
    page = client.get(url)
    assert page.status_code == 200 and lead.name in page.content.decode()
    response = client.post(url, {"reason": "customer asked"})  # no confirmation tick
    assert response.status_code == 400
    assert Lead.objects.filter(pk=lead.pk).exists()


def test_delete_removes_personal_data_keeps_an_anonymous_record(client, manager, lead):
    cached = ReportPdf.objects.create(lead=lead, language="zh-hans", version="test",
                                      claimed_at=timezone.now(), rendered_at=timezone.now(),
                                      content=b"%PDF- with the customer's name").pk
    services.lead_add_note(lead=lead, text="phoned 张伟", actor=manager)
    login(client, manager)
    response = client.post(reverse("staff:lead_delete", args=[lead.public_id]),
                           {"reason": "customer e-mail of 3 May", "confirm": "on"})
    assert response.status_code == 302
    assert not Lead.objects.filter(pk=lead.pk).exists()
    assert not LeadEvent.objects.filter(lead_id=lead.pk).exists()
    assert not ReportPdf.objects.filter(pk=cached).exists()  # its cached PDF went too
    record = LeadDeletion.objects.get()
    assert record.actor == manager and record.recommendation == lead.recommendation
    assert record.report_hash == services.report_hash(lead.report_number)
    stored = " ".join(str(v) for v in LeadDeletion.objects.values().get().values())
    for personal in (lead.name, lead.email, lead.phone, lead.company, lead.report_number):
        assert personal not in stored
    assert client.get(reverse("staff:lead_detail", args=[lead.public_id])).status_code == 404


def test_a_failure_deleting_cached_pdfs_rolls_the_deletion_back(manager, lead, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("database trouble")

    monkeypatch.setattr(lifecycle, "delete_cached_reports", boom)
    with pytest.raises(RuntimeError):
        services.lead_delete_on_request(lead=lead, actor=manager, reason="asked")
    assert Lead.objects.filter(pk=lead.pk).exists()
    assert not LeadDeletion.objects.exists()


def test_timeline_shows_every_event_kind(client, manager, lead):
    LeadEvent.objects.create(lead=lead, kind="notified", data={"channel": "email"})
    LeadEvent.objects.create(lead=lead, kind="report_downloaded", actor=manager)
    services.lead_assign(lead=lead, owner=manager, actor=manager)
    body = login(client, manager).get(f"/en/staff/leads/{lead.public_id}/").content.decode()
    for text in ("Created", "Sales notified", "Report downloaded", "Owner changed"):
        assert text in body


def test_the_page_title_is_only_the_title(client, sales, lead):
    """A template block closed in the wrong place once put the whole plan block inside
    <title>: browsers then rendered the page upside down."""
    import re

    page = login(client, sales).get(detail(lead)).content.decode()
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    assert "<" not in title and lead.report_number in title
    assert page.count("lead-plan-detail") == 1


def test_the_plan_block_is_cached_per_language_and_snapshot(client, sales, lead):
    """The frozen plan's markup is kept (like the result page's) under the language and the
    snapshot's digest: each language gets its own, another lead with the same plan the
    same markup, and the cached copy is what the page shows."""
    import re

    from selector.leads.snapshots import lead_recommendation
    from selector.planner.presenter import present

    def plan(page):
        return re.search(r'<section class="card lead-plan-detail">.*?</section>', page,
                         re.S).group(0)

    def page(lead, prefix=""):  # not reverse(): the /en/ request leaves English active
        return client.get(f"{prefix}/staff/leads/{lead.public_id}/").content.decode()

    login(client, sales)
    zh = plan(page(lead))
    en = plan(page(lead, "/en"))
    assert "网络方案、物料清单与调优" in zh and "Fabric, bill of materials and tuning" in en
    twin = make_lead(answers=lead.answers, frozen_recommendation=lead.frozen_recommendation)
    assert present(lead_recommendation(twin)).fragment_key == \
        present(lead_recommendation(lead)).fragment_key
    assert plan(page(twin)) == zh and plan(page(lead)) == zh and plan(page(twin, "/en")) == en


def test_the_duplicates_card_reads_only_what_it_shows(client, manager):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from selector.leads.models import DuplicateFlag

    lead, other = make_lead(), make_lead(name="另一个", frozen_recommendation={"big": "x" * 1000})
    DuplicateFlag.objects.create(lead=lead, other=other, reasons=["phone"])
    login(client, manager)
    with CaptureQueriesContext(connection) as ctx:
        page = client.get(f"/staff/leads/{lead.public_id}/").content.decode()
    assert other.report_number in page and "另一个" in page
    flag_sql = [q["sql"] for q in ctx.captured_queries if "leads_duplicateflag" in q["sql"]]
    assert flag_sql and not any(FROZEN_COLUMN in sql or '"answers"' in sql for sql in flag_sql)
