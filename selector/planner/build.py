"""The build part of a recommendation in words: the collective-bandwidth estimate, the
failure domains, racks and power, and the acceptance test plan, for the result page, the
shared result, the staff lead page, the PDF and the API (through the presenter).

Everything is computed from the frozen plan (selector.domain.build), so the same numbers
appear everywhere; the customer's choices (model size or message size, rack power and
height) are ``BuildParams``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from selector.core.i18n import active_is_english
from selector.domain.build.acceptance import Step, acceptance_plan
from selector.domain.build.failure import FailureDomain, failure_domains
from selector.domain.build.performance import (
    FORMULA,
    NCCL_PERFORMANCE,
    Assumption,
    Estimate,
    estimate,
)
from selector.domain.build.racks import RACK_KW_DEFAULT, RACK_U_DEFAULT, Racks, racks
from selector.domain.catalogue import Source
from selector.domain.fabric import FabricPlan
from selector.planner.words import num

__all__ = ["BuildParams", "BuildView", "build_view", "build_api", "acceptance_text"]


@dataclass(frozen=True)
class BuildParams:
    """The customer's choices: a model size (bf16 gradients) or a message size for the
    all-reduce time, and the rack power budget and height."""

    model_params_b: float | None = None
    message_bytes: int | None = None
    rack_kw: float = RACK_KW_DEFAULT
    rack_u: int = RACK_U_DEFAULT

    def query(self) -> str:
        parts = []
        if self.message_bytes is not None:
            parts.append(f"message_bytes={self.message_bytes}")
        elif self.model_params_b is not None:
            parts.append(f"model_params_b={self.model_params_b:g}")
        if self.rack_kw != RACK_KW_DEFAULT:
            parts.append(f"rack_kw={self.rack_kw:g}")
        if self.rack_u != RACK_U_DEFAULT:
            parts.append(f"rack_u={self.rack_u}")
        return "&".join(parts)


def _source_title(source: Source) -> str:
    return source.title if active_is_english() or not source.title_zh else source.title_zh


def gbytes(value: float) -> str:
    return f"{value:,.0f} GB/s" if value >= 100 else f"{value:,.1f} GB/s"


def byte_size(value: int) -> str:
    """Decimal units, as the model sizes are written (14 GB for 7B parameters in bf16)."""
    for unit, scale in (("TB", 10**12), ("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if value >= scale:
            amount = value / scale
            return f"{amount:,.0f} {unit}" if amount >= 100 else f"{amount:,.1f} {unit}"
    return f"{value} B"


def seconds(value: float) -> str:
    if value >= 1:
        return f"{value:,.2f} s"
    if value >= 0.001:
        return f"{value * 1000:,.1f} ms"
    return f"{value * 1_000_000:,.0f} μs"


def estimate_label() -> str:
    return _("Estimate, not a measurement")


def assumption_text(a: Assumption) -> str:
    p = a.params
    texts = {
        "efficiency": _(
            "Link efficiency %(pct)s%% of line rate: NCCL's maintainers give about 24 GB/s "
            "per HDR 200G NIC and 48 to 49 GB/s per NDR 400G NIC.") % {
                "pct": p.get("efficiency_pct")},
        "same_roce_ib": _(
            "RoCE v2 and InfiniBand get the same figure: no document we read gives them "
            "different link efficiencies."),
        "ring_bottleneck": _(
            "Across servers an all-reduce is limited by each server's %(nics)s × "
            "%(gbps)sG NIC links together (NVLink inside the server is faster); nccl-tests "
            "report that as every GPU's bus bandwidth.") % {
                "nics": p.get("nics"), "gbps": p.get("nic_gbps")},
        "alltoall_one_nic": _(
            "An all-to-all cannot aggregate several NICs: each GPU gets its own share of "
            "the NIC links."),
        "planes_summed": _(
            "An 800G Ethernet NIC runs as %(ports)s × %(gbps)sG ports in separate planes; "
            "NCCL uses both, so they add up.") % {
                "ports": p.get("ports"), "gbps": p.get("port_gbps")},
        "oversubscription": _(
            "Leaf oversubscription %(ratio)s:1, counted as the worst case: every byte "
            "crosses the leaf uplinks.") % {"ratio": p.get("ratio")},
        "bandwidth_term": _(
            "The all-reduce time counts the bandwidth term only (large messages, latency "
            "left out); gradients in bf16, %(bytes)s bytes per parameter.") % {
                "bytes": p.get("bytes_per_param")},
        "one_server": _(
            "One server: its collectives run over NVLink and do not use this fabric."),
    }
    return texts.get(a.key, a.key)


ELEMENT_LABELS = {
    "nic_link": lambda: _("One NIC link"),
    "leaf": lambda: _("One leaf switch"),
    "spine": lambda: _("One spine switch"),
    "core": lambda: _("One core switch"),
    "plane": lambda: _("One plane"),
}


def effect_text(row: FailureDomain) -> str:
    p = row.effect.params
    texts = {
        "abort_restart": _(
            "NCCL reports a network error on the GPUs using the link; the job aborts its "
            "communicator and restarts from its last checkpoint without those GPUs, or "
            "after the repair."),
        "abort_restart_other_plane": _(
            "The NIC keeps its port in the other plane, but NCCL's connections on the "
            "failed port report an error: the job aborts and restarts from its last "
            "checkpoint."),
        "leaf_abort": _(
            "Its %(links)s GPU links go down: jobs using them abort and restart from "
            "their last checkpoint on the remaining servers or rails.") % {
                "links": num(p.get("links"))},
        "reroute": _(
            "No GPU is disconnected: routing moves the flows to the remaining switches and "
            "the NICs retransmit what was lost; the job continues at lower bandwidth, or "
            "aborts when the path does not recover within the RDMA retry time "
            "(NCCL_IB_TIMEOUT, NCCL_IB_RETRY_CNT)."),
        "plane_abort": _(
            "Jobs using the plane abort and restart from their last checkpoint on the "
            "remaining planes."),
        "plane_abort_other_plane": _(
            "Every GPU stays connected through its other plane at half the bandwidth; jobs "
            "using the failed plane abort and restart from their last checkpoint."),
    }
    return texts.get(row.effect.key, row.effect.key)


@dataclass(frozen=True)
class FailureRow:
    element: str
    label: str
    gpus_disconnected: str
    gpus_affected: str
    bandwidth_lost: str
    effect: str


@dataclass(frozen=True)
class PerformanceView:
    fabric_label: str
    estimate: Estimate
    allreduce: str
    alltoall: str
    allreduce_time: str
    message: str
    formula: str
    assumptions: list[str]
    label: str


@dataclass
class BuildView:
    params: BuildParams
    performance: list[PerformanceView]
    failures: list[FailureRow]
    racks: Racks | None
    racks_lines: list[str]
    acceptance: str
    sources: list[tuple[str, str, str]] = field(default_factory=list)  # title, url, date


def _message(est: Estimate) -> str:
    size = byte_size(est.message_bytes)
    if est.model_params_b is not None:
        return _("%(size)s (the bf16 gradients of a %(params)s-billion-parameter model)") % {
            "size": size, "params": f"{est.model_params_b:g}"}
    return size


def performance_view(plan: FabricPlan, label: str, params: BuildParams) -> PerformanceView:
    est = estimate(plan, model_params_b=params.model_params_b,
                   message_bytes=params.message_bytes)
    return PerformanceView(
        fabric_label=label, estimate=est,
        allreduce=gbytes(est.allreduce_busbw_gbytes),
        alltoall=gbytes(est.alltoall_busbw_gbytes),
        allreduce_time=seconds(est.allreduce_seconds), message=_message(est),
        formula=FORMULA, assumptions=[assumption_text(a) for a in est.assumptions],
        label=estimate_label())


def failure_rows(plan: FabricPlan) -> list[FailureRow]:
    return [FailureRow(
        element=row.element, label=ELEMENT_LABELS[row.element](),
        gpus_disconnected=num(row.gpus_disconnected), gpus_affected=num(row.gpus_affected),
        bandwidth_lost=f"{row.bandwidth_lost_pct:.2f}%".replace(".00%", "%"),
        effect=effect_text(row)) for row in failure_domains(plan)]


def racks_lines(r: Racks) -> list[str]:
    units = (_("%(units)s U per switch") % {"units": r.switch_rack_units}
             if r.switch_rack_units is not None
             else _("rack units per switch not known (no document we read gives them)"))
    lines = [r.switch_model + pgettext("label separator", ": ") + units]
    lines.append(_("Rack budget %(kw)s kW and %(u)s U (you can change both).") % {
        "kw": f"{r.rack_kw:g}", "u": r.rack_u})
    if r.racks is None:
        lines.append(_("Racks: not known (neither the power nor the height of the switch is "
                       "published in the documents we read)."))
    else:
        lines.append(_("%(per)s switches per rack, %(racks)s racks, %(kw)s kW per rack.") % {
            "per": num(r.switches_per_rack), "racks": num(r.racks),
            "kw": f"{r.kw_per_rack:,.1f}"})
    if r.optics_only:
        lines.append(_("The kW cover the optics only: no document we read publishes the "
                       "switch's own power."))
    return lines


# --- the acceptance test plan as text ------------------------------------------------------

def _role(role: str) -> str:
    return {"leaf": _("Leaf switches"), "spine": _("Spine switches"),
            "core": _("Core switches")}[role]


def _group(group: str) -> str:
    return {"gpu": _("GPU links"), "uplink": _("Uplinks"),
            "fabric": pgettext("port group", "switch links")}[group]


def step_text(step: Step) -> str:
    p = step.params
    if step.key in ("links_eth", "links_ib"):
        return _("%(role)s (%(switches)s), ports %(ports)s, %(group)s: %(links)s links per "
                 "switch at %(gbps)sG. Every one must be up at that speed; compare each port "
                 "with its row of the cabling plan (CSV).") % {
            "role": _role(p["role"]), "switches": num(p["switches"]), "ports": p["ports"],
            "group": _group(p["group"]), "links": num(p["links"]), "gbps": p["gbps"]}
    if step.key.startswith("perftest_") and step.key != "perftest_rdma_cm":
        cls = {"perftest_same_leaf": _("Two servers on the same leaf switch"),
               "perftest_via_spine": _("Two servers on different leaf switches (through a "
                                       "spine switch)"),
               "perftest_via_core": _("Two servers in different pods (through a core "
                                      "switch)")}[step.key]
        return _("%(cls)s: run the first command on server A, the second on server B. Pass: "
                 "at least %(threshold)s Gb/s on a %(gbps)sG port (%(pct)s%% of line "
                 "rate). Record the latency of every pair; an outlier points to a bad cable "
                 "or module.") % {"cls": cls, "threshold": num(p["threshold_gbps"]),
                                  "gbps": p["gbps"], "pct": p["efficiency_pct"]}
    if step.key == "perftest_rdma_cm":
        return _("RoCE: -x takes the GID index of the RoCE v2 address of the port; or "
                 "connect through rdma_cm with -R.")
    if step.key in ("nccl_all_reduce", "nccl_alltoall"):
        name = "all-reduce" if step.key == "nccl_all_reduce" else "all-to-all"
        return _("nccl-tests %(name)s across all %(gpus)s GPUs. Pass: the bus bandwidth "
                 "(busbw) at 8 GB is at least %(threshold)s, the estimate of %(estimate)s "
                 "less %(tol)s%%.") % {
            "name": name, "gpus": num(p["gpus"]),
            "threshold": gbytes(p["threshold_gbytes"]),
            "estimate": gbytes(p["estimate_gbytes"]), "tol": p["tolerance_pct"]}
    if step.key in ("counters_nvue", "counters_sonic"):
        return _("Read the PFC and RoCE queue counters on every switch before and after the "
                 "nccl-tests run: no drops on the lossless queue, PFC pause frames only "
                 "in short bursts, no PFC watchdog events.")
    if step.key == "counters_nvue_guide":
        return _("The Cumulus Linux RoCE guide explains every counter of these commands.")
    if step.key == "counters_ib":
        return _("Read the port error counters of the fabric before and after the "
                 "nccl-tests run: no symbol, link-down or receive errors may grow.")
    return step.key


SECTIONS = ("links", "perftest", "nccl", "counters")


def acceptance_text(plan: FabricPlan, label: str, params: BuildParams) -> str:
    est = estimate(plan, model_params_b=params.model_params_b,
                   message_bytes=params.message_bytes)
    steps = acceptance_plan(plan, est)
    heads = {"links": _("1. Link checks per port group"),
             "perftest": _("2. RDMA bandwidth and latency per link class (perftest)"),
             "nccl": _("3. nccl-tests across the cluster"),
             "counters": _("4. Counters to read on the switches")}
    out = [_("Acceptance test plan: %(fabric)s, %(gpus)s GPUs, %(switch)s") % {
        "fabric": label, "gpus": num(plan.gpus),
        "switch": f"{plan.switch.vendor} {plan.switch.model}"},
        _("The pass thresholds are estimates, not measurements."), ""]
    for section in SECTIONS:
        out.append(heads[section])
        for step in (s for s in steps if s.section == section):
            out.append("- " + step_text(step))
            out.extend(f"    $ {command}" for command in step.commands)
            if step.source is not None:
                src = step.source
                label = _("Source") + pgettext("label separator", ": ")
                out.append("    " + label + _source_title(src)
                           + (f" <{src.url}>" if src.url else ""))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


# --- the whole part --------------------------------------------------------------------------

def build_view(plans: list[tuple[FabricPlan, str]], params: BuildParams) -> BuildView | None:
    """``plans``: the recommended plan first, then the runner-up, each with its label."""
    if not plans:
        return None
    main, label = plans[0]
    perf = [performance_view(plan, lab, params) for plan, lab in plans]
    rack = racks(main, rack_kw=params.rack_kw, rack_u=params.rack_u)
    seen: dict[str, tuple[str, str, str]] = {}
    for source in perf[0].estimate.sources:
        seen.setdefault(source.url, (_source_title(source), source.url, source.date))
    for row in failure_domains(main):
        for source in row.sources:
            seen.setdefault(source.url, (_source_title(source), source.url, source.date))
    return BuildView(params=params, performance=perf, failures=failure_rows(main),
                     racks=rack, racks_lines=racks_lines(rack),
                     acceptance=acceptance_text(main, label, params),
                     sources=list(seen.values()))


def build_api(plan: FabricPlan, params: BuildParams) -> dict:
    """``performance``, ``failure_domains`` and ``racks`` of the API contract (issue 23)."""
    est = estimate(plan, model_params_b=params.model_params_b,
                   message_bytes=params.message_bytes)
    performance = est.to_dict()
    performance["assumptions"] = [assumption_text(a) for a in est.assumptions]
    performance["label"] = estimate_label()
    performance["source"] = NCCL_PERFORMANCE.to_dict()
    rows = []
    for row in failure_domains(plan):
        data = row.to_dict()
        data["effect"] = effect_text(row)
        rows.append(data)
    rack = racks(plan, rack_kw=params.rack_kw, rack_u=params.rack_u)
    rack_data = rack.to_dict()
    rack_data["text"] = racks_lines(rack)
    return {"performance": performance, "failure_domains": rows, "racks": rack_data}
