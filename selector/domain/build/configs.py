"""One configuration file per switch of a plan, for the plan's switch family, and the
subnet manager's opensm.conf for InfiniBand.

Pure Python, no Django. Every file holds, in the order the switch OS applies them:

* the hostname (the cabling plan's device name) and a description on every cabled port
  naming the far end (``p1-su01-node001-nic1:port1``), from ``cabling.iter_links``;
* the lossless QoS of the tuning profile (``tuning.tuning_for``: the same port groups, PFC
  profiles, cable lengths and lossy long-link groups as the snippet on the result page,
  never a second model): the leaf section on a leaf, the spine section on a spine or core;
* the underlay: eBGP on every switch-to-switch link, BGP unnumbered (the neighbor is the
  interface, no addresses on the links), as NVIDIA's Cumulus Linux reference
  configuration does ("BGP unnumbered on all leafs and spines"). ASNs (RFC 7938 section
  5.2.1, from the 4-byte private range of RFC 6996, 4200000000-4294967294): every leaf
  its own ASN; the core switches of a plane one shared ASN; the spines of a two-tier plane
  one shared ASN when every leaf reaches every spine (as NVIDIA's reference gives its
  spines one ASN), else, and in three tiers, one ASN per spine (our three-tier wiring has
  no spine clusters that could share one: docs/planner.md, "Switch configurations",
  says what that asks of the leaves). Loopbacks (router IDs) are /32s of 10.0.0.0/8
  (RFC 1918), one per switch in device order.

InfiniBand switches take no per-switch routing file: the subnet manager routes the fabric
(``opensm.conf`` from ``tuning.infiniband_tuning``), and the zip holds that file.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..catalogue import Catalogue, Source
from ..fabric import FabricPlan
from ..recommend import tuning_for
from ..tuning import Citation, ConfigLine, config_sections, infiniband_tuning
from ..tuning.sonic import SONIC_CFGDOC, SONIC_CMDREF
from .cabling import Link, iter_switch_ports, switch_devices

__all__ = ["ASN_FIRST", "ASN_LAST", "SwitchConfig", "iter_configs", "opensm_conf",
           "asn_plan", "CONFIG_SOURCES"]

ASN_FIRST, ASN_LAST = 4_200_000_000, 4_294_967_294
_READ = "2026-12-03"
RFC_7938 = Source(
    "RFC 7938: Use of BGP for Routing in Large-Scale Data Centers",
    "https://www.rfc-editor.org/rfc/rfc7938", _READ,
    "RFC 7938：大型数据中心中的 BGP 路由（英文）")
RFC_6996 = Source(
    "RFC 6996: Autonomous System (AS) Reservation for Private Use",
    "https://www.rfc-editor.org/rfc/rfc6996", _READ,
    "RFC 6996：私有自治系统号的保留（英文）")
RFC_1918 = Source(
    "RFC 1918: Address Allocation for Private Internets",
    "https://www.rfc-editor.org/rfc/rfc1918", _READ, "RFC 1918：私有网络地址分配（英文）")
CL_BGP_EXAMPLE = Source(
    "NVIDIA Cumulus Linux 5.9 User Guide — Border Gateway Protocol - BGP: Configuration "
    "Example",
    "https://docs.nvidia.com/networking-ethernet-software/cumulus-linux-59/Layer-3/"
    "Border-Gateway-Protocol-BGP/Configuration-Example", _READ,
    "NVIDIA Cumulus Linux 5.9 用户指南：BGP 配置示例（英文）")
NVUE_REF = Source(
    "NVIDIA NVUE Command Reference",
    "https://docs.nvidia.com/networking-ethernet-software/nvue-reference/", _READ,
    "NVIDIA NVUE 命令参考（英文）")
FRR_BGP = Source(
    "FRRouting User Guide — BGP", "https://docs.frrouting.org/en/latest/bgp.html", _READ,
    "FRRouting 用户指南：BGP（英文）")

CONFIG_SOURCES = (RFC_7938, RFC_6996, RFC_1918, CL_BGP_EXAMPLE, NVUE_REF, SONIC_CFGDOC,
                  SONIC_CMDREF, FRR_BGP)


@dataclass(frozen=True)
class SwitchConfig:
    """The configuration of one switch: ``name`` is its device name (and the file's),
    ``ports`` the cabled ports with the far end and the planned length."""

    name: str
    role: str  # leaf | spine | core
    plane: int
    family: str
    asn: int
    loopback: str
    lines: tuple[ConfigLine, ...]
    ports: tuple[tuple[str, str, int, str], ...]  # (port, far end, reach_m, tier)

    @property
    def filename(self) -> str:
        return self.name + (".json.txt" if self.family == "sonic" else ".nvue.sh")

    def text(self) -> str:
        """The file: the lines, then every source they cite (title, URL, date read)."""
        out = [line.text for line in self.lines]
        seen: dict[str, Source] = {}
        for line in self.lines:
            if line.citation:
                seen.setdefault(line.citation.source.title, line.citation.source)
        out.append("")
        out.append("# Sources:")
        for source in seen.values():
            out.append(f"#   {source.title}, {source.url} (read {source.date})")
        return "\n".join(out) + "\n"


def _loopback(index: int) -> str:
    return f"10.{(index >> 16) & 255}.{(index >> 8) & 255}.{index & 255}"


def asn_plan(plan: FabricPlan) -> dict[str, int]:
    """The ASN of every switch (see the module's scheme), in device order."""
    out: dict[str, int] = {}
    next_asn = ASN_FIRST + 1
    shared: dict[tuple[int, str], int] = {}
    partial = plan.has_note("partial_leaf_ecmp")
    for name, role, layout in switch_devices(plan):
        share = role == "core" or (role == "spine" and layout.size.tiers == 2 and not partial)
        if share:
            key = (layout.number, role)
            if key not in shared:
                shared[key] = next_asn
                next_asn += 1
            out[name] = shared[key]
        else:
            out[name] = next_asn
            next_asn += 1
    if next_asn > ASN_LAST:
        raise ValueError("more switches than private 4-byte ASNs")
    return out


def _ends(name: str, links: list[Link]) -> list[tuple[str, str, int, str]]:
    """``(port, far end, reach_m, tier)`` of each link on switch ``name``."""
    out = []
    for link in links:
        if link.a_device == name:
            out.append((link.a_port, f"{link.b_device}:{link.b_port}", link.reach_m, link.tier))
        else:
            out.append((link.b_port, f"{link.a_device}:{link.a_port}", link.reach_m, link.tier))
    return out


_APPLY = ("nv config apply", "nv show qos roce")


def _nvue(name: str, role: str, asn: int, loopback: str,
          ports: list[tuple[str, str, int, str]], qos: tuple[ConfigLine, ...]
          ) -> list[ConfigLine]:
    lines = [ConfigLine(f"nv set system hostname {name}",
                        Citation(NVUE_REF, "nv set system hostname"))]
    lines += [line for line in qos if line.text not in _APPLY]  # breakouts first
    for port, far, _reach, _tier in ports:
        lines.append(ConfigLine(f"nv set interface {port} description {far}",
                                Citation(NVUE_REF, "nv set interface <id> description")))
    lines += [
        ConfigLine(f"nv set interface lo ip address {loopback}/32",
                   Citation(CL_BGP_EXAMPLE, "Loopback address, the BGP router ID")),
        ConfigLine(f"nv set router bgp autonomous-system {asn}",
                   Citation(RFC_7938, "eBGP, an ASN per leaf; private 4-byte ASNs "
                                      "(RFC 6996)")),
        ConfigLine(f"nv set router bgp router-id {loopback}",
                   Citation(CL_BGP_EXAMPLE, "BGP router ID")),
    ]
    for port, _far, _reach, tier in ports:
        if tier != "gpu":
            lines.append(ConfigLine(
                f"nv set vrf default router bgp neighbor {port} remote-as external",
                Citation(CL_BGP_EXAMPLE, "BGP unnumbered: the interface is the neighbor")))
    lines += [
        ConfigLine(f"nv set vrf default router bgp address-family ipv4-unicast network "
                   f"{loopback}/32", Citation(CL_BGP_EXAMPLE, "Advertise the loopback")),
        ConfigLine("nv config apply", Citation(NVUE_REF, "Apply the configuration")),
    ]
    return lines


def _sonic(name: str, role: str, asn: int, loopback: str,
           ports: list[tuple[str, str, int, str]], qos: tuple[ConfigLine, ...]
           ) -> list[ConfigLine]:
    import json

    def dump(value: Any) -> str:
        return json.dumps(value, separators=(", ", ": "))

    described = {port: {"description": far} for port, far, _r, _t in ports}
    lines = [
        ConfigLine("# Write the tables below into /etc/sonic/build.json and load them with "
                   "config load (they merge into CONFIG_DB)", None),
        ConfigLine("{", Citation(SONIC_CFGDOC, "CONFIG_DB tables as JSON")),
        ConfigLine(f'"DEVICE_METADATA": {dump({"localhost": {"hostname": name, "bgp_asn": str(asn)}})},',  # noqa: E501
                   Citation(SONIC_CFGDOC, "DEVICE_METADATA: hostname, bgp_asn")),
        ConfigLine(f'"LOOPBACK_INTERFACE": {dump({"Loopback0": {}, f"Loopback0|{loopback}/32": {}})},',  # noqa: E501
                   Citation(SONIC_CFGDOC, "LOOPBACK_INTERFACE")),
        ConfigLine(f'"PORT": {dump(described)}',
                   Citation(SONIC_CFGDOC, "PORT table: description")),
        ConfigLine("}", Citation(SONIC_CFGDOC, "CONFIG_DB tables as JSON")),
        ConfigLine("sudo config load /etc/sonic/build.json -y",
                   Citation(SONIC_CMDREF, "config load: load a JSON file into CONFIG_DB")),
        *qos,
        ConfigLine("# BGP unnumbered in FRR (vtysh, configure terminal):", None),
        ConfigLine(f"router bgp {asn}", Citation(FRR_BGP, "router bgp ASN")),
        ConfigLine(f" bgp router-id {loopback}", Citation(FRR_BGP, "bgp router-id")),
    ]
    for port, _far, _reach, tier in ports:
        if tier != "gpu":
            lines.append(ConfigLine(f" neighbor {port} interface remote-as external",
                                    Citation(FRR_BGP, "neighbor PEER interface: BGP on an "
                                                      "unnumbered interface")))
    lines += [
        ConfigLine(" address-family ipv4 unicast", Citation(FRR_BGP, "address-family")),
        ConfigLine(f"  network {loopback}/32", Citation(FRR_BGP, "network: advertise a "
                                                                 "prefix")),
        ConfigLine(" exit-address-family", Citation(FRR_BGP, "address-family")),
        ConfigLine("sudo config save -y", Citation(SONIC_CMDREF, "config save")),
    ]
    return lines


def iter_configs(plan: FabricPlan, catalogue: Catalogue | Sequence[Any]
                 ) -> Iterator[SwitchConfig]:
    """One ``SwitchConfig`` per switch of an Ethernet plan, in device order (none for
    InfiniBand: ``opensm_conf``), one switch's links in memory at a time."""
    catalogue = Catalogue.of(catalogue)
    family = plan.switch.family
    if plan.switch.technology != "ethernet":
        return
    tuning = tuning_for(plan)
    if tuning is None:
        return
    sections = config_sections(tuning.config)
    asns = asn_plan(plan)
    write = _sonic if family == "sonic" else _nvue
    for index, (name, role, plane, links) in enumerate(iter_switch_ports(plan, catalogue),
                                                       start=1):
        loopback = _loopback(index)
        qos = sections["leaf" if role == "leaf" else "spine"]
        header = [ConfigLine(f"# {name}: {role}, plane {plane}, "
                             f"{plan.switch.vendor} {plan.switch.model}, {tuning.os}", None),
                  ConfigLine(f"# ASN {asns[name]} (private, 4 bytes), loopback {loopback}/32",
                             Citation(RFC_6996, "Private-use ASNs 4200000000-4294967294"))]
        mine = _ends(name, links)
        lines = header + write(name, role, asns[name], loopback, mine, qos)
        yield SwitchConfig(name, role, plane, family, asns[name], loopback,
                           tuple(lines), tuple(mine))


def opensm_conf(plan: FabricPlan) -> tuple[ConfigLine, ...]:
    """The subnet manager's settings of an InfiniBand plan (``tuning.infiniband_tuning``):
    the opensm.conf lines, the server-side settings as comments."""
    tuning = infiniband_tuning(plan.tiers)
    lines = [ConfigLine(f"# opensm.conf for the {plan.gpus}-GPU {plan.switch.model} fabric "
                        f"({plan.switches} switches, {plan.tiers} tiers)", None)]
    for line in tuning.config:
        if line.text.startswith("export "):
            lines.append(ConfigLine("# " + line.text, line.citation))
        else:
            lines.append(line)
    return tuple(lines)
