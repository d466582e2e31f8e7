"""Device and port names of a build: one scheme for the cabling plan, the per-switch
configurations and the labels on both ends of every cable.

Pure Python, no Django.

Devices (every name is a valid hostname: lower-case letters, digits and hyphens):

* ``p1-leaf-r3-07``: pod 1, the 7th leaf of rail 3 (rail = the NIC number in every server);
  a leaf that carries several whole rails is ``p1-leaf-r1to4-01``; the one switch of a plane
  (a plan of one switch, or the redundant pair) is named the same way.
* ``p1-spine-02``, ``p1-core-01``: spine and core switches, numbered per plane.
* With several planes every switch carries its plane: ``p1-pl2-leaf-r3-07``,
  ``p1-pl2-spine-02``.
* ``p1-su02-node013-nic5``: a NIC, named by its server: scalable unit 2 (32 servers per
  unit, as NVIDIA's DGX SuperPOD builds its scalable units), server 13 of that unit, NIC 5;
  its ports are ``port1`` (and ``port2`` on a two-port ConnectX-8 on Ethernet, one per
  plane).
* ``p1`` is the pod: several identical independent pods of one plan are the same names with
  ``p2``, ``p3`` ... (``FabricPlan.pods``, 1 unless a plan says otherwise).

Switch ports, as each switch OS names them (the sources are in ``PORT_NAME_SOURCES``):

* NVIDIA Cumulus Linux (NVUE): ``swp1`` .. ``swp64`` for native ports, ``swp1s0`` ..
  ``swp1s3`` for the interfaces of a port broken out 2 or 4 ways.
* SONiC: ``Ethernet<first lane>``, 8 lanes per 800G port (``Ethernet0``, ``Ethernet8``, ...);
  a port broken out ``n`` ways gives ``Ethernet<first lane + i x 8/n>``.
* NVIDIA Quantum InfiniBand (MLNX-OS): ``1/<cage>/<port>``: every OSFP cage holds two
  logical InfiniBand ports (``1/1/1``, ``1/1/2``). A logical port split for NDR200 is
  ``1/<cage>/<port>/<half>`` (our convention for the two halves; docs/planner.md).
"""

from __future__ import annotations

from ..catalogue import Source
from ..catalogue.data import SUPERPOD_B200

__all__ = ["SERVERS_PER_SU", "PORT_NAME_SOURCES", "PortNamer", "port_namer", "pod_prefix",
           "leaf_name", "spine_name", "core_name", "nic_name", "nic_port", "width"]

# NVIDIA DGX SuperPOD: a scalable unit is 32 DGX systems.
SERVERS_PER_SU = 32

_READ = "2026-12-03"
CL_BREAKOUT = Source(
    "NVIDIA Cumulus Linux 5.18 User Guide — Switch Port Attributes",
    "https://docs.nvidia.com/networking-ethernet-software/cumulus-linux-518/"
    "Layer-1-and-Switch-Ports/Interface-Configuration-and-Management/Switch-Port-Attributes/",
    "2026-12-01", "NVIDIA Cumulus Linux 5.18 用户指南：交换机端口属性（英文）")
SONIC_PLATFORM = Source(
    "sonic-net/sonic-buildimage: device/arista/x86_64-arista_7060x6_64pe/platform.json "
    "(Arista's SONiC platform definition)",
    "https://github.com/sonic-net/sonic-buildimage/tree/master/device/arista/"
    "x86_64-arista_7060x6_64pe", "2026-12-01",
    "Arista 7060X6-64PE 的 SONiC 平台定义（Arista 提交，英文）")
QM9700_INTERFACES = Source(
    "QM97XX 1U NDR 400Gbps InfiniBand Switch Systems User Manual — Interfaces",
    "https://docs.nvidia.com/networking/display/QM97X0PUB/Interfaces", _READ,
    "NVIDIA QM97XX NDR InfiniBand 交换机手册：接口（英文）")
IB_SPLIT = Source(
    "NVIDIA InfiniBand Cluster Bring-up Procedure — Configuring a Split Port",
    "https://docs.nvidia.com/networking/display/infinibandclusterbringupprocedure/"
    "Configuring+a+Split+Port", _READ,
    "NVIDIA InfiniBand 集群部署流程：拆分端口的配置（英文）")

PORT_NAME_SOURCES: dict[str, tuple[Source, ...]] = {
    "nvidia-spectrum": (CL_BREAKOUT,),
    "sonic": (SONIC_PLATFORM,),
    "nvidia-quantum": (QM9700_INTERFACES, IB_SPLIT),
    "nic": (SUPERPOD_B200,),
}


def width(count: int) -> int:
    """Digits of a device number: at least two, enough for ``count``."""
    return max(2, len(str(max(count, 1))))


def pod_prefix(pod: int) -> str:
    return f"p{pod}"


def _plane(plane: int, planes: int) -> str:
    return f"-pl{plane}" if planes > 1 else ""


def leaf_name(pod: int, plane: int, planes: int, first_rail: int, rails: int, index: int,
              digits: int = 2) -> str:
    """``p1-leaf-r3-07`` (one rail) or ``p1-leaf-r1to4-01`` (several whole rails)."""
    rail = f"r{first_rail}" if rails == 1 else f"r{first_rail}to{first_rail + rails - 1}"
    return f"{pod_prefix(pod)}{_plane(plane, planes)}-leaf-{rail}-{index:0{digits}d}"


def spine_name(pod: int, plane: int, planes: int, index: int, digits: int = 2) -> str:
    return f"{pod_prefix(pod)}{_plane(plane, planes)}-spine-{index:0{digits}d}"


def core_name(pod: int, plane: int, planes: int, index: int, digits: int = 2) -> str:
    return f"{pod_prefix(pod)}{_plane(plane, planes)}-core-{index:0{digits}d}"


def nic_name(pod: int, server: int, nic: int) -> str:
    """``p1-su02-node013-nic5`` for the 0-based ``server`` 44 and NIC 5."""
    su, node = divmod(server, SERVERS_PER_SU)
    return f"{pod_prefix(pod)}-su{su + 1:02d}-node{node + 1:03d}-nic{nic}"


def nic_port(port: int) -> str:
    return f"port{port}"


class PortNamer:
    """Names of one switch model's interfaces: ``name(native, sub, split)`` for sub-port
    ``sub`` (0-based) of native port ``native`` (1-based) broken out ``split`` ways."""

    def __init__(self, family: str, native_ports: int, cages: int):
        self.family = family
        self.native_ports = native_ports
        self.per_cage = max(1, native_ports // max(cages, 1))

    def name(self, native: int, sub: int, split: int) -> str:
        if not 1 <= native <= self.native_ports or not 0 <= sub < split:
            raise ValueError(f"port {native}/{sub} beyond {self.native_ports} x {split}")
        if self.family == "sonic":
            step = 8 // split
            return f"Ethernet{(native - 1) * 8 + sub * step}"
        if self.family == "nvidia-quantum":
            cage, port = divmod(native - 1, self.per_cage)
            base = f"1/{cage + 1}/{port + 1}"
            return base if split == 1 else f"{base}/{sub + 1}"
        return f"swp{native}" if split == 1 else f"swp{native}s{sub}"


def port_namer(family: str, native_ports: int, cages: int) -> PortNamer:
    return PortNamer(family, native_ports, cages)
