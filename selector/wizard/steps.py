"""The wizard as a list of step objects (after pretix's checkout flow): each step knows
whether it applies to this visitor, whether its answers are complete and valid, its form
and its template. The dispatcher sends every request to the first incomplete step, so a
URL can never skip one, and the result is computed only from the answers stored on the
server (``WizardSession.answers``), re-validated by the same forms."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from selector.core.answers import ANSWER_FIELDS, form_value, of_step
from selector.domain import Answers, InvalidAnswers
from selector.domain.decision import throughput_matters
from selector.wizard import forms as wf


def servers_of(answers: dict) -> int | None:
    """Servers for the stored scale answers, or None while they are incomplete."""
    try:
        return Answers.from_dict({"gpus": answers.get("gpus"),
                                  "gpus_per_server": answers.get("gpus_per_server")}).servers
    except (InvalidAnswers, TypeError):
        return None


def asks_throughput(answers: dict) -> bool:
    """Rule R3: throughput only changes the answer for 2 to 7 servers."""
    servers = servers_of(answers)
    return servers is not None and throughput_matters(servers)


@dataclass(frozen=True)
class Step:
    """One question of the wizard. Everything that depends on the other answers (which
    fields it asks, so which form and which stored values count) is decided here; views
    and other modules ask the step."""

    identifier: str
    label: Promise
    title: Promise  # the question, as the step heading
    form_class: type[wf.StepForm]
    template: str
    faq_topics: frozenset[str] = field(default_factory=frozenset)
    decision_keys: tuple[str, ...] = ()  # ContentBlock keys of decision-tree lines

    @property
    def fields(self) -> tuple[str, ...]:
        """The answers this step can ask (selector.core.answers), in order."""
        return self.form_class.answer_fields

    @property
    def optional(self) -> tuple[str, ...]:
        """Answers with a default: a session stored before they existed is complete."""
        return tuple(f.name for f in of_step(self.identifier) if f.optional)

    def is_applicable(self, answers: dict) -> bool:
        return True

    def asks(self, answers: dict | None) -> tuple[str, ...]:
        """The fields this step asks given the other answers (``None``: every field it can
        ask, to check one value on its own: a prefill link, a what-if)."""
        return self.fields

    def form_kwargs(self, answers: dict | None) -> dict:
        return {}

    def make_form(self, answers: dict | None, data=None) -> wf.StepForm:
        """Bound to ``data`` (a POST) or unbound with the stored answers as initial
        (``answers=None``: the form with every field the step can ask)."""
        kwargs = self.form_kwargs(answers)
        if data is not None:
            return self.form_class(data, **kwargs)
        return self.form_class(initial=self.stored_data(answers or {}), **kwargs)

    def is_completed(self, answers: dict) -> bool:
        asked = self.asks(answers)
        if any(name not in answers for name in asked if name not in self.optional):
            return False  # cheap, and the usual case while the visitor walks the steps
        stored = self.stored_data(answers)
        return _valid(self.form_class, tuple(sorted(stored.items())),
                      tuple(sorted(self.form_kwargs(answers).items())))

    def stored_data(self, answers: dict) -> dict:
        return {name: form_value(name, answers[name]) for name in self.fields
                if name in answers}

    def clean_value(self, name: str, raw: str) -> object:
        """One value checked on its own by this step's field (raises ValidationError)."""
        return self.make_form(None).fields[name].clean(raw)

    def what_if_form(self, answers: dict, name: str, raw: str) -> wf.StepForm:
        """The step's form with the stored answers and ``name`` changed to ``raw``."""
        return self.make_form(None, data={**self.stored_data(answers), name: raw})

    def answers_for_result(self, answers: dict) -> dict:
        """This step's part of the answers the recommendation is made from."""
        return {name: answers[name] for name in self.fields if name in answers}


@lru_cache(maxsize=2048)
def _valid(form_class: type[wf.StepForm], data: tuple, kwargs: tuple) -> bool:
    """Whether a step form accepts ``data``: a pure function of the values (the fields'
    choices are constants), and the wizard re-checks the same answers on every request,
    so the process keeps the last results."""
    return form_class(dict(data), **dict(kwargs)).is_valid()


