"""Every URL in the URLconf, walked as anonymous, outsider, sales and manager.

EXPECTED holds the access decision for each named URL (GET status per persona). A view
added to the URLconf without an entry here fails `test_every_url_has_an_access_decision`,
so nobody can add a page without deciding who may see it. Admin URLs are checked as a
group: none of the four personas is Django-admin staff, so every admin page sends them
to the admin login.
"""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from selector.domain import Answers
from selector.staff.permissions import MANAGERS_GROUP, SALES_GROUP
from selector.staff.roles import ensure_roles
from tests.conftest import make_lead

PERSONAS = ("anonymous", "outsider", "sales", "manager")
A, O, S, M = PERSONAS  # noqa: E741

# name -> (kwargs builder key, {persona: expected GET status}); "all" applies to everyone.
EXPECTED: dict[str, dict] = {
    "healthz": {"all": 200},
    "favicon": {"all": 200},
    "api-recommend": {"all": 400},  # no parameters: a 400 with the field errors
    "api-fabric": {"all": 400},
    "api-acceptance": {"all": 400},  # no parameters: the same 400 as /api/fabric
    # The build downloads take /api/fabric's parameters: none given is the same 400.
    "api-cabling-csv": {"all": 400},
    "api-cabling-xlsx": {"all": 400},
    "api-configs-zip": {"all": 400},
    "api-openapi": {"all": 200},
    "robots_txt": {"all": 200},
    "sitemap_xml": {"all": 200},
    "home": {"all": 200},
    "public:faq": {"all": 200},
    "public:comparison": {"all": 200},
    "wizard:start": {"all": 302},  # to the first open step (no session is created here)
    "wizard:step": {"all": 200},
    "wizard:result": {"all": 302},  # incomplete answers: back to the first open step
    "wizard:what_if": {"all": 302},  # a preview of a finished wizard only; else the first step
    "wizard:shared": {"all": 200},
    "wizard:shared_card": {"all": 200},  # the shared result's sharing image
    # The shared result links here: a GET without Sec-Fetch-Site: same-origin asks first.
    "wizard:handoff": {"all": 200},
    # The shared result's build downloads: the signed link is the credential (as the page).
    "wizard:shared_cabling_csv": {"all": 200},
    "wizard:shared_cabling_xlsx": {"all": 200},
    "wizard:shared_configs_zip": {"all": 200},
    "public:contact": {"all": 302},  # no finished wizard: back to the wizard
    "public:thanks": {"all": 302},  # nothing submitted in this session
    # POST only (the call-back request of the session's own lead, tests/leads/test_callback.py).
    "public:callback": {"all": 405},
    "public:privacy": {"all": 200},
    "reports:customer": {"all": 200},  # the signed link is the credential
    "reports:customer_web": {"all": 200},
    "staff:login": {"all": 200},
    "staff:logout": {A: 405, O: 405, S: 405, M: 405},  # POST only
    "staff:lead_list": {A: 302, O: 404, S: 200, M: 200},
    "staff:dashboard": {A: 302, O: 404, S: 200, M: 200},
    "staff:lead_detail": {A: 302, O: 404, S: 200, M: 200},
    # POST-only actions refuse GET before anything else (their POSTs are checked per
    # persona in tests/staff/test_personas.py and below).
    "staff:lead_bulk": {"all": 405},
    "staff:lead_status": {"all": 405},
    "staff:lead_note": {"all": 405},
    "staff:lead_assign": {"all": 405},
    # The report downloads are a 404 for everyone who may not view the lead, signed out
    # or not (nothing tells them it exists).
    "staff:lead_report": {A: 404, O: 404, S: 200, M: 200},
    "staff:lead_report_web": {A: 404, O: 404, S: 200, M: 200},
    # The lead's build downloads (its frozen plan), decided as the report: a 404 for all
    # who may not view the lead.
    "staff:lead_cabling_csv": {A: 404, O: 404, S: 200, M: 200},
    "staff:lead_cabling_xlsx": {A: 404, O: 404, S: 200, M: 200},
    "staff:lead_configs_zip": {A: 404, O: 404, S: 200, M: 200},
    # Their addresses before issue 16: a redirect to the above, which decides.
    "old_staff_report": {"all": 301},
    "old_staff_report_web": {"all": 301},
    "staff:lead_delete": {A: 302, O: 404, S: 403, M: 200},  # confirmation page
    "staff:export_csv": {A: 302, O: 404, S: 403, M: 200},
    "staff:export_xlsx": {A: 302, O: 404, S: 403, M: 200},
    "staff:security": {A: 302, O: 404, S: 403, M: 200},
    "staff:my_day": {A: 302, O: 404, S: 200, M: 200},
    "staff:manager": {A: 302, O: 404, S: 403, M: 200},
    "staff:audit": {A: 302, O: 404, S: 403, M: 200},
    "staff:deliveries": {A: 302, O: 404, S: 403, M: 200},  # managers: waiting and failed
    # Managers: all open leads of one person to another, in the background, and its
    # progress.
    "staff:handover": {A: 302, O: 404, S: 403, M: 200},
    "staff:handover_status": {A: 302, O: 404, S: 403, M: 200},
    # A bulk change's progress: whoever started it (here the rep) and managers.
    "staff:bulk_job": {A: 302, O: 404, S: 200, M: 200},
    "staff:lead_activity": {"all": 405},
    "staff:lead_next_action": {"all": 405},
    "staff:lead_take": {"all": 405},
    "staff:lead_reveal": {"all": 405},  # POST: reveal a lead's contact (audited)
    "staff:lead_merge": {"all": 405},
    "staff:duplicate_dismiss": {"all": 405},
    "staff:account": {A: 302, O: 404, S: 200, M: 200},
    "staff:password_change": {A: 302, O: 404, S: 200, M: 200},
    # Password reset: public by nature (the e-mailed token is the credential).
    "staff:password_reset": {"all": 200},
    "staff:password_reset_done": {"all": 200},
    "staff:password_reset_confirm": {"all": 200},  # an invalid link says so
    "staff:password_reset_complete": {"all": 200},
    "staff:mfa_verify": {"all": 302},  # no password step pending: back to the log-in
    "staff:mfa_setup": {A: 302, O: 404, S: 200, M: 200},
    "staff:mfa": {A: 302, O: 404, S: 200, M: 200},
    "admin_login": {"all": 200},  # the staff login view, at the admin's address
    # Quotes: the owner, managers and the approver only (the lead here has no owner, so a
    # rep who does not own it is refused, 403, as on the other pages reps may not use);
    # actions are POST only.
    "quotes:create": {"all": 405},
    "quotes:editor": {A: 302, O: 404, S: 403, M: 200},
    "quotes:send": {"all": 405},
    "quotes:approve": {"all": 405},
    "quotes:pdf": {A: 302, O: 404, S: 403, M: 200},
    "quotes:xlsx": {A: 302, O: 404, S: 403, M: 200},
    "quotes:list_csv": {A: 302, O: 404, S: 403, M: 200},  # managers: every quote
    "quotes:list_xlsx": {A: 302, O: 404, S: 403, M: 200},
    # The customer's signed link is the credential; a draft was never sent, so its link
    # shows nothing to anyone.
    "quotes:customer": {"all": 404},
    "quotes:customer_accept": {"all": 405},
    "quotes:customer_pdf": {"all": 404},
    "quotes:customer_changes": {"all": 405},
}


