"""The tuning model every switch family shares: the data classes a profile is made of, the
input validation, the port groups a leaf's layout gives (spans), the snippet's section
comments, and the ``Family`` record a family module exports for the registry.

Pure Python, no Django. Remarks of citations are English and marked with ``N_`` where they
are written, so the pages translate them with the remark itself as the msgid.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..catalogue import Source
from ..decision import Phrase


def N_(message: str) -> str:
    """gettext_noop: marks a remark for translation where it is written and returns it
    unchanged. ``makemessages`` extracts it via the keyword (``--keyword=N_``, added by
    selector.core's makemessages command); the presenter translates it with gettext."""
    return message


SPEEDS_GBPS = (100, 200, 400, 800)
CABLE_M_MIN, CABLE_M_MAX = 1, 2000
# Links this long or longer run lossy (ECN only): no vendor headroom profile we read covers
# lossless PFC over a kilometre (the long_link_lossy warning says so).
LOSSLESS_MAX_M = 1000
# GPU links stay within the servers' row (multimode reach), as the bill of materials plans.
GPU_CABLE_MAX_M = 50
READ = "2026-12-01"

# Cited by more than one family: the RoCE v2 UDP port (NVIDIA's RoCE page) and the PFC
# watchdog's reason (pause storms and deadlocks at scale).
CL_ROCE = Source(
    "NVIDIA Cumulus Linux 5.18 User Guide — RDMA over Converged Ethernet - RoCE",
    "https://docs.nvidia.com/networking-ethernet-software/cumulus-linux-518/"
    "Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE/", READ,
    "NVIDIA Cumulus Linux 5.18 用户指南：RoCE（英文）")
GUO_2016 = Source(
    "Guo et al., RDMA over Commodity Ethernet at Scale, ACM SIGCOMM 2016",
    "https://doi.org/10.1145/2934872.2934908", READ,
    "Guo 等，大规模商用以太网上的 RDMA（SIGCOMM 2016，英文）")


class TuningError(ValueError):
    """Invalid tuning input; ``field`` names the argument, ``code`` is a machine code."""

    def __init__(self, field: str, code: str, message: str | None = None):
        self.field = field
        self.code = code
        super().__init__(message or f"{field}: {code}")


@dataclass(frozen=True)
class Citation:
    """A source and the specific remark it supports: English, marked ``N_`` where it is
    written, translated by the pages with the remark as the msgid. Never an internal
    path."""

    source: Source
    remark: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source.to_dict(), "remark": self.remark}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Citation:
        return cls(Source.from_dict(data["source"]), str(data.get("remark", "")))


@dataclass(frozen=True)
class ConfigLine:
    """One line of a configuration snippet; ``citation`` is None for comment lines."""

    text: str
    citation: Citation | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text,
                "citation": self.citation.to_dict() if self.citation else None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ConfigLine:
        cit = data.get("citation")
        return cls(str(data["text"]), Citation.from_dict(cit) if cit else None)


@dataclass(frozen=True)
class Warn(Phrase):
    """A caveat of the tuning values the pages put into words."""


@dataclass(frozen=True)
class PortGroup:
    """A set of ports that share one lossless setting: ``role`` is ``gpu`` (leaf ports to
    the NICs), ``uplink`` (leaf ports to the spines) or ``fabric`` (every port of a spine
    or core switch). ``ports`` names them as the switch OS does, ``count`` how many
    interfaces that is; ``cable_m`` the plan's longest link on them; ``lossless`` False
    for a lossy (ECN only) group, ``reason`` then says why (``distance`` or
    ``no_headroom_row``)."""

    role: str
    ports: str
    count: int
    cable_m: int
    lossless: bool
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "ports": self.ports, "count": self.count,
                "cable_m": self.cable_m, "lossless": self.lossless, "reason": self.reason}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PortGroup:
        return cls(str(data["role"]), str(data["ports"]), int(data["count"]),
                   int(data["cable_m"]), bool(data["lossless"]), str(data.get("reason", "")))


def cited_sources(citations: dict[str, tuple[Citation, ...]],
                  config: tuple[ConfigLine, ...]) -> list[Source]:
    """Every document ``citations`` and ``config`` cite, once, in order of first use."""
    seen: dict[str, Source] = {}
    for cits in citations.values():
        for cit in cits:
            seen.setdefault(cit.source.title, cit.source)
    for line in config:
        if line.citation:
            seen.setdefault(line.citation.source.title, line.citation.source)
    return list(seen.values())


