"""One lead, one recommendation: lead_create freezes it; the staff page, the PDF and the
JSON-LD render that snapshot and keep showing the same numbers after the catalogue or the
engine change; a new engine version re-renders cached PDFs."""

from __future__ import annotations

import json
import re
from io import BytesIO

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from pypdf import PdfReader

from selector.content.models import Switch
from selector.content.snapshot import current
from selector.domain import Answers, Recommendation
from selector.leads.report import render as report_render
from selector.leads.report.render import JSONLD_NAME
from selector.leads.report.services import report_data_for_lead, report_pdf
from selector.leads.services import lead_create
from selector.leads.snapshots import lead_recommendation
from selector.planner.services import fresh
from selector.staff.permissions import SALES_GROUP
from selector.wizard.models import WizardSession

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]

ANSWERS = Answers(gpus=1024, nic_speed=400)
CONTACT = {"name": "王建国", "company": "星河智算", "phone": "+8613800138000",
           "email": "wang@example.cn", "role": "CTO", "timeline": "0-3m"}


@pytest.fixture
def lead(content):
    ws = WizardSession.objects.create(answers=ANSWERS.to_dict())
    lead, _ = lead_create(wizard_session=ws, answers=ANSWERS, contact=CONTACT,
                          language="en")
    return lead


@pytest.fixture
def staff_client(client):
    from django.apps import apps

    from selector.staff.roles import ensure_roles

    ensure_roles(apps)
    user = User.objects.create_user("sam", "sam@example.com", "pw-12345-abcde")
    user.groups.add(Group.objects.get(name=SALES_GROUP))
    client.force_login(user)
    return client


def _figures(rec: Recommendation) -> dict:
    plan, runner_up = rec.recommended.plan, rec.runner_up.plan
    assert plan is not None and runner_up is not None
    return {"switch": plan.switch.model, "leaf": plan.leaf, "spine": plan.spine,
            "switches": plan.switches, "modules": plan.modules, "cables": plan.cables,
            "runner": runner_up.switches}


def _change_the_world(monkeypatch):
    """A catalogue edit that changes every plan (the SN5600 goes, the Arista stays, with
    another priority) and a new engine version."""
    Switch.objects.filter(key="nvidia-sn5600").update(is_active=False)
    Switch.objects.filter(key="nvidia-qm9700").update(ports=32, cages=16)
    monkeypatch.setattr("selector.domain.decision.ENGINE_VERSION", "2099.1.1")
    monkeypatch.setattr("selector.leads.report.render.ENGINE_VERSION", "2099.1.1")


def test_lead_create_freezes_one_versioned_snapshot(lead):
    rec = Recommendation.from_dict(lead.frozen_recommendation)
    assert lead.frozen_recommendation["snapshot_version"] == 1
    assert rec == fresh(ANSWERS)
    assert rec.engine_version == lead.engine_version
    assert json.loads(json.dumps(lead.frozen_recommendation)) == lead.frozen_recommendation


