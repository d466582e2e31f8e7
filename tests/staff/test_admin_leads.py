"""The admin shows leads but cannot delete them: deletion on the customer's request goes
through /staff/ (report removed, anonymous record kept)."""

import pytest

from selector.leads.models import Lead

from .conftest import make_lead

pytestmark = pytest.mark.django_db


def test_the_admin_cannot_delete_a_lead(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw-12345")
    client.force_login(admin)
    lead = make_lead()
    page = client.get(f"/admin/leads/lead/{lead.pk}/change/")
    assert page.status_code == 200
    assert f"/admin/leads/lead/{lead.pk}/delete/" not in page.content.decode()
    response = client.post(f"/admin/leads/lead/{lead.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    response = client.post("/admin/leads/lead/", {"action": "delete_selected",
                                                  "_selected_action": [lead.pk], "post": "yes"})
    assert Lead.objects.filter(pk=lead.pk).exists()
