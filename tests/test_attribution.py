"""UTM and referrer are captured on the first page of a visit (any public page), kept in
the session, written to the WizardSession when it starts and carried to the lead. Tested
through the public pages, never by writing the session directly."""

from urllib.parse import urlencode

import pytest
from django.test import Client

from selector.leads.models import Lead
from selector.wizard.models import WizardSession
from tests.leads.conftest import contact_data
from tests.wizard.conftest import RULE_CASES, walk

UTM = {"utm_source": "baidu", "utm_medium": "cpc", "utm_campaign": "roce-2026",
       "utm_term": "RoCE 交换机", "utm_content": "banner-a"}
QUERY = urlencode(UTM)  # as a browser sends it: UTF-8, percent-encoded


def _lead_from(client: Client) -> Lead:
    walk(client, RULE_CASES["R7"])
    response = client.post("/en/contact/", contact_data(client))
    assert response.status_code == 302
    return Lead.objects.get()


@pytest.mark.parametrize("landing", ["/", "/faq/", "/en/compare/", "/privacy/"])
def test_utm_on_any_public_landing_page_reaches_the_lead(content, landing):
    client = Client()
    client.get(f"{landing}?{QUERY}", HTTP_REFERER="https://www.baidu.com/s?wd=roce")
    client.get("/faq/")  # a second page: the source stays the first one
    lead = _lead_from(client)
    assert {k: getattr(lead, k) for k in UTM} == UTM
    assert lead.landing_url == f"{landing}?{QUERY}"
    assert lead.referrer == "https://www.baidu.com/s?wd=roce"
    ws = WizardSession.objects.get()
    assert ws.utm_source == "baidu" and ws.landing_url == lead.landing_url


def test_an_external_referrer_alone_is_recorded(content):
    client = Client()
    client.get("/compare/", HTTP_REFERER="https://www.zhihu.com/question/1")
    client.get("/", HTTP_REFERER="https://other.example/")  # not the first page any more
    lead = _lead_from(client)
    assert lead.referrer == "https://www.zhihu.com/question/1"
    assert lead.landing_url == "/compare/"
    assert lead.utm_source == ""


def test_a_new_campaign_click_starts_a_new_visit(content):
    client = Client()
    client.get("/?utm_source=old")
    client.get("/faq/?utm_source=newsletter&utm_campaign=dec")
    assert _lead_from(client).utm_source == "newsletter"


def test_a_direct_visit_records_the_wizard_as_landing_page_and_no_source(content):
    client = Client()
    client.get("/")
    assert "visit" not in client.session  # nothing to attribute: nothing written
    lead = _lead_from(client)
    assert lead.landing_url == "/en/wizard/"
    assert (lead.utm_source, lead.referrer) == ("", "")


def test_our_own_pages_as_referrer_are_not_a_source(content):
    client = Client()
    client.get("/faq/", HTTP_REFERER="http://testserver/")
    assert "visit" not in client.session


def test_staff_and_api_requests_are_not_a_visit(content):
    client = Client()
    client.get("/api/recommend?gpus=8&utm_source=x")
    client.get("/staff/login/?utm_source=x")
    assert "visit" not in client.session


def test_overlong_and_nul_values_are_cut_not_refused(content):
    client = Client()
    client.get("/?utm_source=" + "s" * 300 + "&utm_medium=a%00b")
    lead = _lead_from(client)
    assert lead.utm_source == "s" * 100
    assert lead.utm_medium == "ab"
