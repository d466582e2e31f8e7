"""The admin cannot bypass the workspace's rules: leads are read-only there except for
superusers, whose edits leave timeline events; the owner choices are sales-role users
only; nobody deletes a lead there (deletion on request goes through /staff/)."""

import pytest
from django.contrib.auth.models import Permission

from selector.leads.models import Lead
from tests.conftest import make_lead

from .conftest import make_user

pytestmark = pytest.mark.django_db


def _form_data(lead, **changes):
    data = {f: getattr(lead, f) for f in ("name", "company", "phone", "email", "role",
                                          "timeline", "wechat", "message", "language",
                                          "score", "status", "landing_url", "referrer",
                                          "utm_source", "utm_medium", "utm_campaign",
                                          "utm_term", "utm_content", "next_action_kind",
                                          "next_action_note", "lost_reason")}
    data.update({"owner": lead.owner_id or "", "deal_value": "", "next_action_due_0": "",
                 "next_action_due_1": "", "events-TOTAL_FORMS": "0",
                 "events-INITIAL_FORMS": "0"})
    data.update(changes)
    return data


def test_the_admin_cannot_delete_a_lead(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw-12345")
    client.force_login(admin)
    lead = make_lead()
    page = client.get(f"/admin/leads/lead/{lead.pk}/change/")
    assert page.status_code == 200
    assert f"/admin/leads/lead/{lead.pk}/delete/" not in page.content.decode()
    response = client.post(f"/admin/leads/lead/{lead.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    client.post("/admin/leads/lead/", {"action": "delete_selected",
                                       "_selected_action": [lead.pk], "post": "yes"})
    assert Lead.objects.filter(pk=lead.pk).exists()


def test_a_manager_with_admin_access_cannot_change_a_lead_there(client, sales):
    boss = make_user("boss", "managers", is_staff=True)
    boss.user_permissions.add(*Permission.objects.filter(codename__in=["change_lead",
                                                                      "view_lead"]))
    lead = make_lead(name="原名")
    client.force_login(boss)
    page = client.get(f"/admin/leads/lead/{lead.pk}/change/")
    assert page.status_code == 200 and b'name="_save"' not in page.content
    response = client.post(f"/admin/leads/lead/{lead.pk}/change/",
                           _form_data(lead, status="won", owner=sales.pk, name="改名"))
    assert response.status_code == 403
    lead.refresh_from_db()
    assert (lead.status, lead.owner, lead.name) == ("new", None, "原名")


def test_a_superusers_edit_is_on_the_timeline_and_owners_are_sales_only(client, sales,
                                                                        django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw-12345")
    make_user("editor", is_staff=True)  # content editor, no sales role
    lead = make_lead()
    client.force_login(root)
    page = client.get(f"/admin/leads/lead/{lead.pk}/change/").content.decode()
    owner_select = page.split('name="owner"')[1].split("</select>")[0]
    assert ">sam<" in owner_select and ">editor<" not in owner_select
    assert ">root<" not in owner_select
    response = client.post(f"/admin/leads/lead/{lead.pk}/change/",
                           _form_data(lead, status="qualified", owner=sales.pk,
                                      phone="+8613900000000"))
    assert response.status_code == 302, response.content.decode()[:2000]
    lead.refresh_from_db()
    assert (lead.status, lead.owner) == ("qualified", sales)
    kinds = {e.kind: e.data for e in lead.events.all()}
    assert kinds["status_changed"]["to"] == "qualified"
    assert kinds["owner_changed"] == {"from": None, "to": "sam", "via": "admin"}
    assert kinds["edited"] == {"fields": ["phone"]}
    # A workspace tab opened before this correction is stale now (no lost update).
    assert lead.version == 2
