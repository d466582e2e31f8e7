"""THE presenter: one view-model for a Recommendation, used by the wizard result page, the
PDF report, the staff lead page and the API. Whatever a customer or a salesperson sees
about a recommendation (answers, reasons, the fabrics side by side, the bill of materials,
power, cost, tuning values and their sources, the diagram, the Organization node) is built
here, in the active language, from a ``selector.domain.Recommendation``: a fresh one (wizard,
API) or a lead's frozen snapshot (staff page, PDF, JSON-LD).

Customers see source titles and links, never an internal path (tests/planner).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from urllib.parse import urlencode

from django.conf import settings
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from selector.core import explain
from selector.core.answers import NAMES, label_of
from selector.core.codeversion import code_version
from selector.core.i18n import active_is_english
from selector.core.siteurl import site_url
from selector.domain import (
    RULES_BY_ID,
    BomLine,
    Citation,
    Fabric,
    FabricOption,
    Recommendation,
    Source,
    TuningProfile,
)
from selector.domain.decision import PLAN_FIELDS, throughput_matters
from selector.domain.determinism import determinism_settings
from selector.domain.determinism import sources as determinism_sources
from selector.domain.plan import NOTE_SOURCES
from selector.domain.tuning import InfinibandTuning, infiniband_tuning
from selector.planner import words
from selector.planner.build import BuildParams, BuildView, build_api, build_view
from selector.planner.diagram import fabric_svg
from selector.planner.services import snapshot_digest
from selector.planner.words import money, num, watts


@dataclass(frozen=True)
class SourceView:
    title: str  # in the active language where we have a description, else as published
    url: str
    date: str
    original: str  # the document's own title

    @classmethod
    def of(cls, source: Source) -> SourceView:
        title = source.title
        if not active_is_english() and source.title_zh:
            title = source.title_zh
        return cls(title=title, url=source.url, date=source.date, original=source.title)


@dataclass(frozen=True)
class CitationView:
    source: SourceView
    remark: str


def _citation(cit: Citation) -> CitationView:
    return CitationView(SourceView.of(cit.source), words.remark(cit.remark))


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
class BomRow:
    tier: str
    tier_label: str
    kind: str
    item: str  # vendor + model
    description: str
    reach: str
    count: int
    count_text: str
    power_each: str
    power_total: str
    source: SourceView


@dataclass(frozen=True)
class CostView:
    text: str
    currency: str
    amount: Decimal | None
    as_of: str
    note: str
    is_example: bool


@dataclass(frozen=True)
class FabricView:
    """One fabric column: the recommended one first, then the runner-up."""

    option: FabricOption
    recommended: bool
    label: str
    short: str
    badge: str
    note: str  # why there is no plan
    switch_text: str
    switch_detail: str
    design: str
    notes: list[str]
    switches: int | None
    modules: int | None
    cables: int | None
    power_w: int | None
    power_text: str
    power_complete: bool
    cost: CostView
    id_prefix: str = "fabric"

    @property
    def plan(self):
        return self.option.plan

    @property
    def switches_text(self) -> str:
        return num(self.switches or 0)

    @property
    def modules_text(self) -> str:
        return num(self.modules or 0)

    @property
    def cables_text(self) -> str:
        return num(self.cables or 0)

    @cached_property
    def bom(self) -> list[BomRow]:
        return _bom_rows(self.plan) if self.plan is not None else []

    @cached_property
    def diagram(self) -> SafeString:
        return fabric_svg(self.option, self.id_prefix)

    @cached_property
    def diagram_print(self) -> SafeString:
        return fabric_svg(self.option, self.id_prefix, variant="print")

    @property
    def fabric(self) -> str:
        return self.option.fabric.value


@dataclass(frozen=True)
class TableRow:
    label: str
    values: list[str]
    total: bool = False


@dataclass(frozen=True)
class TuningRow:
    key: str
    label: str
    value: str
    explanation: str
    citations: list[CitationView]


@dataclass(frozen=True)
class TuningView:
    profile: TuningProfile | InfinibandTuning
    intro: str
    family_label: str
    rows: list[TuningRow]
    config: list[tuple[str, CitationView | None]]
    config_text: str
    warnings: list[str]
    sources: list[SourceView]


@dataclass(frozen=True)
class DeterminismView:
    """Latency and determinism (selector.domain.determinism): InfiniBand and
    strict-determinism results only."""

    heading: str
    intro: str
    rows: list[TuningRow]
    sources: list[SourceView]


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
        return _table_rows(self.fabrics)

    @cached_property
    def tuning(self) -> TuningView | None:
        if self.rec.tuning is not None:
            return _tuning_view(self.rec.tuning)
        return _infiniband_view(self.rec)

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
        return _determinism_view(self.rec)

    @cached_property
    def sources(self) -> list[SourceView]:
        found = _sources(self.fabrics, self.tuning)
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


def _cost_view(plan) -> CostView:
    cost = plan.cost if plan is not None else None
    if cost is None or not cost.complete:
        return CostView(_("Price on request"), "", None, "", "", False)
    note = cost.note if active_is_english() else (cost.note_zh or cost.note)
    text = money(cost.amount, cost.currency)
    return CostView(text, cost.currency, cost.amount, cost.as_of, note, cost.is_example)


def _bom_rows(plan) -> list[BomRow]:
    rows = []
    for line in plan.bom:
        rows.append(_bom_row(line))
    return rows


def _bom_row(line: BomLine) -> BomRow:
    desc = line.description if active_is_english() else (line.description_zh or line.description)
    reach = f"≤\u00a0{num(line.reach_m)}\u00a0m" if line.reach_m else ""  # never split
    item = f"{line.vendor} {line.model}" if line.vendor not in ("", "—") else line.model
    return BomRow(
        tier=line.tier, tier_label=words.tier_label(line.tier, line.end), kind=line.kind,
        item=item, description=desc, reach=reach, count=line.count, count_text=num(line.count),
        power_each=watts(line.power_w) if line.power_w else ("—" if line.power_w is None
                                                             else "0 W"),
        power_total=watts(line.power_total) if line.power_w is not None else "—",
        source=SourceView.of(line.source),
    )


def _switch_text(option: FabricOption) -> tuple[str, str]:
    plan = option.plan
    if plan is None:
        return "", ""
    switch = plan.switch
    chip = switch.asic.split(" ", 1)[-1]  # "NVIDIA Spectrum-4" -> "Spectrum-4"
    if chip and chip in switch.model:  # the model's name already says it
        detail = f"{switch.ports} × {switch.port_speed_gbps}G"
    else:
        detail = _("%(ports)s × %(speed)sG (%(asic)s)") % {
            "ports": switch.ports, "speed": switch.port_speed_gbps, "asic": switch.asic}
    if plan.port_gbps != switch.port_speed_gbps:
        detail += " · " + _("GPU ports %(count)s × %(speed)sG by breakout") % {
            "count": switch.ports * (switch.port_speed_gbps // plan.port_gbps),
            "speed": plan.port_gbps}
    return f"{switch.vendor} {switch.model}", detail


def _fabric_view(option: FabricOption, recommended: bool, id_prefix: str) -> FabricView:
    plan = option.plan
    label = explain.fabric_label(option.fabric)
    short = str(explain.FABRIC_SHORT[option.fabric])
    badge = _("Recommended") if recommended else _("Runner-up")
    switch_text, switch_detail = _switch_text(option)
    if plan is None:
        note = words.no_plan_text(option)
        return FabricView(option, recommended, label, short, badge, note, "", "", "", [],
                          None, None, None, None, "—", False, _cost_view(None), id_prefix)
    return FabricView(
        option=option, recommended=recommended, label=label, short=short, badge=badge,
        note="", switch_text=switch_text, switch_detail=switch_detail,
        design=words.design_text(plan),
        notes=[words.note_text(n, plan) for n in plan.notes] + (
            [words.power_note(plan)] if words.power_note(plan) else []),
        switches=plan.switches, modules=plan.modules,
        cables=plan.cables, power_w=plan.power_w,
        power_text=words.power_text(plan), power_complete=plan.power_complete,
        cost=_cost_view(plan), id_prefix=id_prefix,
    )


def _table_rows(fabrics: list[FabricView]) -> list[TableRow]:
    def cells(fn) -> list[str]:
        return [fn(view) if view.plan is not None else (view.note or "—") for view in fabrics]

    def plain(fn) -> list[str]:
        return [fn(view) if view.plan is not None else "—" for view in fabrics]

    return [
        TableRow(_("Switch"), cells(lambda v: f"{v.switch_text} · {v.switch_detail}")),
        TableRow(_("Design"), plain(lambda v: v.design)),
        TableRow(_("GPU links"), plain(lambda v: words.gpu_links_text(v.plan))),
        TableRow(_("Uplinks"), plain(lambda v: words.uplinks_text(v.plan))),
        TableRow(_("Leaf switches"), plain(lambda v: num(v.plan.leaf))),
        TableRow(_("Spine switches"), plain(lambda v: num(v.plan.spine))),
        TableRow(_("Core switches"), plain(lambda v: num(v.plan.core))),
        TableRow(_("Switches in total"), plain(lambda v: num(v.switches)), total=True),
        TableRow(_("Optical modules"), plain(lambda v: num(v.modules))),
        TableRow(_("Cables and fibres"), plain(lambda v: num(v.cables))),
        TableRow(_("Power (switches and optics)"), plain(lambda v: v.power_text)),
        TableRow(_("Indicative cost"), plain(lambda v: v.cost.text)),
    ]


def _tuning_view(profile: TuningProfile | None) -> TuningView | None:
    if profile is None:
        return None
    cit = profile.citations
    rows = []
    for key, label, value, explanation in words.tuning_rows(profile):
        rows.append(TuningRow(key, label, value, explanation,
                              [_citation(c) for c in cit.get(key, ())]))
    config = [(line.text, _citation(line.citation) if line.citation else None)
              for line in profile.config]
    return TuningView(
        profile=profile, intro=words.tuning_intro(profile),
        family_label=words.family_label(profile.family), rows=rows, config=config,
        config_text="\n".join(text for text, _c in config),
        warnings=[words.warning_text(w) for w in profile.warnings],
        sources=[SourceView.of(s) for s in profile.sources()],
    )


def _infiniband_view(rec: Recommendation) -> TuningView | None:
    plan = rec.recommended.plan
    if plan is None or plan.switch.technology != "infiniband":
        return None
    t = infiniband_tuning(plan.tiers)
    rows = [TuningRow(key, label, value, explanation,
                      [_citation(c) for c in t.citations.get(key, ())])
            for key, label, value, explanation in words.infiniband_rows(t)]
    config = [(line.text, _citation(line.citation) if line.citation else None)
              for line in t.config]
    return TuningView(
        profile=t, intro=words.infiniband_intro(), family_label=words.family_label(t.family),
        rows=rows, config=config, config_text="\n".join(text for text, _c in config),
        warnings=[], sources=[SourceView.of(s) for s in t.sources()])


def _determinism_view(rec: Recommendation) -> DeterminismView | None:
    settings = determinism_settings(rec.answers, rec.decision.recommendation)
    if not settings:
        return None
    rows = [TuningRow(s.key, words.determinism_label(s.key), s.value, "",
                      [_citation(s.citation)]) for s in settings]
    return DeterminismView(heading=words.determinism_heading(),
                           intro=words.determinism_intro(), rows=rows,
                           sources=[SourceView.of(s) for s in determinism_sources()])


def _sources(fabrics: list[FabricView], tuning: TuningView | None) -> list[SourceView]:
    seen: dict[str, SourceView] = {}
    for view in fabrics:
        plan = view.plan
        if plan is None:
            continue
        for source in plan.switch.sources:
            seen.setdefault(source.title, SourceView.of(source))
        for line in plan.bom:
            seen.setdefault(line.source.title, SourceView.of(line.source))
        for note in plan.notes:
            for source in NOTE_SOURCES.get(note.key, ()):
                seen.setdefault(source.title, SourceView.of(source))
    if tuning:
        for source in tuning.sources:
            seen.setdefault(source.original, source)
    return list(seen.values())


def _absolute(name: str) -> str:
    try:
        return site_url() + reverse(name)
    except NoReverseMatch:
        return site_url() + "/"


def organization_node(company) -> dict:
    """The schema.org Organization for the company (one builder for the public pages, the
    result page, the report and its attachment)."""
    with translation.override(settings.LANGUAGE_CODE):
        org_id = _absolute("home") + "#organization"
    contact: dict = {
        "@type": "ContactPoint",
        "contactType": "customer support",
        "availableLanguage": ["zh-Hans", "en"],
        "url": _absolute("wizard:start"),
    }
    if company.phone:
        contact["telephone"] = company.phone
    if company.email:
        contact["email"] = company.email
    if company.support_hours.replace(" ", "").lower() in {"7x24", "24x7", "7*24", "24/7"}:
        contact["hoursAvailable"] = {
            "@type": "OpeningHoursSpecification",
            "dayOfWeek": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                          "Sunday"],
            "opens": "00:00",
            "closes": "23:59",
        }
    node = {
        "@type": "Organization",
        "@id": org_id,
        "name": company.name,
        "alternateName": company.short_name,
        "description": company.tagline,
        "url": _absolute("home"),
        "logo": {"@type": "ImageObject", "url": site_url() + static("img/logo.svg")},
        "contactPoint": contact,
    }
    if company.address:
        node["address"] = company.address
    return node


# --- the view-model --------------------------------------------------------------------------


def present(rec: Recommendation, *, company=None, id_prefix: str = "fabric",
            build: BuildParams | None = None) -> ViewModel:
    """The view-model of ``rec`` in the active language."""
    decision = rec.decision
    fabrics = [_fabric_view(rec.recommended, True, f"{id_prefix}-recommended"),
               _fabric_view(rec.runner_up, False, f"{id_prefix}-runner-up")]
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
        cost=main.cost if main else _cost_view(None),
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


def fabric_api(option: FabricOption, build: BuildParams | None = None) -> dict | None:
    """The API's ``fabric`` object: the plan, plus its build part (``performance``,
    ``failure_domains``, ``racks``); /api/fabric and /api/recommend both use it."""
    data = option.api_dict()
    if data is None or option.plan is None:
        return data
    data.update(build_api(option.plan, build or BuildParams()))
    return data


def api_dict(rec: Recommendation, build: BuildParams | None = None) -> dict:
    """The API's body for /api/recommend (words in the active language)."""
    decision = rec.decision
    return {
        "recommendation": decision.recommendation.value,
        "recommendation_label": explain.fabric_label(decision.recommendation),
        "rule": decision.rule,
        "rule_title": str(explain.RULE_TITLES[decision.rule]),
        "seed_quote": RULES_BY_ID[decision.rule].seed_quote,
        "servers": decision.servers,
        "reasons": [explain.reason_text(r) for r in decision.reasons],
        "reason_keys": [r.to_dict() for r in decision.reasons],
        "runner_up": decision.runner_up.value,
        "what_if": [{**w.to_dict(), "text": explain.what_if_text(w)} for w in decision.what_if],
        "fabric": fabric_api(rec.recommended, build),
        "runner_up_fabric": fabric_api(rec.runner_up, build),
        "fabric_error": _error(rec.recommended),
        "runner_up_fabric_error": _error(rec.runner_up),
        "tuning": _tuning_api(rec.tuning),
        "infiniband_tuning": _infiniband_api(rec),
        "answers": rec.answers.to_dict(),
        "engine_version": rec.engine_version,
        "catalogue_version": rec.catalogue_version,
    }


def _error(option: FabricOption) -> dict | None:
    if option.plan is not None or option.fabric == Fabric.STANDARD:
        return None
    return {"code": option.error, "max_gpus": option.max_gpus,
            "message": words.no_plan_text(option)}


def _infiniband_api(rec: Recommendation) -> dict | None:
    plan = rec.recommended.plan
    if rec.tuning is not None or plan is None or plan.switch.technology != "infiniband":
        return None
    t = infiniband_tuning(plan.tiers)
    data = t.to_dict()
    data["rows"] = [{"key": key, "label": label, "value": value, "explanation": expl}
                    for key, label, value, expl in words.infiniband_rows(t)]
    return data


def _tuning_api(profile: TuningProfile | None) -> dict | None:
    if profile is None:
        return None
    data = profile.to_dict()
    data["warnings"] = [{**w.to_dict(), "text": words.warning_text(w)}
                        for w in profile.warnings]
    return data
