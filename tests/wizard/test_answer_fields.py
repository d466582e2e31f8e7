"""The answer-field registry (selector.core.answers) is the one list of the wizard's
answers: the steps, the step forms, the API's form, the stored session, the prefill link
and the presenter's "your answers" all follow it, in the wizard's order."""

from __future__ import annotations

import dataclasses

import pytest
from django.utils import translation

from selector.api.forms import FABRIC_ANSWERS, FabricQuery, RecommendQuery
from selector.core.answers import ANSWER_FIELDS, BY_NAME, NAMES, answers_from_form
from selector.domain import Answers
from selector.planner.presenter import present
from selector.planner.services import fresh
from selector.wizard import services
from selector.wizard.steps import STEP_OF_FIELD, STEPS, STEPS_BY_ID


def test_the_registry_holds_each_answer_of_the_domain_once():
    assert sorted(NAMES) == sorted(f.name for f in dataclasses.fields(Answers))
    assert len(set(NAMES)) == len(NAMES)


def test_the_order_is_the_wizards():
    assert tuple(name for step in STEPS for name in step.fields) == NAMES
    assert all(STEP_OF_FIELD[f.name] is STEPS_BY_ID[f.step] for f in ANSWER_FIELDS)


def test_each_step_form_asks_its_registry_fields_in_order():
    for step in STEPS:
        form = step.make_form(None)
        assert tuple(form.fields) == tuple(f.name for f in ANSWER_FIELDS
                                           if f.step == step.identifier)
        for name, field in form.fields.items():
            assert field.help_text == BY_NAME[name].help  # the step shows the registry's help


def test_the_api_form_takes_every_answer_and_the_fabric_form_its_part():
    assert [n for n in RecommendQuery.base_fields if n in NAMES] == list(NAMES)
    assert [n for n in FabricQuery.base_fields if n in NAMES] == [
        *FABRIC_ANSWERS, "oversubscription"]  # the fat-tree's own ratio field


def test_the_api_and_the_wizard_read_the_same_answers():
    form = RecommendQuery({"gpus": "64", "workload": "inference", "budget": "balanced",
                           "determinism": "standard", "vendor": "arista"})
    assert form.is_valid(), form.errors
    assert form.answers() == Answers(gpus=64, workload="inference", vendor="arista")
    assert answers_from_form({"gpus": 16, "gpus_per_server": None}).gpus_per_server == 8


@pytest.mark.django_db
def test_a_session_keeps_only_registry_answers():
    ws = services.wizard_session_start(landing_url="/", referrer="", utm={}, language="en",
                                       answers={"gpus": 8, "colour": "red"})
    services.wizard_session_store(ws=ws, answers={"vendor": "nvidia", "x": 1}, language="en")
    ws.refresh_from_db()
    assert ws.answers == {"gpus": 8, "vendor": "nvidia"}


def test_your_answers_list_in_the_wizards_order(content):
    rec = fresh(Answers(gpus=32, vendor="nvidia", distance="hall"))  # 4 servers: R3 asks
    with translation.override("en"):
        rows = present(rec).answer_rows
    assert [row.field for row in rows] == list(NAMES)
    assert rows[NAMES.index("distance")].label == "Longest link"
