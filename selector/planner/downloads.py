"""The build downloads of a plan: the cabling plan as CSV or XLSX and the per-switch
configurations as a zip, streamed, for the API (a fresh plan), the shared result (the
signed answers) and the staff lead page (the lead's frozen plan). One place for the limits
and the responses, so the three routes answer alike.

Limits (docs/planner.md, "Build downloads"): a cabling plan streams up to ``LINKS_MAX``
links (1,000,000: a 100,000-GPU plan of 8 x 400G NICs per server has 300,000, of 800G NICs
600,000; Excel holds 1,048,576 rows a sheet), as XLSX up to ``XLSX_LINKS_MAX`` (500,000),
the Ethernet configuration zip up to
``SWITCHES_MAX`` switches (8,000: every 100,000-GPU plan, at most 7,826 switches); both keep
a download within gunicorn's 30 s worker timeout on our 2-core machine. A larger plan is a
413 that names the limit, in the API's error shape. (An InfiniBand zip is one opensm.conf
whatever the size.)
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from typing import Any

from django.http import JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _

from selector.content.snapshot import current
from selector.core.spreadsheet import Sink, csv_lines, xlsx_parts
from selector.domain import Catalogue, FabricPlan
from selector.domain.build.cabling import CSV_HEADER, iter_links, link_count, summary
from selector.domain.build.configs import iter_configs, opensm_conf
from selector.planner.words import num, tier_label

__all__ = ["LINKS_MAX", "XLSX_LINKS_MAX", "SWITCHES_MAX", "KINDS", "too_large",
           "cabling_csv", "cabling_xlsx", "configs_zip", "respond", "download_context",
           "file_stem"]

LINKS_MAX = 1_000_000
XLSX_LINKS_MAX = 500_000  # SpreadsheetML is about 3 x slower than CSV per row
SWITCHES_MAX = 8_000
CSV_TYPE = "text/csv; charset=utf-8"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _catalogue() -> Catalogue:
    return current().catalogue


def too_large(plan: FabricPlan, kind: str) -> JsonResponse | None:
    """The 413 for a plan beyond the download's limit, else None."""
    if kind == "configs":
        if plan.switches <= SWITCHES_MAX or plan.switch.technology != "ethernet":
            return None
        text = _("This plan has %(count)s switches; the configuration download is limited "
                 "to %(limit)s switches.") % {"count": num(plan.switches),
                                               "limit": num(SWITCHES_MAX)}
        limit = SWITCHES_MAX
    else:
        links = link_count(plan)
        limit = XLSX_LINKS_MAX if kind == "xlsx" else LINKS_MAX
        if links <= limit:
            return None
        text = _("This plan has %(count)s links; the cabling download is limited to "
                 "%(limit)s links.") % {"count": num(links), "limit": num(limit)}
    return JsonResponse({"errors": {"gpus": [text]}, "limit": limit}, status=413,
                        json_dumps_params={"ensure_ascii": False})


def file_stem(plan: FabricPlan) -> str:
    return f"{plan.fabric.value}-{plan.gpus}gpu"


def _rows(plan: FabricPlan, catalogue: Catalogue) -> Iterator[list[Any]]:
    for link in iter_links(plan, catalogue):
        row: list[Any] = list(link.csv_row())
        row[5] = link.plane
        row[8] = link.reach_m
        yield row


def _attachment(response: StreamingHttpResponse, name: str) -> StreamingHttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def cabling_csv(plan: FabricPlan) -> StreamingHttpResponse | JsonResponse:
    refused = too_large(plan, "cabling")
    if refused is not None:
        return refused
    chunks = csv_lines(CSV_HEADER, _rows(plan, _catalogue()))
    response = StreamingHttpResponse(chunks, content_type=CSV_TYPE)
    return _attachment(response, f"cabling-{file_stem(plan)}.csv")


def cabling_xlsx(plan: FabricPlan) -> StreamingHttpResponse | JsonResponse:
    refused = too_large(plan, "xlsx")
    if refused is not None:
        return refused
    chunks = xlsx_parts(CSV_HEADER, _rows(plan, _catalogue()), "cabling")
    response = StreamingHttpResponse(chunks, content_type=XLSX_TYPE)
    return _attachment(response, f"cabling-{file_stem(plan)}.xlsx")


ZIP_TYPE = "application/zip"


def _readme(plan: FabricPlan, count: int) -> str:
    return (f"Switch configurations for the {plan.gpus}-GPU {plan.fabric.value} plan on "
            f"{plan.switch.vendor} {plan.switch.model}: {count} file(s), named by the "
            "cabling plan's device names (cabling.csv from the same page).\n"
            "Each file lists the documents its lines come from at its end. Review them with "
            "our engineers before you apply them.\n")


def _zip_chunks(plan: FabricPlan, catalogue: Catalogue) -> Iterator[bytes]:
    """The zip, one member at a time through a non-seekable sink (bounded memory)."""
    sink = Sink()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        count = 0
        if plan.switch.technology == "infiniband":
            lines = opensm_conf(plan)
            archive.writestr("opensm.conf", "\n".join(line.text for line in lines) + "\n")
            count = 1
        else:
            for config in iter_configs(plan, catalogue):
                archive.writestr(config.filename, config.text())
                count += 1
                chunk = sink.drain()
                if chunk:
                    yield chunk
        archive.writestr("README.txt", _readme(plan, count))
    yield sink.drain()


def configs_zip(plan: FabricPlan) -> StreamingHttpResponse | JsonResponse:
    refused = too_large(plan, "configs")
    if refused is not None:
        return refused
    response = StreamingHttpResponse(_zip_chunks(plan, _catalogue()), content_type=ZIP_TYPE)
    return _attachment(response, f"configs-{file_stem(plan)}.zip")


KINDS = ("cabling.csv", "cabling.xlsx", "configs.zip")


def respond(kind: str, plan: FabricPlan) -> StreamingHttpResponse | JsonResponse:
    """The download ``kind`` (one of ``KINDS``) of ``plan``."""
    if kind == "cabling.csv":
        return cabling_csv(plan)
    if kind == "cabling.xlsx":
        return cabling_xlsx(plan)
    return configs_zip(plan)


def download_context(plan: FabricPlan | None, urls: dict[str, str]) -> dict[str, Any] | None:
    """What ``includes/build_downloads.html`` shows: the links (``csv``, ``xlsx``,
    ``configs``) and a one-line summary (links, parts per planned reach)."""
    if plan is None:
        return None
    data = summary(plan)
    parts = []
    for tier in data["tiers"]:
        parts.append(_("%(tier)s up to %(reach)s m: %(links)s links, %(modules)s modules, "
                       "%(cables)s cables") % {
                           "tier": tier_label(tier["tier"]), "reach": tier["reach_m"],
                           "links": num(tier["links"]), "modules": num(tier["modules"]),
                           "cables": num(tier["cables"])})
    return {"links": data["links"], "links_text": num(data["links"]),
            "gpus_text": num(plan.gpus), "fabric": plan.fabric.value,
            "switches_text": num(data["switches"]), "parts": parts,
            "csv_url": urls.get("csv", ""), "xlsx_url": urls.get("xlsx", ""),
            "configs_url": urls.get("configs", ""),
            "too_large": data["links"] > LINKS_MAX,
            "xlsx_too_large": too_large(plan, "xlsx") is not None,
            "configs_too_large": too_large(plan, "configs") is not None}
