"""CSRF is enforced on every POST, htmx requests included (the token travels in the
X-CSRFToken header that the wizard pages put in hx-headers)."""

import re

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.test import Client

from selector.leads.models import Lead
from selector.staff.permissions import MANAGERS_GROUP
from selector.staff.roles import ensure_roles
from selector.wizard.models import WizardSession
from tests.conftest import make_lead

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def csrf_client(db, content):
    return Client(enforce_csrf_checks=True)


def _token(client, path):
    page = client.get(path, follow=True).content.decode()
    return TOKEN.search(page).group(1)


def test_a_wizard_step_post_without_a_token_is_refused(csrf_client):
    csrf_client.get("/wizard/", follow=True)
    response = csrf_client.post("/wizard/scale/", {"gpus": 64, "gpus_per_server": 8})
    assert response.status_code == 403
    assert WizardSession.objects.get().answers == {}


def test_an_htmx_step_post_with_the_header_token_is_accepted(csrf_client):
    token = _token(csrf_client, "/wizard/")
    response = csrf_client.post("/wizard/scale/", {"gpus": 64, "gpus_per_server": 8},
                                HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)
    assert response.status_code in (200, 204, 302)
    assert WizardSession.objects.get().answers["gpus"] == 64


def test_an_htmx_step_post_with_a_forged_header_is_refused(csrf_client):
    _token(csrf_client, "/wizard/")
    response = csrf_client.post("/wizard/scale/", {"gpus": 64, "gpus_per_server": 8},
                                HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN="x" * 64)
    assert response.status_code == 403
    assert WizardSession.objects.get().answers == {}


def test_the_contact_step_refuses_a_post_without_a_token(csrf_client):
    response = csrf_client.post("/contact/", {"name": "张三", "consent": "on"})
    assert response.status_code == 403
    assert not Lead.objects.exists()


def test_staff_actions_refuse_a_post_without_a_token(db):
    ensure_roles(apps)
    manager = User.objects.create_user("boss", password="pw-boss-12345")
    manager.groups.add(Group.objects.get(name=MANAGERS_GROUP))
    lead = make_lead()
    client = Client(enforce_csrf_checks=True)
    client.force_login(manager)
    response = client.post(f"/staff/leads/{lead.public_id}/status/", {"status": "won"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    lead.refresh_from_db()
    assert lead.status == "new"
    response = client.post(f"/staff/leads/{lead.public_id}/delete/", {"confirm": "on"})
    assert response.status_code == 403
    assert Lead.objects.filter(pk=lead.pk).exists()