class WorkloadStep(Step):
    """Rule R3: throughput is asked only where it can change the answer (2 to 7 servers);
    otherwise a stored value is ignored and the recommendation takes "not limited"."""

    def asks(self, answers: dict | None) -> tuple[str, ...]:
        if answers is None or asks_throughput(answers):
            return self.fields
        return tuple(name for name in self.fields if name != "throughput_limited")

    def form_kwargs(self, answers: dict | None) -> dict:
        return {"ask_throughput": "throughput_limited" in self.asks(answers)}

    def answers_for_result(self, answers: dict) -> dict:
        data = super().answers_for_result(answers)
        if "throughput_limited" not in self.asks(answers):
            # Not asked (R3 cannot apply), so a stale stored value must not add a reason.
            data["throughput_limited"] = False
        return data


STEPS: tuple[Step, ...] = (
    Step("scale", _("Scale"), _("How many GPUs will the cluster have?"), wf.ScaleForm,
         "wizard/step_scale.html", frozenset({"scale"}), ("tree-single-server",)),
    WorkloadStep("workload", _("Workload"), _("What will the cluster mostly run?"),
                 wf.WorkloadForm, "wizard/step_workload.html", frozenset({"workload"}),
                 ("tree-thousand-gpus",)),
    Step("budget", _("Budget"), _("How do you weigh cost against performance?"),
         wf.BudgetForm, "wizard/step_budget.html", frozenset({"budget"}),
         ("tree-multi-node-budget",)),
    Step("determinism", _("Determinism"), _("How strict are your latency requirements?"),
         wf.DeterminismForm, "wizard/step_determinism.html", frozenset({"determinism"}),
         ("tree-strict",)),
    Step("nic-speed", _("Network hardware"), _("Which NICs, distances and switches?"),
         wf.NicSpeedForm, "wizard/step_nic_speed.html", frozenset({"speed"}), ()),
)
STEPS_BY_ID = {step.identifier: step for step in STEPS}
# Answer field -> the step that asks it (what-ifs, the result page's "Change" links).
STEP_OF_FIELD = {f.name: STEPS_BY_ID[f.step] for f in ANSWER_FIELDS}
RESULT = "result"
# What a session can reach, in the wizard's order: the questions, then the result.
# WizardSession.furthest_step stores one of these identifiers (not a position, so a step
# inserted later does not change what stored sessions mean; wizard/0003 mapped the old
# positions). The funnel counts them in this order.
STAGES: tuple[str, ...] = (*(step.identifier for step in STEPS), RESULT)


def applicable_steps(answers: dict) -> list[Step]:
    return [step for step in STEPS if step.is_applicable(answers)]


def step_index(step: Step) -> int:
    """1-based position in today's full list (to compare two steps; never stored)."""
    return STEPS.index(step) + 1


def stage_rank(identifier: str) -> int:
    """Position of a stage in STAGES; -1 for an identifier no stage has (any more)."""
    return STAGES.index(identifier) if identifier in STAGES else -1


def stages_from(identifier: str) -> tuple[str, ...]:
    """``identifier`` and the stages after it: a session whose furthest stage is one of
    these got at least that far."""
    return STAGES[stage_rank(identifier):] if identifier in STAGES else ()


def first_incomplete(answers: dict) -> Step | None:
    for step in applicable_steps(answers):
        if not step.is_completed(answers):
            return step
    return None


def next_step(answers: dict, step: Step) -> Step | None:
    steps = applicable_steps(answers)
    later = steps[steps.index(step) + 1:] if step in steps else []
    return later[0] if later else None


def previous_step(answers: dict, step: Step) -> Step | None:
    steps = applicable_steps(answers)
    if step not in steps or steps.index(step) == 0:
        return None
    return steps[steps.index(step) - 1]


def build_answers(answers: dict) -> Answers | None:
    """Validated, complete Answers from the stored answers, or None."""
    if first_incomplete(answers) is not None:
        return None
    data = {}
    for step in applicable_steps(answers):
        data.update(step.answers_for_result(answers))
    try:
        return Answers.from_dict(data)
    except InvalidAnswers:
        return None