def _patterns(patterns=None, namespace="", route=""):
    """(name with namespace, full route text) of every URL pattern."""
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        text = route + str(pattern.pattern).lstrip("^").rstrip("$")
        if isinstance(pattern, URLResolver):
            inner = namespace + (f"{pattern.namespace}:" if pattern.namespace else "")
            yield from _patterns(pattern.url_patterns, inner, text)
        elif isinstance(pattern, URLPattern):
            yield namespace + (pattern.name or ""), text


def test_every_url_has_an_access_decision():
    routes = list(_patterns())
    undecided = sorted({name for name, _ in routes
                        if not name.startswith("admin:") and name not in EXPECTED})
    assert not undecided, f"views without an access decision in EXPECTED: {undecided}"
    unnamed = [route for name, route in routes if not name]
    assert not unnamed, f"unnamed URL patterns outside the admin cannot be checked: {unnamed}"


@pytest.fixture
def world(db, content):
    ensure_roles(apps)
    users = {
        "outsider": User.objects.create_user("outsider", password="pw-outsider-123"),
        "sales": User.objects.create_user("sales", password="pw-sales-12345"),
        "manager": User.objects.create_user("manager", password="pw-manager-123"),
    }
    users["sales"].groups.add(Group.objects.get(name=SALES_GROUP))
    users["manager"].groups.add(Group.objects.get(name=MANAGERS_GROUP))
    lead = make_lead()
    from selector.quotes.services import quote_from_lead

    lead.quote = quote_from_lead(lead=lead, actor=users["manager"])
    from selector.staff.models import Handover

    lead.handover = Handover.objects.create(actor=users["manager"], from_user=users["sales"],
                                            to_user=users["manager"], status="done")
    lead.bulk_job = Handover.objects.create(kind="bulk", actor=users["sales"], status="done",
                                            new_status="contacted")
    return users, lead


