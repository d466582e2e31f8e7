import re
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from selector.leads.models import Lead, LeadEvent
from selector.leads.privacy import PRIVACY_NOTICE_VERSION
from selector.leads.report.links import read_token
from selector.wizard.models import WizardSession

from .conftest import attach, contact_data, make_session, started_token

URL = "/contact/"


def refused(client, data, url=URL):
    """POST a form that must be refused: Post/Redirect/Get back to the form, whose GET
    shows the errors (the response returned)."""
    response = client.post(url, data)
    assert response.status_code == 303, response.status_code
    assert response["Location"] == url
    page = client.get(url)
    assert page.status_code == 200
    return page


def test_the_contact_url_is_named_and_english_is_prefixed():
    from django.utils import translation

    # Explicit: a request in an earlier test leaves its language active on this thread.
    with translation.override("zh-hans"):
        assert reverse("public:contact") == "/contact/"
    with translation.override("en"):
        assert reverse("public:contact") == "/en/contact/"


def test_it_redirects_to_the_wizard_without_a_session(client, db):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"] == reverse("wizard:start")


def test_it_redirects_to_the_wizard_when_the_answers_are_incomplete(client, content):
    attach(client, make_session(answers={"gpus": 64}))
    response = client.post(URL, contact_data(client))
    assert response.status_code == 302
    assert response["Location"] == reverse("wizard:start")
    assert Lead.objects.count() == 0


def test_it_shows_the_form_with_an_unticked_consent_and_the_notice(visitor):
    response = visitor.get(URL)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="consent"' in html
    consent_input = html[html.index('name="consent"') - 200:html.index('name="consent"') + 100]
    assert "checked" not in consent_input
    assert "广东深华天成智能工程有限公司" in html  # who collects
    assert "730" in html  # retention
    assert PRIVACY_NOTICE_VERSION in html
    assert 'name="website"' in html and 'name="started"' in html


def test_it_creates_the_lead_and_shows_the_thank_you_page(visitor, ws):
    response = visitor.post(URL, contact_data(visitor), HTTP_USER_AGENT="Mozilla/5.0 Test")
    assert response.status_code == 302
    assert response["Location"] == reverse("public:thanks")
    lead = Lead.objects.get()
    assert lead.wizard_session_id == ws.pk
    assert (lead.name, lead.company, lead.role) == ("张伟", "深圳算力科技有限公司", "网络架构师")
    assert lead.phone == "+8613812345678"
    assert lead.email == "zhang.wei@example.com"
    assert (lead.timeline, lead.wechat, lead.message) == ("0-3m", "zhangwei_ai", "请尽快联系。")
    assert lead.language == "zh-hans"
    assert lead.consent_notice_version == PRIVACY_NOTICE_VERSION
    assert lead.consent_user_agent == "Mozilla/5.0 Test"
    assert lead.consent_given_at is not None
    assert lead.answers["gpus"] == 256
    assert lead.recommendation and lead.rule.startswith("R") and lead.engine_version
    assert lead.frozen_recommendation["recommended"]["fabric"] == lead.recommendation
    assert lead.score == "hot"  # within 3 months, 256 GPUs, balanced budget
    assert lead.status == "new" and lead.owner is None
    assert (lead.utm_source, lead.utm_medium, lead.referrer) == (
        "baidu", "cpc", "https://www.baidu.com/")
    assert list(lead.events.values_list("kind", flat=True)) == [LeadEvent.Kind.CREATED]

    page = visitor.get(response["Location"])
    html = page.content.decode()
    assert lead.report_number in html
    assert "张伟" in html


def test_english_visitors_get_english_and_their_language_is_stored(visitor):
    response = visitor.post("/en/contact/", contact_data(visitor))
    assert response["Location"] == "/en/contact/thanks/"
    assert Lead.objects.get().language == "en"
    page = visitor.get("/en/contact/thanks/")
    assert "Thank you" in page.content.decode()


def test_a_double_submit_refresh_and_second_tab_make_one_lead(visitor, client):
    first = visitor.post(URL, contact_data(visitor))
    again = visitor.post(URL, contact_data(visitor, name="Someone else"))  # refresh of the POST
    assert first["Location"] == again["Location"] == reverse("public:thanks")
    assert visitor.get(URL)["Location"] == reverse("public:thanks")  # back to the form
    assert Lead.objects.count() == 1
    assert Lead.objects.get().name == "张伟"


def test_the_same_wizard_session_without_the_remembered_lead_still_makes_one(visitor, ws):
    visitor.post(URL, contact_data(visitor))
    session = visitor.session
    del session["leads_submitted"]
    session.save()
    response = visitor.post(URL, contact_data(visitor, name="Again"))
    assert response["Location"] == reverse("public:thanks")
    assert Lead.objects.count() == 1