def test_staff_page_pdf_and_jsonld_keep_the_frozen_numbers(lead, staff_client, monkeypatch):
    frozen = Recommendation.from_dict(lead.frozen_recommendation)
    figures = _figures(frozen)
    _change_the_world(monkeypatch)
    today = fresh(ANSWERS)
    assert _figures(today) != figures, "the change must matter, or the test proves nothing"

    lead.refresh_from_db()
    assert _figures(lead_recommendation(lead)) == figures

    page = staff_client.get(reverse("staff:lead_detail", args=[lead.public_id]),
                            HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert figures["switch"] in page and today.recommended.plan.switch.model not in page
    for key in ("switches", "modules"):
        assert f"{figures[key]:,}" in page

    pdf, data = report_pdf(lead, "en")
    reader = PdfReader(BytesIO(pdf))
    text = "\n".join(page.extract_text() or "" for page in reader.pages)
    assert figures["switch"] in text
    assert f"Leaf switches {figures['leaf']:,}" in text
    assert f"Spine switches {figures['spine']:,}" in text
    doc = json.loads(reader.attachments[JSONLD_NAME][0])
    props = {p["propertyID"]: p["value"] for p in doc["additionalProperty"]}
    assert props["recommended.switches"] == figures["switches"]
    assert props["recommended.modules"] == figures["modules"]
    assert props["runner_up.switches"] == figures["runner"]
    # The web version of the report carries the same JSON-LD.
    web = staff_client.get(reverse("staff:lead_report_web", args=[lead.public_id])).content.decode()
    match = re.search(r'<script type="application/ld\+json">(.*?)</script>', web, re.S)
    web_doc = json.loads(match.group(1))
    assert {p["propertyID"]: p["value"] for p in web_doc["additionalProperty"]} == props


def test_a_new_engine_version_re_renders_cached_pdfs(lead, monkeypatch):
    data = report_data_for_lead(lead, "en")
    before = report_render.report_version(data)
    renders = []
    real = report_render.html_to_pdf

    def counting(*args, **kwargs):
        renders.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr("selector.leads.report.services.html_to_pdf", counting)
    report_pdf(lead, "en")
    report_pdf(lead, "en")
    assert len(renders) == 1  # cached
    monkeypatch.setattr("selector.leads.report.render.ENGINE_VERSION", "2099.1.1")
    after = report_render.report_version(data)
    assert after != before
    report_pdf(lead, "en")
    assert len(renders) == 2  # the new engine renders again


def test_a_first_release_lead_is_read_with_todays_engine_and_left_unchanged(content):
    # leads/0022 froze such rows once; one that still lacks a snapshot is computed on each
    # read and never written (tests/leads/test_frozen_recommendation.py counts the SQL).
    ws = WizardSession.objects.create(answers=ANSWERS.to_dict())
    lead, _ = lead_create(wizard_session=ws, answers=ANSWERS, contact=CONTACT,
                          language="zh-hans")
    old = {"recommended": {"leaf": 32, "spine": 16}, "tuning": None}
    type(lead).objects.filter(pk=lead.pk).update(frozen_recommendation=old)
    lead.refresh_from_db()
    assert lead_recommendation(lead) == fresh(ANSWERS)
    lead.refresh_from_db()
    assert lead.frozen_recommendation == old


def test_the_lead_page_shows_the_plan_once_and_a_plain_title(lead, staff_client):
    page = staff_client.get(reverse("staff:lead_detail", args=[lead.public_id]),
                            HTTP_ACCEPT_LANGUAGE="en").content.decode()
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    assert "<" not in title and lead.report_number in title
    assert page.count('class="card lead-plan-detail"') == 1
    assert page.count("class=\"tuning-card\"") == 1


def test_the_cached_result_markup_follows_comparison_edits(client, content):
    from selector.content.models import ComparisonRow
    from selector.core.sharing import share_token

    url = f"/en/wizard/r/{share_token(ANSWERS)}/"
    assert "Relatively higher" in client.get(url).content.decode()
    row = ComparisonRow.objects.get(slug="cost")
    row.infiniband_en = "Higher, by our estimate"
    row.save()
    assert "Higher, by our estimate" in client.get(url).content.decode()


@pytest.mark.parametrize("change", [
    {"priority": 7}, {"power_w": 1500}, {"more_sources": []}, {"is_active": False}])
def test_the_live_catalogue_follows_any_edit_even_a_bulk_update(content, change):
    """The process keeps one Catalogue per state of the rows; a queryset update() (no
    updated_at, no signal) still makes a new one (the stamp covers every column)."""
    before = current().catalogue
    assert current().catalogue is before  # unchanged rows: the same object
    Switch.objects.filter(key="nvidia-sn5600").update(**change)
    after = current().catalogue
    assert after is not before and after.version != before.version
