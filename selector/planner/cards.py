"""The parts of a recommendation's view-model (selector.planner.presenter): the fabric
columns with their bill of materials and cost, the side-by-side table, the tuning and
determinism cards and the sources they cite, in the active language.

Customers see source titles and links, never an internal path (tests/planner).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from selector.core import explain
from selector.core.i18n import active_is_english
from selector.domain import (
    BomLine,
    Citation,
    FabricOption,
    Recommendation,
    Source,
    TuningProfile,
)
from selector.domain.determinism import determinism_settings
from selector.domain.determinism import sources as determinism_sources
from selector.domain.plan import NOTE_SOURCES
from selector.domain.tuning import InfinibandTuning, infiniband_tuning
from selector.planner import words
from selector.planner.diagram import fabric_svg
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


def cost_view(plan) -> CostView:
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


def fabric_view(option: FabricOption, recommended: bool, id_prefix: str) -> FabricView:
    plan = option.plan
    label = explain.fabric_label(option.fabric)
    short = str(explain.FABRIC_SHORT[option.fabric])
    badge = _("Recommended") if recommended else _("Runner-up")
    switch_text, switch_detail = _switch_text(option)
    if plan is None:
        note = words.no_plan_text(option)
        return FabricView(option, recommended, label, short, badge, note, "", "", "", [],
                          None, None, None, None, "—", False, cost_view(None), id_prefix)
    return FabricView(
        option=option, recommended=recommended, label=label, short=short, badge=badge,
        note="", switch_text=switch_text, switch_detail=switch_detail,
        design=words.design_text(plan),
        notes=[words.note_text(n, plan) for n in plan.notes] + (
            [words.power_note(plan)] if words.power_note(plan) else []),
        switches=plan.switches, modules=plan.modules,
        cables=plan.cables, power_w=plan.power_w,
        power_text=words.power_text(plan), power_complete=plan.power_complete,
        cost=cost_view(plan), id_prefix=id_prefix,
    )


def table_rows(fabrics: list[FabricView]) -> list[TableRow]:
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


def tuning_view(profile: TuningProfile | None) -> TuningView | None:
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


def infiniband_view(rec: Recommendation) -> TuningView | None:
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


def determinism_view(rec: Recommendation) -> DeterminismView | None:
    settings = determinism_settings(rec.answers, rec.decision.recommendation)
    if not settings:
        return None
    rows = [TuningRow(s.key, words.determinism_label(s.key), s.value, "",
                      [_citation(s.citation)]) for s in settings]
    return DeterminismView(heading=words.determinism_heading(),
                           intro=words.determinism_intro(), rows=rows,
                           sources=[SourceView.of(s) for s in determinism_sources()])


def sources_of(fabrics: list[FabricView], tuning: TuningView | None) -> list[SourceView]:
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