def test_the_thank_you_page_belongs_to_the_visitor_who_submitted(visitor, client, db):
    from django.test import Client

    visitor.post(URL, contact_data(visitor))
    lead = Lead.objects.get()
    stranger = Client()
    response = stranger.get(reverse("public:thanks"))
    assert response.status_code == 302
    assert lead.report_number not in response.content.decode()
    # Another finished wizard in another browser does not reveal this lead either.
    attach(stranger, make_session())
    response = stranger.get(reverse("public:thanks"))
    assert response.status_code == 302


def test_the_thank_you_page_links_the_customers_signed_report(visitor):
    visitor.post(URL, contact_data(visitor))
    lead = Lead.objects.get()
    html = visitor.get("/contact/thanks/").content.decode()
    # Root-relative: it works on whatever host and port served the page.
    [token] = re.findall(r'href="/report/([^/"]+)/" data-testid="report-link"', html)
    assert read_token(token) == lead.public_id


def test_missing_consent_makes_no_lead(visitor):
    response = refused(visitor, contact_data(visitor, consent=None))
    assert "consent" in response.context["form"].errors
    assert Lead.objects.count() == 0


def test_a_false_consent_value_makes_no_lead(visitor):
    refused(visitor, contact_data(visitor, consent="false"))
    assert Lead.objects.count() == 0


def test_the_honeypot_refuses_the_submission(visitor):
    response = refused(visitor, contact_data(visitor, website="http://spam.example"))
    assert response.context["form"].abuse == "honeypot"
    assert Lead.objects.count() == 0


@pytest.mark.parametrize("seconds_ago", [0, 1, 2.5])
def test_a_form_filled_faster_than_the_minimum_is_refused(visitor, seconds_ago):
    from .conftest import started_token

    too_fast = started_token(visitor, seconds_ago)
    response = refused(visitor, contact_data(visitor, started=too_fast))
    assert response.context["form"].abuse == "too_fast"
    assert "快于通常的手动填写" in str(response.context["form"].non_field_errors())
    assert Lead.objects.count() == 0


def test_the_minimum_fill_time_is_a_setting(visitor, settings):
    from .conftest import started_token

    settings.LEAD_MIN_FILL_SECONDS = 0
    visitor.post(URL, contact_data(visitor, started=started_token(visitor, 0)))
    assert Lead.objects.count() == 1


@pytest.mark.parametrize("token", ["", "forged", "1700000000.0", "x" * 500])
def test_a_missing_or_forged_start_stamp_is_refused(visitor, token):
    response = refused(visitor, contact_data(visitor, started=token))
    assert response.context["form"].abuse == "stale"
    assert Lead.objects.count() == 0


def test_a_stale_form_is_refused(visitor):
    from .conftest import started_token

    stale = started_token(visitor, 2 * 24 * 3600)
    response = refused(visitor, contact_data(visitor, started=stale))
    assert response.context["form"].abuse == "stale"
    assert Lead.objects.count() == 0


def test_a_rerendered_form_carries_a_fresh_start_stamp(visitor):
    from selector.leads.abuse import form_fill_seconds

    response = refused(visitor, contact_data(visitor, email="nope"))
    assert form_fill_seconds(response.context["started"], visitor.session["wizard_session_id"]) < 2


class Clock:
    """The fill-time checks' clock (``time.time`` as selector.leads.abuse sees it), moved
    by hand."""

    def __init__(self):
        import time

        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    from selector.leads import abuse

    fake = Clock()
    monkeypatch.setattr(abuse, "time", SimpleNamespace(time=fake))
    return fake


def test_a_person_who_forgot_the_consent_box_is_not_refused_as_too_quick(visitor, clock):
    """The trap of issue 26: type for a while, forget the consent box, send; tick it and send
    within a second. The fill time counts from the first render of the form in this
    session, so the redisplay does not restart it."""
    first = visitor.get(URL)
    clock.advance(20)  # a person types
    page = refused(visitor, contact_data(visitor, consent=None, started=first.context["started"]))
    assert "consent" in page.context["form"].errors
    assert page.context["form"]["name"].value() == "张伟"  # what was typed is kept
    clock.advance(0.8)  # ticks the box and sends again
    response = visitor.post(URL, contact_data(visitor, started=page.context["started"]))
    assert response.status_code == 302 and response["Location"] == "/contact/thanks/"
    lead = Lead.objects.get()
    assert (lead.name, lead.phone) == ("张伟", "+8613812345678")
    assert lead.consent_given_at is not None


def test_a_reload_of_the_form_does_not_restart_the_fill_time(visitor, clock):
    visitor.get(URL)
    clock.advance(10)
    again = visitor.get(URL)
    clock.advance(0.5)
    assert visitor.post(URL, contact_data(visitor, started=again.context["started"])) \
        .status_code == 302
    assert Lead.objects.count() == 1


