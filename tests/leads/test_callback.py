"""Talk to an engineer (issue 26, finding 10): the WeCom customer-acquisition link from the
company profile, tagged with the report number (customer_channel), on the result and
thank-you pages; a call-back request with a preferred time on the thank-you page, which
becomes the lead's next action, starts the SLA clock where none runs, and tells sales
(group robot without personal data, e-mail with the customer's note made plain)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from selector.content.models import (
    CompanyProfile,
    validate_wecom_link,
    wecom_link_with_channel,
)
from selector.leads.callback import LOCAL_FORMAT, MAX_REQUESTS
from selector.leads.models import Lead, LeadEvent, NextActionKind

from .conftest import attach, contact_data, make_session

WECOM = "https://work.weixin.qq.com/ca/cawcde0123456789"
CALLBACK = "/contact/thanks/callback/"


@pytest.fixture
def wecom(content):
    profile = CompanyProfile.objects.get()
    profile.wecom_link = WECOM
    profile.save()
    return profile


@pytest.fixture
def submitted(client, ws, content, settings):
    """A browser that has just submitted its lead (on the thank-you page)."""
    settings.SALES_NOTIFY_EMAILS = ["sales@example.com"]
    attach(client, ws)
    response = client.post("/contact/", contact_data(client))
    assert response.status_code == 302
    mail.outbox.clear()
    return client


def _local(moment: dt.datetime) -> str:
    return timezone.localtime(moment).strftime(LOCAL_FORMAT)


def _tomorrow_ten() -> dt.datetime:
    now = timezone.localtime()
    return (now + dt.timedelta(days=1)).replace(hour=10, minute=0, second=0, microsecond=0)


def test_the_channel_tag_follows_wecoms_rules():
    assert wecom_link_with_channel(WECOM, "SH-20261203-AB12") == (
        WECOM + "?customer_channel=SH-20261203-AB12")
    # A link that already has a query (comp_scene) gets the tag after it.
    assert wecom_link_with_channel(WECOM + "?comp_scene=x", "R1") == (
        WECOM + "?comp_scene=x&customer_channel=R1")
    # At most 64 bytes, only letters, digits, - and _ (nothing to inject into the URL).
    tagged = wecom_link_with_channel(WECOM, "a" * 100 + "&x=1 <b>")
    assert tagged == WECOM + "?customer_channel=" + "a" * 64
    assert wecom_link_with_channel("", "R1") == ""
    with pytest.raises(ValidationError):
        validate_wecom_link("https://evil.example/ca/x")
    validate_wecom_link(WECOM)


def test_the_thank_you_page_offers_wecom_tagged_with_the_report_number(submitted, wecom):
    lead = Lead.objects.get()
    html = submitted.get("/contact/thanks/").content.decode()
    assert 'data-testid="talk-to-engineer"' in html
    assert f'href="{WECOM}?customer_channel={lead.report_number}"' in html
    assert "在企业微信添加工程师" in html
    assert 'type="datetime-local"' in html and f'action="{CALLBACK}"' in html


def test_without_a_wecom_link_the_call_back_is_offered(submitted):
    html = submitted.get("/contact/thanks/").content.decode()
    assert 'data-testid="wecom-link"' not in html
    assert "预约回电" in html


def test_a_call_back_becomes_the_next_action_and_starts_the_clock(submitted, settings):
    lead = Lead.objects.get()
    Lead.objects.filter(pk=lead.pk).update(sla_due=None)  # a score without an SLA
    version = Lead.objects.get().version
    at = _tomorrow_ten()
    response = submitted.post(CALLBACK, {"preferred": _local(at), "note": "8 台 H100 的报价"})
    assert response.status_code == 303 and response["Location"] == "/contact/thanks/#talk"
    lead = Lead.objects.get()
    assert (lead.next_action_kind, lead.next_action_due) == (NextActionKind.CALL, at)
    assert lead.next_action_note == "8 台 H100 的报价"
    assert lead.sla_due == at
    assert lead.version == version + 1
    event = lead.events.get(kind=LeadEvent.Kind.CALLBACK_REQUESTED)
    assert event.actor is None
    assert event.data == {"due": at.isoformat(), "next_action": True, "sla_started": True,
                          "note": "8 台 H100 的报价"}
    html = submitted.get("/contact/thanks/").content.decode()
    assert f"我们将在 {at:%Y-%m-%d} 10:00（北京时间）给您来电。" in html


def test_a_running_clock_and_an_earlier_plan_of_sales_stay(submitted):
    lead = Lead.objects.get()
    sla_due = lead.sla_due
    assert sla_due is not None  # the SLA runs from the lead's creation
    soon = timezone.now() + dt.timedelta(hours=1)
    Lead.objects.filter(pk=lead.pk).update(next_action_kind=NextActionKind.EMAIL,
                                           next_action_due=soon, next_action_note="rep")
    submitted.post(CALLBACK, {"preferred": _local(_tomorrow_ten())})
    lead = Lead.objects.get()
    assert (lead.next_action_kind, lead.next_action_due, lead.next_action_note) == (
        NextActionKind.EMAIL, soon, "rep")
    assert lead.sla_due == sla_due
    assert lead.events.get(kind=LeadEvent.Kind.CALLBACK_REQUESTED).data["next_action"] is False


@pytest.mark.parametrize("preferred", [
    "", "tomorrow", "2026-13-40T10:00", "1999-01-01T10:00", "2999-01-01T10:00", "x" * 5000,
    "now",
])
def test_a_bad_time_is_refused_and_records_nothing(submitted, preferred):
    if preferred == "now":
        preferred = _local(timezone.now())
    response = submitted.post(CALLBACK, {"preferred": preferred, "note": "hi"})
    assert response.status_code == 303 and response["Location"] == "/contact/thanks/#talk"
    html = submitted.get("/contact/thanks/").content.decode()
    assert 'class="field-error" role="alert"' in html
    assert 'value="hi"' in html  # what was typed is kept
    # Shown once: a reload shows the form without the error.
    assert 'class="field-error"' not in submitted.get("/contact/thanks/").content.decode()
    assert not LeadEvent.objects.filter(kind=LeadEvent.Kind.CALLBACK_REQUESTED).exists()
    assert Lead.objects.get().next_action_due is None


def test_a_long_or_control_character_note_is_refused(submitted):
    at = _local(_tomorrow_ten())
    for note in ("x" * 201, "hi\x00there"):
        assert submitted.post(CALLBACK, {"preferred": at, "note": note}).status_code == 303
        assert 'class="field-error"' in submitted.get("/contact/thanks/").content.decode()
    assert not LeadEvent.objects.filter(kind=LeadEvent.Kind.CALLBACK_REQUESTED).exists()


def test_the_form_needs_the_pages_csrf_token(ws, content, settings):
    client = Client(enforce_csrf_checks=True)
    attach(client, ws)
    page = client.get("/contact/").content.decode()
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    data = contact_data(client, csrfmiddlewaretoken=token)
    assert client.post("/contact/", data).status_code == 302
    response = client.post(CALLBACK, {"preferred": _local(_tomorrow_ten())})
    assert response.status_code == 403
    assert not LeadEvent.objects.filter(kind=LeadEvent.Kind.CALLBACK_REQUESTED).exists()


def test_only_the_browser_that_submitted_may_request(ws, content, client):
    attach(client, ws)
    response = client.post(CALLBACK, {"preferred": _local(_tomorrow_ten())})
    assert response.status_code == 302 and response["Location"] == "/contact/"
    assert client.get(CALLBACK).status_code == 405


def test_at_most_a_few_requests_per_lead(submitted):
    for i in range(MAX_REQUESTS + 1):
        at = _tomorrow_ten() + dt.timedelta(hours=i)
        response = submitted.post(CALLBACK, {"preferred": _local(at)})
    assert response.status_code == 303
    assert "我们已收到您的回电请求" in submitted.get("/contact/thanks/").content.decode()
    assert LeadEvent.objects.filter(kind=LeadEvent.Kind.CALLBACK_REQUESTED).count() == (
        MAX_REQUESTS)


def test_sales_are_told_the_group_without_personal_data(submitted, webhook, settings,
                                                       django_capture_on_commit_callbacks):
    lead = Lead.objects.get()
    note = "see https://evil.example/x <script>alert(1)</script> 张伟"
    with django_capture_on_commit_callbacks(execute=True):
        submitted.post(CALLBACK, {"preferred": _local(_tomorrow_ten()), "note": note})
    assert len(webhook.requests) == 1
    sent = json.dumps(webhook.requests[0], ensure_ascii=False)
    assert lead.report_number in sent and "客户请求回电" in sent
    for private in ("evil", "张伟", "+8613812345678", "script"):
        assert private not in sent
    [message] = mail.outbox
    assert message.to == ["sales@example.com"]
    assert lead.report_number in message.subject
    assert "https://evil.example" not in message.body  # plain: no link to click
    assert "evil\uff0eexample" in message.body
    html = message.alternatives[0].content
    assert "<script>" not in html
    rows = lead.deliveries.filter(kind__startswith="callback_").values_list("kind", "status")
    assert sorted(rows) == [("callback_email", "sent"), ("callback_robot", "sent")]


def test_the_staff_timeline_shows_the_request(submitted, client):
    from selector.staff.views.lead_timeline import event_text as _event_text
    submitted.post(CALLBACK, {"preferred": _local(_tomorrow_ten()), "note": "报价"})
    event = LeadEvent.objects.get(kind=LeadEvent.Kind.CALLBACK_REQUESTED)
    text = _event_text(event)
    assert text.startswith("客户请求回电 · ") and "10:00" in text and text.endswith("\n报价")


def test_the_result_page_offers_wecom_before_any_report_number(wecom, client):
    ws = make_session()
    attach(client, ws)
    html = client.get("/wizard/result/").content.decode()
    assert f'href="{WECOM}?customer_channel=selector-result"' in html
    assert "在企业微信与工程师沟通" in html
    assert 'href="/contact/">留下电话</a>' in html
