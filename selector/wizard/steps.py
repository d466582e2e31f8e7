"""The wizard as a list of step objects (after pretix's checkout flow): each step knows
whether it applies to this visitor, whether its answers are complete and valid, its form
and its template. The dispatcher sends every request to the first incomplete step, so a
URL can never skip one, and the result is computed only from the answers stored on the
server (``WizardSession.answers``), re-validated by the same forms."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from selector.domain import Answers, InvalidAnswers
from selector.domain.decision import SMALL_CLUSTER_SERVERS
from selector.wizard import forms as wf


def servers_of(answers: dict) -> int | None:
    """Servers for the stored scale answers, or None while they are incomplete."""
    try:
        return Answers(gpus=answers.get("gpus"),
                       gpus_per_server=answers.get("gpus_per_server")).servers
    except (InvalidAnswers, TypeError):
        return None


def asks_throughput(answers: dict) -> bool:
    """Rule R3: throughput only changes the answer for 2 to 7 servers."""
    servers = servers_of(answers)
    return servers is not None and 1 < servers < SMALL_CLUSTER_SERVERS


def _as_data(value: object, name: str = "nic_speed") -> str:
    """A stored answer as the form would have received it (``None`` is the NIC speed's "not
    sure" and an empty number elsewhere)."""
    if value is None:
        return wf.UNSURE if name == "nic_speed" else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class Step:
    identifier: str
    label: Promise
    title: Promise  # the question, as the step heading
    form_class: type[wf.StepForm]
    template: str
    fields: tuple[str, ...]
    faq_topics: frozenset[str] = field(default_factory=frozenset)
    decision_keys: tuple[str, ...] = ()  # ContentBlock keys of decision-tree lines
    # Fields with a default: a session stored before they existed is still complete.
    optional: tuple[str, ...] = ()

    def is_applicable(self, answers: dict) -> bool:
        return True

    def form_kwargs(self, answers: dict) -> dict:
        return {}

    def make_form(self, answers: dict, data=None) -> wf.StepForm:
        """Bound to ``data`` (a POST) or unbound with the stored answers as initial."""
        kwargs = self.form_kwargs(answers)
        if data is not None:
            return self.form_class(data, **kwargs)
        initial = {name: _as_data(answers[name], name) for name in self.fields if name in answers}
        return self.form_class(initial=initial, **kwargs)

    def is_completed(self, answers: dict) -> bool:
        form = self.form_class(self.stored_data(answers), **self.form_kwargs(answers))
        if any(name not in answers for name in form.fields if name not in self.optional):
            return False
        return form.is_valid()

    def stored_data(self, answers: dict) -> dict:
        return {name: _as_data(answers[name], name) for name in self.fields if name in answers}


class WorkloadStep(Step):
    def form_kwargs(self, answers: dict) -> dict:
        return {"ask_throughput": asks_throughput(answers)}


STEPS: tuple[Step, ...] = (
    Step("scale", _("Scale"), _("How many GPUs will the cluster have?"), wf.ScaleForm,
         "wizard/step_scale.html", ("gpus", "gpus_per_server"),
         frozenset({"scale"}), ("tree-single-server",)),
    WorkloadStep("workload", _("Workload"), _("What will the cluster mostly run?"),
                 wf.WorkloadForm, "wizard/step_workload.html",
                 ("workload", "throughput_limited"), frozenset({"workload"}),
                 ("tree-thousand-gpus",)),
    Step("budget", _("Budget"), _("How do you weigh cost against performance?"),
         wf.BudgetForm, "wizard/step_budget.html", ("budget",), frozenset({"budget"}),
         ("tree-multi-node-budget",)),
    Step("determinism", _("Determinism"), _("How strict are your latency requirements?"),
         wf.DeterminismForm, "wizard/step_determinism.html", ("determinism",),
         frozenset({"determinism"}), ("tree-strict",)),
    Step("nic-speed", _("Network hardware"), _("Which NICs, distances and switches?"),
         wf.NicSpeedForm, "wizard/step_nic_speed.html",
         ("nic_speed", "nics_per_server", "distance", "vendor"),
         frozenset({"speed"}), (), optional=("nics_per_server", "distance", "vendor")),
)
STEPS_BY_ID = {step.identifier: step for step in STEPS}
RESULT = "result"
# WizardSession.furthest_step counts 1..len(STEPS) for the questions, then the result.
RESULT_INDEX = len(STEPS) + 1
ANSWER_FIELDS = ("gpus", "gpus_per_server", "workload", "budget", "determinism",
                 "throughput_limited", "nic_speed", "nics_per_server", "distance", "vendor")


def applicable_steps(answers: dict) -> list[Step]:
    return [step for step in STEPS if step.is_applicable(answers)]


def step_index(step: Step) -> int:
    """1-based position in the full list (stable for the funnel report)."""
    return STEPS.index(step) + 1


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
    data = {name: answers[name] for name in ANSWER_FIELDS if name in answers}
    if not asks_throughput(answers):
        # Not asked (R3 cannot apply), so a stale stored value must not add a reason.
        data["throughput_limited"] = False
    try:
        return Answers.from_dict(data)
    except InvalidAnswers:
        return None
