"""Public, read-only JSON API over the domain core. GET only, no side effects; bad input
is a 400 with ``{"errors": {field: [message]}}`` in the request's language; too many
requests from one address a 429 in the same shape, with Retry-After (selector.api.throttle)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django import forms
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from selector.api.forms import FabricQuery, RecommendQuery
from selector.api.openapi import openapi_document
from selector.api.throttle import rate_limited
from selector.content.httpcache import cacheable
from selector.content.snapshot import current as current_content
from selector.core import explain
from selector.domain import (
    Fabric,
    FabricPlan,
    FabricTooLarge,
    SizingError,
    plan_fabric,
    size_fabric,
)
from selector.domain.recommend import FabricOption
from selector.planner import downloads
from selector.planner.build import acceptance_text
from selector.planner.presenter import api_dict, fabric_api
from selector.planner.services import fresh
from selector.planner.words import no_plan_text

JSON_OPTIONS = {"ensure_ascii": False}
# The first release's /api/fabric keys (textbook fat-tree), kept as they were.
SIZE_KEYS = ("tiers", "leaf", "spine", "core", "switches", "links", "transceiver_ends",
             "radix", "oversubscription", "leaf_down", "leaf_up", "servers", "rails")


def _json(data: dict, status: int = 200) -> JsonResponse:
    return JsonResponse(data, status=status, json_dumps_params=JSON_OPTIONS)


def _errors(form) -> JsonResponse:
    errors = {field: [str(e) for e in errs] for field, errs in form.errors.items()}
    return _json({"errors": errors}, status=400)


@rate_limited
@require_safe
@cacheable  # ETag, 304, public for 300 s; varies on Accept-Language only
def recommend(request: HttpRequest) -> JsonResponse:
    form = RecommendQuery(request.GET)
    if not form.is_valid():
        return _errors(form)
    return _json(api_dict(fresh(form.answers()), form.build_params()))


@rate_limited
@require_safe
@cacheable
def fabric(request: HttpRequest) -> JsonResponse:
    form = FabricQuery(request.GET)
    if not form.is_valid():
        return _errors(form)
    data = form.cleaned_data
    if data["fabric"]:
        return _catalogue_plan(Fabric(data["fabric"]), form)
    try:
        size = size_fabric(data["gpus"], data["gpus_per_server"] or 8, data["radix"] or 64,
                           data["oversubscription"] or 1)
    except FabricTooLarge as exc:
        return _json({"errors": {"gpus": [
            _("Too many GPUs for three tiers of this switch: the largest size is %(max)s GPUs.")
            % {"max": exc.max_gpus}]}}, status=400)
    except SizingError as exc:  # defensive: the form already enforces the same limits
        return _json({"errors": {exc.field: [_("Enter a valid value.")]}}, status=400)
    body = size.to_dict()
    result = {key: body[key] for key in SIZE_KEYS}
    result.update({"planes": 1, "gpu_link_gbps": None, "uplink_gbps": None, "switch": None,
                   "bom": [], "power_w": None, "cost": None})
    return _json(result)


def _plan_or_error(fabric_code: Fabric, form: FabricQuery) -> FabricPlan | JsonResponse:
    """The catalogue plan of ``fabric_code``, or the 400 that says why there is none."""
    answers = form.answers()
    try:
        content = current_content()
        plan = plan_fabric(fabric_code, answers, content.catalogue, content.prices)
    except FabricTooLarge as exc:
        option = FabricOption(fabric_code, None, error="too_large", max_gpus=exc.max_gpus)
        return _json({"errors": {"gpus": [no_plan_text(option)]}}, status=400)
    except LookupError:
        option = FabricOption(fabric_code, None, error="no_switch")
        return _json({"errors": {"fabric": [no_plan_text(option)]}}, status=400)
    assert plan is not None  # only the standard network has no plan, not a FABRIC_CHOICE
    return plan


def _catalogue_plan(fabric_code: Fabric, form: FabricQuery) -> JsonResponse:
    plan = _plan_or_error(fabric_code, form)
    if isinstance(plan, JsonResponse):
        return plan
    body = fabric_api(FabricOption(fabric_code, plan), form.build_params())
    assert body is not None  # a planned option always has its API body
    return _json(body)


def _download(request: HttpRequest, respond: Callable[[FabricPlan], HttpResponseBase]
              ) -> HttpResponseBase:
    """A build download of the catalogue plan ``/api/fabric`` gives for the same query:
    400 in its error shape for bad parameters (``fabric`` is required here), 413 beyond
    the download's limit (selector.planner.downloads)."""
    form = FabricQuery(request.GET)
    if not form.is_valid():
        return _errors(form)
    if not form.cleaned_data["fabric"]:
        return _json({"errors": {"fabric": [str(forms.Field.default_error_messages[
            "required"])]}}, status=400)
    plan = _plan_or_error(Fabric(form.cleaned_data["fabric"]), form)
    if isinstance(plan, JsonResponse):
        return plan
    return respond(plan)


@rate_limited
@require_safe
def cabling_csv(request: HttpRequest) -> HttpResponseBase:
    return _download(request, downloads.cabling_csv)


@rate_limited
@require_safe
def cabling_xlsx(request: HttpRequest) -> HttpResponseBase:
    return _download(request, downloads.cabling_xlsx)


@rate_limited
@require_safe
def configs_zip(request: HttpRequest) -> HttpResponseBase:
    return _download(request, downloads.configs_zip)


@rate_limited
@require_safe
@cacheable
def acceptance(request: HttpRequest) -> HttpResponse:
    """The acceptance test plan as text, for the same query as /api/fabric. Without
    ``fabric`` it is the recommended fabric of the answers (a textbook fat-tree has no
    switch to test)."""
    form = FabricQuery(request.GET)
    if not form.is_valid():
        return _errors(form)
    data = form.cleaned_data
    if data["radix"]:
        return _json({"errors": {"radix": [_("The acceptance test plan needs a catalogue "
                                             "plan: give a fabric, not a radix.")]}},
                     status=400)
    if data["fabric"]:
        fabric_code = Fabric(data["fabric"])
    else:
        fabric_code = fresh(form.answers()).decision.recommendation
        if fabric_code == Fabric.STANDARD:
            return _json({"errors": {"fabric": [_("The standard network has no back-end "
                                                  "fabric to test: give a fabric.")]}},
                         status=400)
    plan = _plan_or_error(fabric_code, form)
    if isinstance(plan, JsonResponse):
        return plan
    text = acceptance_text(plan, explain.fabric_label(fabric_code), form.build_params())
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="acceptance-test-plan.txt"'
    return response


@rate_limited
@require_safe
@partial(cacheable, max_age=3600, content=False)
def openapi(request: HttpRequest) -> JsonResponse:
    return _json(openapi_document(request.build_absolute_uri("/")))