@dataclass(frozen=True)
class TuningProfile:
    """The lossless values for one switch family at the plan's GPU link speed.

    ``headroom`` says how PFC headroom is decided: ``switch`` (the switch computes it from
    the cable length; no byte value to set) or ``table`` (the SKU's lookup table row,
    ``headroom_bytes`` per lossless priority group, ``headroom_cable`` its cable length;
    None when the table has no row for the plan). ``adaptive_routing`` is True only when
    the family's conditions hold; ``ar_condition`` names what it needs or lacks.
    """

    family: str
    speed_gbps: int
    cable_m: int
    pfc_priority: int
    roce_dscp: int
    cnp_dscp: int
    cnp_priority: int
    roce_udp_port: int
    ecn_min_bytes: int
    ecn_max_bytes: int
    ecn_probability_pct: int
    headroom: str
    headroom_bytes: int | None
    headroom_cable: str
    watchdog_detect_ms: int
    watchdog_restore_ms: int
    watchdog_action: str
    adaptive_routing: bool
    ar_condition: str
    os: str
    citations: dict[str, tuple[Citation, ...]]
    config: tuple[ConfigLine, ...]
    warnings: tuple[Warn, ...] = ()
    groups: tuple[PortGroup, ...] = ()
    mtu: int = 0

    @property
    def lossy_groups(self) -> tuple[PortGroup, ...]:
        return tuple(g for g in self.groups if not g.lossless)

    @property
    def pfc_watchdog(self) -> bool:
        return True

    def sources(self) -> list[Source]:
        """Every document the profile cites, once, in order of first use."""
        return cited_sources(self.citations, self.config)

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "os": self.os,
            "speed_gbps": self.speed_gbps,
            "cable_m": self.cable_m,
            "pfc_priority": self.pfc_priority,
            "roce_dscp": self.roce_dscp,
            "cnp_dscp": self.cnp_dscp,
            "cnp_priority": self.cnp_priority,
            "roce_udp_port": self.roce_udp_port,
            "ecn": {"min_bytes": self.ecn_min_bytes, "max_bytes": self.ecn_max_bytes,
                    "probability": self.ecn_probability_pct},
            "ecn_min_bytes": self.ecn_min_bytes,
            "ecn_max_bytes": self.ecn_max_bytes,
            "ecn_probability_pct": self.ecn_probability_pct,
            "headroom": self.headroom,
            "pfc_headroom_bytes": self.headroom_bytes,
            "headroom_cable": self.headroom_cable,
            "pfc_watchdog": True,
            "watchdog": {"detect_ms": self.watchdog_detect_ms,
                         "restore_ms": self.watchdog_restore_ms,
                         "action": self.watchdog_action},
            "adaptive_routing": self.adaptive_routing,
            "ar_condition": self.ar_condition,
            "citations": {k: [c.to_dict() for c in v] for k, v in self.citations.items()},
            "config": [line.to_dict() for line in self.config],
            "warnings": [w.to_dict() for w in self.warnings],
            "port_groups": [g.to_dict() for g in self.groups],
            "mtu": self.mtu,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TuningProfile:
        ecn = data["ecn"]
        dog = data["watchdog"]
        return cls(
            family=data["family"], os=data.get("os", ""), speed_gbps=int(data["speed_gbps"]),
            cable_m=int(data["cable_m"]), pfc_priority=int(data["pfc_priority"]),
            roce_dscp=int(data["roce_dscp"]), cnp_dscp=int(data["cnp_dscp"]),
            cnp_priority=int(data["cnp_priority"]), roce_udp_port=int(data["roce_udp_port"]),
            ecn_min_bytes=int(ecn["min_bytes"]), ecn_max_bytes=int(ecn["max_bytes"]),
            ecn_probability_pct=int(ecn["probability"]), headroom=data["headroom"],
            headroom_bytes=(None if data.get("pfc_headroom_bytes") is None
                            else int(data["pfc_headroom_bytes"])),
            headroom_cable=data.get("headroom_cable", ""),
            watchdog_detect_ms=int(dog["detect_ms"]), watchdog_restore_ms=int(dog["restore_ms"]),
            watchdog_action=dog["action"], adaptive_routing=bool(data["adaptive_routing"]),
            ar_condition=data.get("ar_condition", ""),
            citations={k: tuple(Citation.from_dict(c) for c in v)
                       for k, v in data.get("citations", {}).items()},
            config=tuple(ConfigLine.from_dict(x) for x in data.get("config", ())),
            warnings=tuple(Warn.from_dict(w) for w in data.get("warnings", ())),
            groups=tuple(PortGroup.from_dict(g) for g in data.get("port_groups", ())),
            mtu=int(data.get("mtu", 0)),
        )




def validate(speed_gbps: object, cable_m: object) -> None:
    if not isinstance(speed_gbps, int) or isinstance(speed_gbps, bool):
        raise TuningError("speed_gbps", "invalid")
    if speed_gbps not in SPEEDS_GBPS:
        raise TuningError("speed_gbps", "invalid_choice",
                          f"speed_gbps must be one of {SPEEDS_GBPS}")
    if not isinstance(cable_m, int) or isinstance(cable_m, bool):
        raise TuningError("cable_m", "invalid")
    if not CABLE_M_MIN <= cable_m <= CABLE_M_MAX:
        raise TuningError("cable_m", "out_of_range",
                          f"cable_m must be {CABLE_M_MIN}..{CABLE_M_MAX}")