def test_a_submission_refused_as_too_quick_keeps_what_was_typed_and_says_what_to_do(visitor,
                                                                                   clock):
    """Sent one second after the form appeared (a password manager, a pasted block): refused,
    every field as typed (the consent tick too), the message says to check and send again;
    sent again once the minimum has passed since the first render, it is accepted."""
    first = visitor.get(URL)
    clock.advance(1)
    page = refused(visitor, contact_data(visitor, started=first.context["started"]))
    form = page.context["form"]
    assert form.abuse == "too_fast" and Lead.objects.count() == 0
    html = page.content.decode()
    assert "您填写的信息已保留：请检查后再次提交表单。" in html
    for name, value in [("name", "张伟"), ("company", "深圳算力科技有限公司"),
                        ("email", "zhang.wei@example.com"), ("wechat", "zhangwei_ai")]:
        assert f'name="{name}" value="{value}"' in html or \
            re.search(rf'value="{re.escape(value)}"[^>]*name="{name}"', html), name
    assert form["consent"].value() is True
    assert "请尽快联系。" in html
    clock.advance(2.5)  # 3.5 s since the first render: more than LEAD_MIN_FILL_SECONDS
    response = visitor.post(URL, contact_data(visitor, started=page.context["started"]))
    assert response.status_code == 302
    assert Lead.objects.get().company == "深圳算力科技有限公司"


def test_a_refused_honeypot_is_not_kept_in_the_redisplayed_form(visitor, clock):
    """A browser that autofilled the hidden field must not be refused forever: the redisplay
    keeps the person's details but not the honeypot, and says what to do."""
    first = visitor.get(URL)
    clock.advance(10)
    page = refused(visitor, contact_data(visitor, started=first.context["started"],
                                         website="https://example.com"))
    assert page.context["form"].abuse == "honeypot"
    assert page.context["form"]["website"].value() in (None, "")
    assert page.context["form"]["name"].value() == "张伟"
    assert "请检查后再次提交表单" in page.content.decode()
    clock.advance(1)
    visitor.post(URL, contact_data(visitor, started=page.context["started"]))
    assert Lead.objects.count() == 1


def test_another_wizard_session_starts_its_own_fill_time(visitor, clock, client):
    visitor.get(URL)
    clock.advance(60)
    attach(visitor, make_session())  # a new run of the wizard in the same browser
    fresh = visitor.get(URL)
    clock.advance(1)
    page = refused(visitor, contact_data(visitor, started=fresh.context["started"]))
    assert page.context["form"].abuse == "too_fast"


def test_the_start_stamp_is_bound_to_the_visitors_session(visitor):
    """A stamp lifted from one visitor's page is worth nothing in another session (one
    stamp made 25 leads before, each from a fresh session)."""
    token = started_token(visitor)
    other = Client()
    attach(other, make_session())
    response = refused(other, contact_data(other, started=token))
    assert response.context["form"].abuse == "stale"
    assert Lead.objects.count() == 0


def test_the_start_stamp_is_usable_once(visitor):
    token = started_token(visitor)
    refused(visitor, contact_data(visitor, started=token, email="bad"))
    response = refused(visitor, contact_data(visitor, started=token))
    assert response.context["form"].abuse == "stale"
    # The re-rendered form's fresh stamp works (once the minimum time has passed).
    assert visitor.post(URL, contact_data(visitor)).status_code == 302
    assert Lead.objects.count() == 1


def test_the_wizard_session_keeps_no_personal_data(visitor, ws):
    visitor.post(URL, contact_data(visitor))
    ws = WizardSession.objects.get(pk=ws.pk)
    assert "张伟" not in str(ws.__dict__)


def test_the_thank_you_page_shows_the_signed_share_link_of_the_result(visitor):
    from selector.core.sharing import answers_from_token

    visitor.post(URL, contact_data(visitor))
    html = visitor.get("/contact/thanks/").content.decode()
    marker = 'data-testid="share-link"'
    assert marker in html
    tag = html[html.rindex("<input", 0, html.index(marker)):html.index(marker)]
    url = tag.split('value="', 1)[1].split('"', 1)[0]
    assert url.startswith("http://testserver/wizard/r/")
    token = url.removeprefix("http://testserver/wizard/r/").rstrip("/")
    assert answers_from_token(token).to_dict() == Lead.objects.get().answers


def test_the_privacy_notice_names_collector_purpose_data_retention_and_deletion(client,
                                                                                   content):
    zh = client.get("/privacy/").content.decode()
    # PIPL Art. 17: the processor and how to reach it, purpose, manner, kinds of personal
    # information, retention, and how to exercise the rights (Arts. 44-48, 15).
    for text in ("个人信息处理说明", "个人信息处理者及联系方式", "广东深华天成智能工程有限公司",
                 "处理目的", "处理方式", "个人信息种类", "提交后保存 730 天", "您的权利及行使方式",
                 "查阅、复制、更正、补充或删除", "撤回同意", "要求我们解释说明个人信息处理规则",
                 "15 个工作日", PRIVACY_NOTICE_VERSION):
        assert text in zh, text
    en = client.get("/en/privacy/").content.decode()
    for text in ("Guangdong Shenhua Tiancheng Intelligent Engineering Co., Ltd.", "Purpose",
                 "How we process it", "What we collect", "730 days after you submit it",
                 "see or copy", "correct or complete", "delete", "withdraw your consent",
                 "explanation", PRIVACY_NOTICE_VERSION):
        assert text in en
