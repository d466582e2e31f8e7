"""Hand-off: a colleague opens a shared result and asks for the report; they reach the
contact step with the shared answers (never an empty step 1) and the lead carries them."""

import re

from django.test import Client

from selector.core.sharing import share_token
from selector.domain import Answers, Budget, Determinism, Workload
from selector.leads.models import Lead
from selector.wizard.models import WizardSession
from tests.leads.conftest import contact_data

SHARED = Answers(gpus=1024, gpus_per_server=8, workload=Workload.TRAINING,
                 budget=Budget.BALANCED, determinism=Determinism.STANDARD, nic_speed=400)


def test_the_report_button_of_a_shared_result_opens_the_contact_step(content):
    token = share_token(SHARED)
    colleague = Client(enforce_csrf_checks=True)  # a fresh browser: no session, no cookie
    page = colleague.get(f"/wizard/r/{token}/?utm_source=wechat-share").content.decode()
    # A link (the shared page has no form and no token); from our own page the browser
    # says so (Sec-Fetch-Site), and the hand-off needs no second click.
    assert f'href="/wizard/r/{token}/continue/"' in page and "csrfmiddlewaretoken" not in page
    response = colleague.get(f"/wizard/r/{token}/continue/", HTTP_SEC_FETCH_SITE="same-origin")
    assert response.status_code == 303 and response["Location"] == "/contact/"
    contact = colleague.get("/contact/")
    assert contact.status_code == 200
    assert "1024" in contact.content.decode()  # "…for your 1024-GPU cluster"

    ws = WizardSession.objects.get()
    assert ws.answers == SHARED.to_dict() and ws.result_at is not None
    assert ws.utm_source == "wechat-share"  # the visit's source is kept

    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"',
                     contact.content.decode()).group(1)
    colleague.post("/contact/", {**contact_data(colleague), "csrfmiddlewaretoken": csrf})
    lead = Lead.objects.get()
    assert lead.answers == SHARED.to_dict()
    assert lead.recommendation == "roce-v2-800g"
    assert lead.wizard_session_id == ws.pk


def test_the_handoff_keeps_the_language(content):
    token = share_token(SHARED)
    client = Client()
    response = client.post(f"/en/wizard/r/{token}/continue/")
    assert response["Location"] == "/en/contact/"


def test_a_tampered_link_hands_off_nothing(content):
    token = share_token(SHARED)[:-2] + "xx"
    response = Client().post(f"/wizard/r/{token}/continue/")
    assert response.status_code == 404
    assert not WizardSession.objects.exists()


def test_a_get_from_elsewhere_asks_first_and_creates_nothing(content):
    token = share_token(SHARED)
    client = Client(enforce_csrf_checks=True)
    for headers in ({}, {"HTTP_SEC_FETCH_SITE": "cross-site"}, {"HTTP_SEC_FETCH_SITE": "none"},
                    {"HTTP_SEC_FETCH_SITE": "same-site"}):
        response = client.get(f"/wizard/r/{token}/continue/", **headers)
        assert response.status_code == 200, headers
        assert f'action="/wizard/r/{token}/continue/"' in response.content.decode()
        assert "no-store" in response["Cache-Control"]
    assert not WizardSession.objects.exists()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"',
                     response.content.decode()).group(1)
    assert client.post(f"/wizard/r/{token}/continue/").status_code == 403
    assert not WizardSession.objects.exists()
    response = client.post(f"/wizard/r/{token}/continue/", {"csrfmiddlewaretoken": csrf})
    assert response.status_code == 303 and WizardSession.objects.count() == 1