SPINE_SECTION = "# Spine and core switches: every port faces another switch"
NIC_SECTION = "# On every GPU server"


def config_sections(config: tuple[ConfigLine, ...]) -> dict[str, tuple[ConfigLine, ...]]:
    """A snippet's lines by where they go: ``leaf`` (the leaf, or the one switch of a
    plane), ``spine`` (spine and core switches; empty in one tier) and ``nic`` (every GPU
    server), split at the snippet's own section comments."""
    texts = [line.text for line in config]
    nic = next((i for i, t in enumerate(texts) if t.startswith(NIC_SECTION)), len(texts))
    spine = texts.index(SPINE_SECTION) if SPINE_SECTION in texts[:nic] else nic
    return {"leaf": config[:spine], "spine": config[spine + 1:nic] if spine < nic else (),
            "nic": config[nic:]}


def long_link_warnings(cable_m: int) -> list[Warn]:
    """The caveat of the plan's longest link: lossy from LOSSLESS_MAX_M, more headroom to
    check above 100 m."""
    out = []
    if cable_m >= LOSSLESS_MAX_M:
        out.append(Warn("long_link_lossy", {"cable_m": cable_m}))
    elif cable_m > 100:
        out.append(Warn("long_link_headroom", {"cable_m": cable_m}))
    return out


@dataclass(frozen=True)
class LeafPorts:
    """How a leaf uses its front-panel ports: the first ``gpu_ports`` native ports face the
    GPUs, each split ``gpu_split`` ways; the next ``uplink_ports`` go to the spines, each
    split ``uplink_split`` ways (1: native speed). ``uplink_ports`` is 0 on a switch that
    carries a whole plane. ``switch_ports``: the native ports of a spine or core switch of
    the same model (all of them face another switch)."""

    gpu_ports: int
    gpu_split: int = 1
    uplink_ports: int = 0
    uplink_split: int = 1
    switch_ports: int = 64


@dataclass(frozen=True)
class Span:
    """Native ports ``first``..``first + count - 1``, each split ``split`` ways."""

    role: str
    first: int
    count: int
    split: int
    cable_m: int
    switch: str  # "leaf" | "spine"

    @property
    def interfaces(self) -> int:
        return self.count * self.split


def port_spans(leaf: LeafPorts, gpu_cable: int, up_cable: int) -> list[Span]:
    """The port groups of a leaf (GPU ports, uplinks) and of the spines above it."""
    spans = [Span("gpu", 1, leaf.gpu_ports, leaf.gpu_split, gpu_cable, "leaf")]
    if leaf.uplink_ports:
        spans.append(Span("uplink", leaf.gpu_ports + 1, leaf.uplink_ports, leaf.uplink_split,
                           up_cable, "leaf"))
        spans.append(Span("fabric", 1, leaf.switch_ports, leaf.uplink_split, up_cable,
                           "spine"))
    return [s for s in spans if s.count > 0]



# What a lossy group's snippet comment calls its ports.
ROLE_WORDS = {"gpu": "GPU ports", "uplink": "uplinks", "fabric": "every port"}


def layout_comment(leaf: LeafPorts, name: Callable[[int, int], str]) -> str:
    """The snippet's first comment: which ports face the GPUs and which the spines, named
    by ``name(first, count)`` as the family's switch OS names a range of native ports."""
    layout = f"# Leaf: {name(1, leaf.gpu_ports)} to the GPUs"
    if leaf.gpu_split > 1:
        layout += f" ({leaf.gpu_split} ports each)"
    if leaf.uplink_ports:
        layout += f", {name(leaf.gpu_ports + 1, leaf.uplink_ports)} to the spines"
        if leaf.uplink_split > 1:
            layout += f" ({leaf.uplink_split} ports each)"
    return layout


@dataclass(frozen=True)
class TuningRequest:
    """A validated request for a profile (``tuning_profile``'s arguments): GPU links at
    ``speed_gbps`` up to ``gpu_cable_m``, switch-to-switch links at ``uplink_gbps`` up to
    ``cable_m``. ``switch_key`` picks a SKU's table where the family has one;
    ``spectrum_x_nic`` says the NICs accept out-of-order packets; ``leaf`` is None for the
    default layout (64 GPU ports, one tier)."""

    speed_gbps: int
    uplink_gbps: int
    cable_m: int
    gpu_cable_m: int
    switch_key: str = ""
    spectrum_x_nic: bool = True
    leaf: LeafPorts | None = None


@dataclass(frozen=True)
class Family:
    """A switch family with a sourced profile: ``key`` is the catalogue's
    ``SwitchSpec.family``, ``os_name`` the switch OS the snippet is written for, ``label``
    what the page calls the family (marked ``N_``, translated by the page), ``build``
    makes the profile of a request. Each family module exports one as ``FAMILY``."""

    key: str
    os_name: str
    label: str
    build: Callable[[TuningRequest], TuningProfile]
