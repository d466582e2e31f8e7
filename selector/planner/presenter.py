"""THE presenter: one view-model for a Recommendation, used by the wizard result page, the
PDF report, the staff lead page and the API. Whatever a customer or a salesperson sees
about a recommendation (answers, reasons, the fabrics side by side, the bill of materials,
power, cost, tuning values and their sources, the diagram, the Organization node) is built
here, in the active language, from a ``selector.domain.Recommendation``: a fresh one (wizard,
API) or a lead's frozen snapshot (staff page, PDF, JSON-LD).

The parts live beside it: ``cards`` (fabric columns, BOM, cost, table, tuning and
determinism cards, sources), ``organization`` (the Organization node) and ``apibody``
(the API's bodies); their public names stay importable from here, where callers import
them.

Customers see source titles and links, never an internal path (tests/planner).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from selector.core import explain
from selector.core.answers import NAMES, label_of
from selector.core.codeversion import code_version
from selector.domain import RULES_BY_ID, Fabric, Recommendation
from selector.domain.answers import PLAN_FIELDS
from selector.domain.decision import throughput_matters
from selector.planner.apibody import api_dict, fabric_api
from selector.planner.build import BuildParams, BuildView, build_view
from selector.planner.cards import (
    CitationView,
    CostView,
    DeterminismView,
    FabricView,
    SourceView,
    TableRow,
    TuningView,
    cost_view,
    determinism_view,
    fabric_view,
    infiniband_view,
    sources_of,
    table_rows,
    tuning_view,
)
from selector.planner.organization import organization_node
from selector.planner.services import snapshot_digest
from selector.planner.words import num

__all__ = ["AnswerRow", "CitationView", "CostView", "DeterminismView", "FabricView",
           "SourceView", "Summary", "TableRow", "TuningView", "ViewModel", "WhatIfView",
           "api_dict", "fabric_api", "highlight_for", "organization_node", "present"]


@dataclass(frozen=True)
class AnswerRow:
    field: str
    label: str
    value: str


@dataclass(frozen=True)
class WhatIfView:
    field: str
    value: str  # as the step form receives it
    text: str
    recommendation: str


@dataclass(frozen=True)
class Summary:
    """The key numbers of the recommended fabric (13's summary card and sticky bar)."""

    fabric_label: str
    has_fabric: bool
    switches: int | None
    switches_text: str
    modules: int | None
    modules_text: str
    cables: int | None
    power_w: int | None
    power_text: str
    power_complete: bool
    cost: CostView
    tiers: int | None
    planes: int | None
    gpu_link_gbps: int | None
    uplink_gbps: int | None
    switch_model: str


@dataclass
class ViewModel:
    rec: Recommendation
    recommendation_label: str
    recommendation_short: str
    runner_up_label: str
    rule_id: str
    rule_title: str
    seed_quote: str  # the article's sentence, verbatim Chinese
    seed_quote_translation: str  # in English on English pages, else ""
    reasons: list[str]
    what_ifs: list[WhatIfView]
    answer_rows: list[AnswerRow]
    highlight: str
    is_standard: bool
    is_roce: bool
    summary: Summary
    fabrics: list[FabricView]
    cost_ratio: str
    engine_version: str
    catalogue_version: str
    organization: dict = field(default_factory=dict)
    build_params: BuildParams = field(default_factory=BuildParams)

    @property
    def decision(self):
        return self.rec.decision

    # The detail is built when a template asks for it (the result page caches that markup).
    @cached_property
    def table_rows(self) -> list[TableRow]:
        return table_rows(self.fabrics)

    @cached_property
    def tuning(self) -> TuningView | None:
        if self.rec.tuning is not None:
            return tuning_view(self.rec.tuning)
        return infiniband_view(self.rec)

    @cached_property
    def tuning_heading(self) -> str:
        if self.rec.tuning is None and self.tuning is not None:
            return _("InfiniBand tuning")
        return _("Lossless tuning for RoCE v2")

    @cached_property
    def build(self) -> BuildView | None:
        """The build part (issue 23): estimate per planned fabric, failure domains, racks,
        acceptance plan, all from the frozen plans."""
        plans = [(view.plan, view.label) for view in self.fabrics if view.plan is not None]
        return build_view(plans, self.build_params)

    @cached_property
    def acceptance_url(self) -> str:
        """/api/acceptance.txt for the recommended plan (the runner-up when the standard
        network has none), same query as /api/fabric."""
        view = self.shown_fabric
        if view is None:
            return ""
        data = self.rec.answers.to_dict()
        query = {"gpus": data["gpus"], "gpus_per_server": data["gpus_per_server"],
                 "fabric": view.fabric}
        for key in ("nic_speed", *PLAN_FIELDS):
            if data.get(key) is not None:
                query[key] = data[key]
        extra = self.build_params.query()
        return reverse("api-acceptance") + "?" + urlencode(query) + (
            "&" + extra if extra else "")

    @cached_property
    def determinism(self) -> DeterminismView | None:
        return determinism_view(self.rec)

    @cached_property
    def sources(self) -> list[SourceView]:
        found = sources_of(self.fabrics, self.tuning)
        if self.determinism:
            titles = {s.original for s in found}
            found += [s for s in self.determinism.sources if s.original not in titles]
        return found

    @cached_property
    def fragment_key(self) -> str:
        """Identifies what the plan's markup shows: the answers, the engine and catalogue
        versions and the prices (the plan is a function of them), and the code that draws
        it (templates, code, translations: a deploy that changes them changes the key);
        the result page and the staff lead page cache that markup under it."""
        costs = [option.plan.cost.to_dict() if option.plan and option.plan.cost else None
                 for option in self.rec.options]
        key = {"answers": self.rec.answers.to_dict(), "engine": self.rec.engine_version,
               "catalogue": self.rec.catalogue_version, "costs": costs}
        return f"{code_version()}-{snapshot_digest(key)}"

    @property
    def gpus_text(self) -> str:
        return num(self.rec.answers.gpus)

    @property
    def servers_text(self) -> str:
        return num(self.rec.answers.servers)

    @property
    def recommended(self) -> FabricView:
        return self.fabrics[0]

    @property
    def runner_up(self) -> FabricView:
        return self.fabrics[1]

    @property
    def shown_fabric(self) -> FabricView | None:
        """The fabric the diagram shows: the recommended one, else the runner-up (the
        standard network has no back-end fabric; its runner-up is the plan if you grow)."""
        for view in self.fabrics:
            if view.plan is not None:
                return view
        return None

    def property_values(self) -> list[dict[str, object]]:
        """schema.org PropertyValue nodes for the JSON-LD: answers, BOM totals, tuning."""
        out: list[dict[str, object]] = [
            {"@type": "PropertyValue", "name": row.label, "value": row.value,
             "propertyID": f"answer.{row.field}"} for row in self.answer_rows]
        for view in self.fabrics:
            if view.plan is None:
                continue
            prefix = "recommended" if view.recommended else "runner_up"
            for key, label, value, unit in (
                ("switches", _("Switches"), view.switches, None),
                ("modules", _("Optical modules"), view.modules, None),
                ("cables", _("Cables and fibres"), view.cables, None),
                ("power_w", _("Power"), view.power_w, "W"),
            ):
                node: dict[str, object] = {
                    "@type": "PropertyValue", "propertyID": f"{prefix}.{key}",
                    "name": f"{view.short}: {label}", "value": value}
                if unit:
                    node["unitText"] = unit
                out.append(node)
        if self.tuning:
            for row in self.tuning.rows:
                out.append({"@type": "PropertyValue", "propertyID": f"tuning.{row.key}",
                            "name": row.label, "value": row.value})
        return out


# --- pieces ----------------------------------------------------------------------------------


def _answer_rows(rec: Recommendation) -> list[AnswerRow]:
    answers = rec.answers
    data = answers.to_dict()
    rows = []
    for name in NAMES:  # the order the wizard asks them
        if name == "throughput_limited" and not throughput_matters(answers.servers):
            continue
        rows.append(AnswerRow(name, label_of(name),
                              explain.value_label(name, data[name] if name != "gpus"
                                                  else answers.gpus)))
    return rows


def _as_data(value: object) -> str:
    value = getattr(value, "value", value)
    if value is None:
        return "unsure"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def highlight_for(fabric: Fabric) -> str:
    if fabric in (Fabric.ROCE_400, Fabric.ROCE_800):
        return "roce"
    if fabric == Fabric.INFINIBAND:
        return "infiniband"
    return ""


# --- the view-model --------------------------------------------------------------------------


def present(rec: Recommendation, *, company=None, id_prefix: str = "fabric",
            build: BuildParams | None = None) -> ViewModel:
    """The view-model of ``rec`` in the active language."""
    decision = rec.decision
    fabrics = [fabric_view(rec.recommended, True, f"{id_prefix}-recommended"),
               fabric_view(rec.runner_up, False, f"{id_prefix}-runner-up")]
    main = fabrics[0] if fabrics[0].plan is not None else None
    plan = main.plan if main else None
    summary = Summary(
        fabric_label=explain.fabric_label(decision.recommendation),
        has_fabric=plan is not None,
        switches=plan.switches if plan else None,
        switches_text=num(plan.switches) if plan else "—",
        modules=plan.modules if plan else None,
        modules_text=num(plan.modules) if plan else "—",
        cables=plan.cables if plan else None,
        power_w=plan.power_w if plan else None,
        power_text=main.power_text if main else "—",
        power_complete=plan.power_complete if plan else False,
        cost=main.cost if main else cost_view(None),
        tiers=plan.tiers if plan else None,
        planes=plan.plane_count if plan else None,
        gpu_link_gbps=plan.gpu_link_gbps if plan else None,
        uplink_gbps=plan.uplink_gbps if plan else None,
        switch_model=main.switch_text if main else "",
    )
    ratio = rec.cost_ratio()
    return ViewModel(
        rec=rec,
        recommendation_label=explain.fabric_label(decision.recommendation),
        recommendation_short=str(explain.FABRIC_SHORT[decision.recommendation]),
        runner_up_label=explain.fabric_label(decision.runner_up),
        rule_id=decision.rule,
        rule_title=str(explain.RULE_TITLES[decision.rule]),
        seed_quote=RULES_BY_ID[decision.rule].seed_quote,
        seed_quote_translation=explain.seed_quote_translation(decision.rule),
        reasons=[explain.reason_text(r) for r in decision.reasons],
        what_ifs=[WhatIfView(w.field, _as_data(w.value), explain.what_if_text(w),
                             w.recommendation.value) for w in decision.what_if],
        answer_rows=_answer_rows(rec),
        highlight=highlight_for(decision.recommendation),
        is_standard=decision.recommendation == Fabric.STANDARD,
        is_roce=rec.is_roce,
        summary=summary,
        fabrics=fabrics,
        cost_ratio=(_("RoCE costs %(ratio)s× InfiniBand at these prices (indicative).")
                    % {"ratio": ratio} if ratio is not None else ""),
        engine_version=rec.engine_version,
        catalogue_version=rec.catalogue_version,
        organization=organization_node(company) if company is not None else {},
        build_params=build or BuildParams(),
    )
