"""Words for the planner's codes (plan notes, designs, link tiers, tuning rows, warnings and
the remarks of citations), in the active language. The presenter is their only reader."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext as _

from selector.domain import Fabric, FabricOption, FabricPlan, TuningProfile
from selector.domain.fabric import Note
from selector.domain.tuning import LABELS as FAMILY_LABELS
from selector.domain.tuning import InfinibandTuning, PortGroup, Warn


def _n(value) -> str:
    return f"{int(value):,}"


def num(value) -> str:
    """Thousands separators (16,384), "—" for no value."""
    if value is None:
        return "—"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.1f}"
    return f"{int(value):,}"


def watts(value) -> str:
    """Power: "35.3 kW" from 10 kW up, else whole watts."""
    if value is None:
        return "—"
    value = float(value)
    if value >= 100_000:
        return f"{value / 1000:,.0f} kW"
    if value >= 10_000:
        return f"{value / 1000:,.1f} kW"
    return f"{value:,.0f} W" if value >= 10 or value == 0 else f"{value:,.1f} W"


def money(amount, currency: str) -> str:
    symbol = {"CNY": "¥", "USD": "US$", "EUR": "€"}.get(currency, currency + " ")
    return f"{symbol}{amount:,.0f}"


# Remarks the page words differently from the source's own name for them (the SONiC
# Command Reference's section headings); every other remark is its own msgid.
REMARK_WORDS = {
    "config pfcwd start": gettext_lazy("Start the PFC watchdog"),
    "config save": gettext_lazy("Save the configuration"),
}


def remark(text: str) -> str:
    """A citation's remark in the active language: the domain marks each remark ``N_``
    where it writes it (selector.domain.tuning.model), so the remark is the msgid; as
    written if the catalogue has no entry."""
    if text in REMARK_WORDS:
        return str(REMARK_WORDS[text])
    return _(text) if text else ""


def family_label(family: str) -> str:
    """What the page calls a tuning family: the family's own label (marked for translation
    where the family is written, selector.domain.tuning), in the active language."""
    return gettext(FAMILY_LABELS.get(family, family))


def design_text(plan: FabricPlan) -> str:
    planes = plan.plane_count
    design = plan.design
    if design == "single-switch":
        text = _("One switch")
    elif design == "switch-per-plane":
        text = _("%(count)s switches, one per plane") % {"count": planes}
    elif design == "two-tier":
        text = _("Leaf and spine, 2 tiers")
    else:
        text = _("Fat-tree, 3 tiers")
    if planes > 1 and design != "switch-per-plane":
        text += " · " + _("%(count)s planes") % {"count": planes}
    if plan.pods > 1:
        text += " · " + _("%(count)s independent pods") % {"count": _n(plan.pods)}
    return text


def gpu_links_text(plan: FabricPlan) -> str:
    text = f"{_n(plan.links['gpu_leaf'])} × {plan.port_gbps}G"
    if plan.ports_per_nic > 1:
        text += " " + _("(%(ports)s per GPU: %(nic)sG per GPU)") % {
            "ports": plan.ports_per_nic, "nic": plan.gpu_link_gbps}
    return text


def uplinks_text(plan: FabricPlan) -> str:
    links = plan.links["leaf_spine"] + plan.links["spine_core"]
    if not links:
        return _("None (one switch per plane)")
    return f"{_n(links)} × {plan.uplink_gbps}G"


def power_text(plan: FabricPlan) -> str:
    if plan.switch.power_w is None:
        return _("%(power)s (optics only)") % {"power": watts(plan.power_w)}
    if not plan.power_complete:
        return _("%(power)s (without the parts our engineers specify)") % {
            "power": watts(plan.power_w)}
    return watts(plan.power_w)


def power_note(plan: FabricPlan) -> str:
    """Why a power figure is partial (empty when it is complete)."""
    if plan.switch.power_w is None:
        return _("Power covers the optics only: the vendor documents we read give no power "
                 "figure for the %(model)s; our engineers add it with the quote.") % {
            "model": plan.switch.model}
    return ""


def tier_label(tier: str, end: str = "") -> str:
    if tier == "switch":
        return _("Switches")
    names = {"gpu": _("GPU links"), "leaf_spine": _("Leaf–spine links"),
             "spine_core": _("Spine–core links")}
    name = names.get(tier, tier)
    if end == "nic":
        return name + " · " + _("NIC end")
    if end == "switch":
        return name + " · " + _("switch end")
    return name


def no_plan_text(option: FabricOption) -> str:
    if option.fabric == Fabric.STANDARD:
        return _("No back-end fabric is needed: the servers talk over the ordinary "
                 "data-centre network.")
    if option.error == "too_large":
        return _("More GPUs than this fabric can connect: the largest plan is %(max)s GPUs "
                 "(three tiers per plane, one rail per plane). Our engineers will design "
                 "a larger fabric with you.") % {"max": _n(option.max_gpus or 0)}
    return _("No switch in our catalogue fits this fabric yet; our engineers will size it "
             "with you.")


def note_text(note: Note, plan: FabricPlan) -> str:
    p = note.params
    key = note.key
    if key == "redundant_pair":
        return _("Redundant pair: %(a)s rails on one switch, the other %(b)s on the second. A "
                 "switch failure takes down the links of its rails: a running NCCL job that "
                 "uses them stops with a network error and must be restarted (from its last "
                 "checkpoint). Every server stays connected through the other switch, so the "
                 "restarted job runs on its rails at half the bandwidth; traffic between rails "
                 "goes through the GPU interconnect inside the servers (NVLink on HGX/DGX "
                 "servers).") % {
            "a": p.get("rails_a"), "b": p.get("rails_b")}
    if key == "leaf_oversubscription":
        return _("Leaves at %(ratio)s:1, as you chose: each leaf has %(ratio)s times more GPU "
                 "bandwidth than uplink bandwidth, so fewer spines and uplinks are needed; "
                 "traffic between leaves gets at most 1/%(ratio)s of the GPU links' speed when "
                 "every GPU sends at once. GPUs on the same leaf are not affected.") % {
            "ratio": p.get("ratio")}
    if key == "inference_pods":
        return _("Inference: %(pods)s identical, independent two-tier pods of up to "
                 "%(servers)s servers (%(gpus)s GPUs) each, instead of one three-tier fabric. "
                 "NVIDIA's HGX AI Factory reference architecture notes that the compute "
                 "network is not necessarily required for inference: most models fit in one "
                 "GPU or one server. A model served across servers stays within its pod. The "
                 "counts, parts, power and cost are for all pods.") % {
            "pods": _n(p.get("pods", 0)), "servers": _n(p.get("servers", 0)),
            "gpus": _n(p.get("gpus", 0))}
    if key == "single_switch_one_rail":
        return _("One NIC per server: a single switch carries the fabric. A redundant second "
                 "switch needs a second NIC in every server.")
    if key == "two_planes_per_nic":
        return _("Each %(nic)sG NIC is two %(port)sG Ethernet ports (NVIDIA ConnectX-8 offers "
                 "800G on Ethernet only as 2 × 400GbE), one in each of two planes: every GPU "
                 "gets %(nic)sG, and a plane failure halves it instead of cutting the GPU "
                 "off.") % {"nic": p.get("nic_gbps"), "port": p.get("port_gbps")}
    if key == "planes_for_scale":
        return _("The rails are split over %(planes)s planes (up to %(rails)s rails each) so "
                 "that every plane stays within three tiers.") % {
            "planes": p.get("planes"), "rails": p.get("rails_per_plane")}
    if key == "partial_leaf_ecmp":
        return _("%(leaves)s leaves carry only %(uplinks)s uplinks for %(spines)s spines: wire "
                 "them to the same %(uplinks)s spines so that every pair of leaves shares a "
                 "spine; ECMP then spreads their traffic over %(uplinks)s paths, not "
                 "%(spines)s.") % {"leaves": p.get("leaves"), "uplinks": p.get("uplinks"),
                                   "spines": p.get("spines")}
    if key == "uneven_spine_links":
        text = _("%(leaves)s leaves have %(uplinks)s uplinks each for %(spines)s spines: not "
                 "every leaf can reach every spine over the same number of links, and under "
                 "full load ECMP, which shares traffic per link, congests the spines with "
                 "fewer links first.") % {"leaves": _n(p.get("leaves", 0)),
                                          "uplinks": p.get("uplinks"),
                                          "spines": p.get("spines")}
        if p.get("even_spines"):
            text += " " + _("With %(even)s spines every leaf reaches every spine evenly "
                            "(%(extra)s more uplinks in total); our engineers settle the "
                            "choice in the detailed design.") % {
                "even": p.get("even_spines"), "extra": _n(p.get("extra_uplinks", 0))}
        else:
            text += " " + _("Our engineers balance the cabling in the detailed design.")
        return text
    if key == "rails_share_leaf":
        return _("Up to %(rails)s rails share a leaf: each rail has fewer GPUs than a leaf "
                 "has ports, and GPUs on the same leaf reach each other in one hop.") % {
            "rails": p.get("rails")}
    if key == "core_ports_split":
        return _("The 800G spine ports run as 2 × 400G links: that saves a tier, as in "
                 "NVIDIA's DGX B300 SuperPOD (800G switches and optics throughout).")
    if key == "even_spines_headlined":
        text = _("%(spines)s spines, not the minimum %(minimum)s: every leaf reaches every "
                 "spine over the same number of links, as in NVIDIA's published DGX SuperPOD "
                 "designs, so ECMP spreads the load evenly.") % {
            "spines": p.get("spines"), "minimum": p.get("minimum")}
        if p.get("extra_uplinks"):
            text += " " + _("Leaves one GPU short are cabled like the full ones: %(extra)s "
                            "more uplinks.") % {"extra": _n(p.get("extra_uplinks", 0))}
        return text
    if key == "adaptive_routing_400g":
        return _("The 800G switch ports run as 2 × 400G links: Spectrum-4 supports adaptive "
                 "routing on 200G and 400G links, not on 800G ones, so the fabric keeps it, as "
                 "NVIDIA's DGX B300 SuperPOD does. The switches, optics and fibres are those "
                 "of the 800G design.")
    if key == "core_800g_saves_tier":
        return _("The spine links run at 800G because that saves a tier here; Spectrum-4 has "
                 "no adaptive routing on 800G links, so they use ECMP.")
    if key == "vendor_unavailable":
        return _("No switch of your preferred vendor in our catalogue fits this fabric; the "
                 "plan shows the vendor-neutral pick.")
    if key == "infiniband_vendor":
        return _("InfiniBand switches come from NVIDIA only; your vendor preference applies to "
                 "the Ethernet fabric.")
    if key == "no_part" and p.get("form") == "twin-port-osfp":
        return _("NIC end: %(count)s twin-port OSFP modules in the servers' OSFP cages (one "
                 "serves two NIC ports, as on NVIDIA DGX H100/B200), %(speed)sG up to "
                 "%(reach)s m. The documents we read give no part number for them: our "
                 "engineers specify the part, and they count in the module total.") % {
            "count": _n(p.get("count", 0)), "speed": p.get("gbps"),
            "reach": _n(p.get("reach_m", 0))}
    if key == "no_part":
        return _("%(tier)s at %(speed)sG up to %(reach)s m: no part in our catalogue fits this "
                 "switch; our engineers specify these optics.") % {
            "tier": tier_label(str(p.get("tier", "")), str(p.get("end", ""))),
            "speed": p.get("gbps"), "reach": _n(p.get("reach_m", 0))}
    return key


def warning_text(warn: Warn) -> str:
    p = warn.params
    if warn.key == "long_link_headroom":
        return _("Links of up to %(cable)s m need more PFC headroom on every lossless port: "
                 "check with the vendor's tools that the headroom of all lossless ports fits "
                 "the switch buffer before you run these links lossless.") % {
            "cable": _n(p.get("cable_m", 0))}
    if warn.key == "long_link_lossy":
        return _("Links of up to %(cable)s m: no vendor headroom profile we read covers "
                 "lossless PFC over this distance, so the configuration runs the ports of "
                 "these links lossy (ECN only, no PFC), as NVIDIA's data-centre-interconnect "
                 "profile does for its long links; the shorter links stay lossless.") % {
            "cable": _n(p.get("cable_m", 0))}
    if warn.key == "no_headroom_row":
        return _("The switch's SONiC headroom table has no row for %(speed)sG ports and "
                 "%(cable)s m cables, so these ports cannot get a lossless priority group: "
                 "the configuration runs them lossy (ECN only, no PFC). Ask the vendor for "
                 "the row to run them lossless.") % {
            "speed": p.get("speed_gbps"), "cable": _n(p.get("cable_m", 0))}
    return warn.key


def port_group_text(group: PortGroup) -> str:
    role = {"gpu": _("GPU ports"), "uplink": _("Leaf uplinks"),
            "fabric": _("Spine and core ports")}.get(group.role, group.role)
    if group.lossless:
        mode = _("lossless (PFC and ECN)")
    elif group.reason == "no_headroom_row":
        mode = _("lossy (ECN only): no headroom table row")
    else:
        mode = _("lossy (ECN only): too long for PFC headroom")
    return _("%(role)s: %(count)s ports, links up to %(cable)s m, %(mode)s") % {
        "role": role, "count": _n(group.count), "cable": _n(group.cable_m), "mode": mode}


def infiniband_intro() -> str:
    # "Natively lossless" is the article's comparison table (原生无损); the mechanism behind
    # it is not named: no NVIDIA or IBTA page we could read describes it (docs/planner.md).
    return _("InfiniBand is natively lossless: there is no PFC or ECN to tune. What matters "
             "is the subnet manager's routing, its self-healing, in-network reduction (SHARP) "
             "and what must stay at its default.")


def determinism_heading() -> str:
    return _("Latency and determinism")


def determinism_intro() -> str:
    return _("Reproducible results are a setting of the training software, on either "
             "fabric: NVIDIA Megatron Core's deterministic mode applies the settings below "
             "in the training job; none of them is a switch or NIC setting. Our engineers "
             "check them with you during the pilot.")


DETERMINISM_LABELS = {
    "deterministic_mode": gettext_lazy("Megatron Core deterministic mode"),
    "nccl_algo": gettext_lazy("NCCL algorithm"),
    "transformer_engine": gettext_lazy("Transformer Engine algorithms"),
    "cublas": gettext_lazy("cuBLAS workspace"),
}


def determinism_label(key: str) -> str:
    return str(DETERMINISM_LABELS.get(key, key))


def infiniband_rows(t: InfinibandTuning) -> list[tuple[str, str, str, str]]:
    return [
        ("routing_engine", _("Subnet manager routing engine"), "ftree",
         _("Fat-tree routing for the rail-optimized fat tree; credit-loop free.")),
        ("shield", _("SHIELD (self-healing, adaptive routing notification)"),
         _("On (the default): do not turn it off"),
         _("The switches reroute around a failed link without waiting for the subnet "
           "manager.")),
        ("sharp", _("In-network reduction (SHARP)"), "NCCL_COLLNET_ENABLE=1",
         _("Needs the NCCL-RDMA-SHARP plugin and the SHARP aggregation manager; the "
           "rail-optimized wiring (each leaf on one rail of every server) is what SHARP "
           "requires.")),
        ("service_level", _("Service level (SL)"), _("0 (the default): do not change"),
         _("Change it only together with the subnet manager's QoS policy.")),
    ]


def tuning_intro(profile: TuningProfile) -> str:
    return _("Values for %(family)s at %(speed)sG GPU links, longest link %(cable)s m. One "
             "value per setting, from the vendor's own documents.") % {
        "family": family_label(profile.family), "speed": profile.speed_gbps,
        "cable": _n(profile.cable_m)}


def tuning_rows(t: TuningProfile) -> list[tuple[str, str, str, str]]:
    """(key, label, value, explanation) per setting."""
    rows = [
        ("pfc_priority", _("PFC (IEEE 802.1Qbb) on priority"), str(t.pfc_priority), ""),
        ("dscp", _("DSCP to priority"),
         _("RoCE DSCP %(roce)s → priority %(prio)s; CNP DSCP %(cnp)s → priority %(cnp_prio)s "
           "(strict)") % {"roce": t.roce_dscp, "prio": t.pfc_priority, "cnp": t.cnp_dscp,
                          "cnp_prio": t.cnp_priority},
         _("The NICs must mark RoCE with DSCP %(dscp)s: SONiC's default map sends DSCP 26 to a "
           "lossy class.") % {"dscp": t.roce_dscp} if t.family == "sonic" else ""),
        ("udp_port", _("RoCE v2 UDP destination port"), str(t.roce_udp_port), ""),
        ("ecn", _("ECN on the RoCE queue"),
         _("min %(min)s bytes, max %(max)s bytes, marking probability %(p)s%%") % {
             "min": _n(t.ecn_min_bytes), "max": _n(t.ecn_max_bytes),
             "p": t.ecn_probability_pct}, ""),
    ]
    if t.headroom == "switch":
        headroom = _("Computed by the switch from each port group's cable length")
        expl = _("Spectrum switches size the headroom themselves; set the cable length, "
                 "not a byte value.")
    elif t.headroom_bytes is not None:
        headroom = _("%(bytes)s bytes xoff per lossless priority group (table row %(row)s)") % {
            "bytes": _n(t.headroom_bytes), "row": t.headroom_cable}
        expl = _("SONiC looks the headroom up in the switch's table by port speed and cable "
                 "length.")
    else:
        headroom = _("No table row for this port speed and cable length")
        expl = _("SONiC looks the headroom up in the switch's table by port speed and cable "
                 "length.")
    rows.append(("headroom", _("PFC headroom"), headroom, expl))
    if t.groups:
        rows.append(("port_groups", _("Port groups"),
                     "; ".join(port_group_text(g) for g in t.groups),
                     _("Each group has its own PFC setting and cable length; a link too long "
                       "for PFC headroom runs lossy (ECN only).")))
    if t.mtu:
        rows.append(("mtu", _("MTU"), _("%(mtu)s bytes on every fabric port") % {
            "mtu": _n(t.mtu)}, _("Jumbo frames on the switch ports, larger than the NICs' "
                                 "RoCE MTU.")))
    rows.append(("watchdog", _("PFC watchdog"),
                 _("On: drops on a paused queue after %(detect)s ms, restores after "
                   "%(restore)s ms") % {"detect": t.watchdog_detect_ms,
                                        "restore": t.watchdog_restore_ms},
                 _("Breaks PFC deadlocks and pause storms.")))
    if t.adaptive_routing:
        ar = _("On (per-packet, RoCE unicast)")
        ar_expl = _("Needs Spectrum-X NICs that accept out-of-order packets: ConnectX-7, "
                    "ConnectX-8 or BlueField-3 SuperNIC. Without them, leave it off.")
    elif t.ar_condition == "ar_not_800g":
        ar = _("Off (ECMP)")
        ar_expl = _("Spectrum-4 does not support adaptive routing on 800G links; run the "
                    "fabric's links at 400G to use it.")
    elif t.ar_condition == "ar_needs_spectrum_x_nic":
        ar = _("Off (ECMP)")
        ar_expl = _("Needs Spectrum-X NICs that accept out-of-order packets.")
    else:
        ar = _("Off (ECMP)")
        ar_expl = _("Not documented for this family; ECMP load balancing.")
    rows.append(("adaptive_routing", _("Adaptive routing"), ar, ar_expl))
    if "nic" in t.citations:
        gpu = next((g for g in t.groups if g.role == "gpu"), None)
        pfc = (_("PFC on priority %(prio)s") % {"prio": t.pfc_priority}
               if gpu is None or gpu.lossless else _("no PFC (the GPU ports run lossy)"))
        rows.append(("nic", _("NIC settings (every GPU server)"),
                     _("Trust DSCP; RoCE DSCP %(dscp)s on priority %(prio)s "
                       "(NCCL_IB_TC=%(tc)s); CNP DSCP %(cnp)s; interface MTU %(mtu)s; "
                       "%(pfc)s") % {
                         "dscp": t.roce_dscp, "prio": t.pfc_priority, "tc": t.roce_dscp * 4,
                         "cnp": t.cnp_dscp, "mtu": "9000", "pfc": pfc},
                     _("The NICs must mark and classify RoCE and CNP traffic as the switches "
                       "do; a mismatch puts RoCE in a lossy queue.")))
    rows.append(("nic_buffer", _("NIC receive buffer"),
                 _("Set by the NIC driver (not a switch value)"),
                 _("The mlx5 driver sizes the NIC's own PFC buffer from cable length, speed "
                   "and MTU.")))
    return rows