def _url(name: str, lead) -> str:
    from selector.core.sharing import share_token
    from selector.leads.report import links

    kwargs = {
        "wizard:step": {"identifier": "scale"},
        "wizard:shared": {"token": share_token(Answers(gpus=64))},
        "wizard:handoff": {"token": share_token(Answers(gpus=64))},
        "wizard:shared_card": {"token": share_token(Answers(gpus=64))},
        **{name: {"token": share_token(Answers(gpus=64))} for name in (
            "wizard:shared_cabling_csv", "wizard:shared_cabling_xlsx",
            "wizard:shared_configs_zip")},
        "reports:customer": {"token": links.make_token(lead)},
        "reports:customer_web": {"token": links.make_token(lead)},
        "staff:duplicate_dismiss": {"public_id": lead.public_id, "flag_id": 1},
        "staff:handover_status": {"pk": lead.handover.pk},
        "staff:bulk_job": {"pk": lead.bulk_job.pk},
        "staff:password_reset_confirm": {"uidb64": "MQ", "token": "set-password"},
    }.get(name)
    if name.startswith("quotes:"):
        from selector.quotes.links import quote_token

        kwargs = ({"token": quote_token(lead.quote)} if name.startswith("quotes:customer")
                  else {"public_id": lead.public_id} if name == "quotes:create"
                  else {} if name.startswith("quotes:list_")
                  else {"quote_id": lead.quote.public_id})
    if kwargs is None and name.startswith(("staff:lead_", "old_staff_report")) \
            and name != "staff:lead_list" and name != "staff:lead_bulk":
        kwargs = {"public_id": lead.public_id}
    return reverse(name, kwargs=kwargs) if kwargs else reverse(name)


def _login(client, users, persona):
    if persona != "anonymous":
        client.force_login(users[persona])


@pytest.mark.parametrize("persona", PERSONAS)
def test_each_url_answers_each_persona_as_decided(client, world, persona):
    users, lead = world
    _login(client, users, persona)
    wrong = {}
    for name, expected in EXPECTED.items():
        want = expected.get(persona, expected.get("all"))
        response = client.get(_url(name, lead))
        if response.status_code != want:
            wrong[name] = (response.status_code, want)
        if persona in ("anonymous", "outsider") and name.startswith("staff:") \
                and name != "staff:login":
            body = response.content.decode(errors="replace")
            assert lead.name not in body and lead.company not in body, name
    assert not wrong, f"{persona}: {{name: (got, expected)}} = {wrong}"


def _admin_urls():
    """Every admin route, with sample values for its parameters (the admin checks access
    before it looks at them)."""
    for name, route in _patterns():
        if not name.startswith("admin:"):
            continue
        route = re.sub(r"\(\?P<app_label>[^)]*\)", "content", route)
        route = re.sub(r"\(\?P<url>[^)]*\)", "no-such-page/", route)
        route = re.sub(r"<[^>]+>", "1", route)
        yield name, "/" + route


@pytest.mark.parametrize("persona", PERSONAS)
def test_no_persona_reaches_the_admin(client, world, persona):
    """Sales work in /staff/; the admin (content, users) is for admin staff only."""
    users, _lead = world
    _login(client, users, persona)
    reached = {}
    for name, url in _admin_urls():
        response = client.get(url)
        if name in ("admin:login", "admin:logout"):
            continue
        if name == "admin:view_on_site":  # content-type redirect, no admin data
            ok = response.status_code in (302, 404)
        else:
            ok = response.status_code in (301, 302) and "/admin/login/" in response["Location"]
        if not ok:
            reached[name] = response.status_code
    assert not reached, f"{persona} reached admin pages: {reached}"


@pytest.mark.parametrize("persona", ["anonymous", "manager"])
def test_head_answers_wherever_get_does(client, world, persona):
    """HEAD is GET without the body (RFC 9110 §9.3.2): monitors and link checkers use it."""
    users, lead = world
    _login(client, users, persona)
    wrong = {}
    for name in EXPECTED:
        url = _url(name, lead)
        got = client.get(url).status_code
        if got == 405:
            continue
        head = client.head(url)
        body = b"".join(head.streaming_content) if head.streaming else head.content
        if head.status_code != got or body:
            wrong[name] = (head.status_code, got)
    assert not wrong, f"{persona}: {{name: (HEAD, GET)}} = {wrong}"
