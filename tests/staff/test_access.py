"""Every staff URL for every persona: anonymous, outsider (signed in, no sales role),
sales (own / unassigned / colleague's lead) and manager."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from selector.leads.models import Lead, LeadEvent
from selector.staff.models import LeadDeletion
from tests.conftest import make_lead

from .conftest import login, make_user, random_id


def _urls(lead):
    pid = lead.public_id
    return [
        ("get", reverse("staff:lead_list"), {}),
        ("get", reverse("staff:dashboard"), {}),
        ("get", reverse("staff:export_csv"), {}),
        ("get", reverse("staff:export_xlsx"), {}),
        ("post", reverse("staff:lead_bulk"), {"leads": [str(pid)], "status": "won"}),
        ("get", reverse("staff:lead_detail", args=[pid]), {}),
        ("post", reverse("staff:lead_status", args=[pid]), {"status": "contacted"}),
        ("post", reverse("staff:lead_note", args=[pid]), {"text": "called"}),
        ("post", reverse("staff:lead_assign", args=[pid]), {"owner": ""}),
        ("get", reverse("staff:lead_delete", args=[pid]), {}),
        ("post", reverse("staff:lead_delete", args=[pid]), {"reason": "asked", "confirm": "on"}),
        ("get", reverse("staff:my_day"), {}),
        ("post", reverse("staff:lead_activity", args=[pid]), {"kind": "call",
                                                              "outcome": "reached"}),
        ("post", reverse("staff:lead_next_action", args=[pid]),
         {"kind": "call", "due": _tomorrow()}),
        ("post", reverse("staff:lead_take", args=[pid]), {}),
        ("post", reverse("staff:lead_merge", args=[pid]),
         {"other": "NS-20200101-XXXXXX", "keep": "this", "confirm": "on"}),
        ("get", reverse("staff:manager"), {}),
        ("get", reverse("staff:audit"), {}),
        ("get", reverse("staff:deliveries"), {}),
    ]


def _tomorrow() -> str:
    return (timezone.localtime() + dt.timedelta(days=1)).strftime("%Y-%m-%dT10:00")


URL_COUNT = 19


def _call(client, method, url, data):
    return getattr(client, method)(url, data)


@pytest.mark.django_db
@pytest.mark.parametrize("index", range(URL_COUNT))
def test_it_sends_anonymous_visitors_to_the_login_page(client, index):
    lead = make_lead()
    method, url, data = _urls(lead)[index]
    response = _call(client, method, url, data)
    assert response.status_code == 302
    assert response["Location"].startswith("/staff/login/?next=")
    lead.refresh_from_db()
    assert lead.status == "new" and lead.owner is None
    assert LeadEvent.objects.filter(lead=lead).count() == 1


@pytest.mark.parametrize("index", range(URL_COUNT))
def test_it_shows_outsiders_nothing(client, outsider, index):
    lead = make_lead(name="秘密客户")
    make_lead()
    method, url, data = _urls(lead)[index]
    response = _call(login(client, outsider), method, url, data)
    assert response.status_code == 404
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert "秘密客户".encode() not in body
    assert lead.report_number.encode() not in body
    assert b"lead-table" not in body and b"result-count" not in body
    assert Lead.objects.count() == 2
    assert not LeadDeletion.objects.exists()
    lead.refresh_from_db()
    assert lead.status == "new"
    assert LeadEvent.objects.filter(lead=lead).count() == 1


def test_outsider_404_is_the_same_as_a_missing_lead(client, outsider, manager):
    lead = make_lead()
    existing = login(client, outsider).get(reverse("staff:lead_detail", args=[lead.public_id]))
    missing = client.get(reverse("staff:lead_detail", args=[random_id()]))
    assert existing.status_code == missing.status_code == 404
    assert existing.content == missing.content


# Expected status for sales: (unassigned lead, colleague's lead). 302 on a lead that is
# not yours is the lead page again with the reason ("take it first" / "already taken by
# …"), nothing changed.
SALES_EXPECTED = {
    0: (200, 200), 1: (200, 200), 2: (403, 403), 3: (403, 403), 4: (403, 403),
    5: (200, 200), 6: (302, 302), 7: (302, 302), 8: (403, 403), 9: (403, 403),
    10: (403, 403), 11: (200, 200), 12: (302, 302), 13: (302, 302), 14: (302, 302),
    15: (403, 403), 16: (403, 403), 17: (403, 403), 18: (403, 403),
}


@pytest.mark.parametrize("index", range(URL_COUNT))
def test_sales_work_on_unassigned_leads_only_within_their_role(client, sales, index):
    lead = make_lead()
    method, url, data = _urls(lead)[index]
    response = _call(login(client, sales), method, url, data)
    assert response.status_code == SALES_EXPECTED[index][0]
    lead.refresh_from_db()
    if index == 7:  # notes are allowed on unassigned leads
        assert lead.events.get(kind="note").data == {"text": "called"}
    elif index == 14:  # taking it is how a rep starts working on it
        assert lead.owner == sales
        assert lead.events.get(kind="owner_changed").data == {"from": None, "to": "sam"}
    else:  # status, activity, next action: not before the lead is yours
        assert lead.status == "new" and lead.owner is None
        assert lead.next_action_due is None and lead.first_contact_at is None
        assert set(lead.events.values_list("kind", flat=True)) == {"created"}


@pytest.mark.parametrize("index", range(URL_COUNT))
def test_sales_cannot_change_a_colleagues_lead(client, sales, sales2, index):
    lead = make_lead(owner=sales2)
    method, url, data = _urls(lead)[index]
    response = _call(login(client, sales), method, url, data)
    assert response.status_code == SALES_EXPECTED[index][1]
    lead.refresh_from_db()
    assert lead.status == "new" and lead.owner == sales2
    assert LeadEvent.objects.filter(lead=lead).count() == 1
    if response.status_code == 302 and index not in (11,):
        # Told who has it, not a bare "access denied" page.
        page = client.get(response["Location"])
        assert "This lead is already taken by sue." in page.content.decode() or \
            "已被 sue 接手" in page.content.decode()


MANAGER_EXPECTED = {0: 200, 1: 200, 2: 200, 3: 200, 4: 302, 5: 200, 6: 302, 7: 302, 8: 302,
                    9: 200, 10: 302, 11: 200, 12: 302, 13: 302, 14: 302, 15: 400, 16: 200,
                    17: 200, 18: 200}


@pytest.mark.parametrize("index", range(URL_COUNT))
def test_managers_can_do_everything(client, manager, sales2, index):
    lead = make_lead(owner=sales2)
    method, url, data = _urls(lead)[index]
    response = _call(login(client, manager), method, url, data)
    assert response.status_code == MANAGER_EXPECTED[index]
    if index == 4:
        lead.refresh_from_db()
        assert lead.status == "won"
    if index == 8:
        lead.refresh_from_db()
        assert lead.owner is None
        assert lead.events.get(kind="owner_changed").data == {"from": "sue", "to": None}
    if index == 10:
        assert not Lead.objects.filter(pk=lead.pk).exists()
        assert LeadDeletion.objects.get().actor == manager


def test_it_404s_for_an_unknown_lead_for_managers_too(client, manager):
    response = login(client, manager).get(reverse("staff:lead_detail", args=[random_id()]))
    assert response.status_code == 404


def test_inactive_members_are_signed_out(client, db):
    """A deactivated account's session no longer authenticates (Django's ModelBackend
    refuses inactive users): the workspace sends it to the log-in page, showing nothing."""
    make_lead(name="秘密客户")
    user = make_user("gone", "sales", is_active=False)
    client.force_login(user)
    url = reverse("staff:lead_list")
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/staff/login/?next={url}"
    assert "秘密客户".encode() not in response.content
    assert not response.wsgi_request.user.is_authenticated


def test_the_english_workspace_is_under_en(client, sales):
    response = login(client, sales).get("/en/staff/")
    assert response.status_code == 200
    assert b"My day" in response.content
