"""The decision tree diagram on the landing page.

The engine's rules are tried in order and the first match decides, so the tree is a ladder:
each question has a "yes" leaf and a "no" that leads to the next question. Every leaf links
to the wizard pre-filled with a complete answer set that ends on that leaf's rule
(``/wizard/?gpus=..&...``, the wizard's prefill contract); the label on the leaf is what
``decide()`` returns for those answers, so the diagram cannot claim something the engine
does not say. The seed article's tree lines (content blocks of section "decision") are
shown on the leaf whose rule formalises them.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from selector.content.models import ContentBlock
from selector.core.answers import NAMES, form_value
from selector.core.explain import FABRIC_SHORT, RULE_TITLES, fabric_label, value_label
from selector.domain import Answers, Budget, Decision, Determinism, Workload, decide
from selector.domain.answers import PLAN_FIELDS
from selector.domain.decision import SMALL_CLUSTER_SERVERS, THOUSAND_GPUS

# One complete answer set per rule. Every field is given (nic_speed too), so each wizard
# step arrives pre-filled and "Next" all the way through reproduces the leaf. Servers of 8
# GPUs, throughput not limited; per rule: GPUs, workload, budget, determinism, NIC speed.
_LEAVES: dict[str, tuple[int, Workload, Budget, Determinism, int]] = {
    "R1": (8, Workload.TRAINING, Budget.BALANCED, Determinism.STANDARD, 400),
    "R2": (64, Workload.TRAINING, Budget.BALANCED, Determinism.STRICT, 400),
    "R3": (32, Workload.TRAINING, Budget.BALANCED, Determinism.STANDARD, 400),
    "R4": (128, Workload.INFERENCE, Budget.BALANCED, Determinism.STANDARD, 400),
    "R5": (256, Workload.TRAINING, Budget.PERFORMANCE, Determinism.STANDARD, 400),
    "R6": (1024, Workload.TRAINING, Budget.BALANCED, Determinism.STANDARD, 800),
    "R7": (128, Workload.TRAINING, Budget.SENSITIVE, Determinism.STANDARD, 400),
}
LEAF_ANSWERS: dict[str, Answers] = {
    rule: Answers(gpus=gpus, gpus_per_server=8, workload=workload, budget=budget,
                  determinism=determinism, throughput_limited=False, nic_speed=nic_speed)
    for rule, (gpus, workload, budget, determinism, nic_speed) in _LEAVES.items()
}

# The question whose "yes" leads to each rule, in the engine's order. R7 is the final "no".
QUESTIONS = {
    "R1": _("Does the whole cluster fit in one server?"),
    "R2": _("Is strict determinism required (financial high-frequency trading, hard latency "
            "bounds)?"),
    "R3": _("Fewer than %(servers)s servers, and training throughput not limited by the "
            "network?"),
    "R4": _("Is the workload inference, without a performance-first budget?"),
    "R5": _("Does the budget put performance first?"),
    "R6": _("%(gpus)s GPUs or more, or 800G NICs?"),
    "R7": _("Otherwise"),
}

# Seed decision-tree lines (ContentBlock keys) and the rule each one formalises.
SEED_LINE_RULES = {
    "tree-single-server": "R1",
    "tree-strict": "R2",
    "tree-thousand-gpus": "R6",
    "tree-multi-node-budget": "R7",
}


def prefill_query(answers: Answers) -> str:
    """The wizard's prefill query string for a complete answer set: the answers the rule
    reads (the hardware answers keep the wizard's defaults), as the step forms take them."""
    data = answers.to_dict()
    return urlencode({name: form_value(name, data[name]) for name in NAMES
                      if name not in PLAN_FIELDS and data[name] is not None})


@dataclass(frozen=True)
class Leaf:
    rule: str
    question: str
    answers: Answers
    decision: Decision
    seed_lines: tuple[ContentBlock, ...]

    @property
    def fabric(self) -> str:
        return str(FABRIC_SHORT[self.decision.recommendation])

    @property
    def fabric_label(self) -> str:
        return fabric_label(self.decision.recommendation)

    @property
    def rule_title(self) -> str:
        return str(RULE_TITLES[self.rule])

    @property
    def wizard_url(self) -> str:
        return f"{reverse('wizard:start')}?{prefill_query(self.answers)}"

    @property
    def example(self) -> str:
        """The pre-filled answers in words, e.g. "16 servers x 8 GPUs · Training · ..."."""
        a = self.answers
        parts = [
            _("%(gpus)s GPUs (%(servers)s x %(per)s)") % {
                "gpus": a.gpus, "servers": a.servers, "per": a.gpus_per_server},
            value_label("workload", a.workload),
            value_label("budget", a.budget),
        ]
        if a.determinism == "strict":
            parts.append(str(_("Strict determinism")))
        if a.nic_speed:
            parts.append(value_label("nic_speed", a.nic_speed))
        return " · ".join(str(p) for p in parts)


def decision_tree(seed_blocks: list[ContentBlock]) -> tuple[list[Leaf], list[ContentBlock]]:
    """The leaves in engine order, plus seed lines that no rule claims (shown as a list)."""
    by_rule: dict[str, list[ContentBlock]] = {}
    unmatched = []
    for block in seed_blocks:
        rule = SEED_LINE_RULES.get(block.key)
        if rule:
            by_rule.setdefault(rule, []).append(block)
        else:
            unmatched.append(block)
    leaves = []
    for rule, answers in LEAF_ANSWERS.items():
        question = str(QUESTIONS[rule]) % {"servers": SMALL_CLUSTER_SERVERS,
                                           "gpus": THOUSAND_GPUS}
        leaves.append(Leaf(rule=rule, question=question, answers=answers,
                           decision=decide(answers), seed_lines=tuple(by_rule.get(rule, ()))))
    return leaves, unmatched
