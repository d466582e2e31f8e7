"""Public, read-only JSON API over the domain core. GET only, no side effects; bad input
is a 400 with ``{"errors": {field: [message]}}`` in the request's language."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from selector.api.forms import FabricQuery, RecommendQuery
from selector.api.openapi import openapi_document
from selector.content.models import Switch
from selector.core.explain import decision_texts, what_if_text
from selector.core.results import DEFAULT_CABLE_M, compute_result
from selector.domain import RULES_BY_ID, FabricTooLarge, SizingError, size_fabric

JSON_OPTIONS = {"ensure_ascii": False}


def _json(data: dict, status: int = 200) -> JsonResponse:
    return JsonResponse(data, status=status, json_dumps_params=JSON_OPTIONS)


def _errors(form) -> JsonResponse:
    errors = {field: [str(e) for e in errs] for field, errs in form.errors.items()}
    return _json({"errors": errors}, status=400)


@require_safe
@cache_control(public=True, max_age=300)
def recommend(request: HttpRequest) -> JsonResponse:
    form = RecommendQuery(request.GET)
    if not form.is_valid():
        return _errors(form)
    answers = form.answers()
    result = compute_result(answers, Switch.catalogue(),
                            cable_m=form.cleaned_data["cable_m"] or DEFAULT_CABLE_M)
    decision = result.decision
    texts = decision_texts(decision)
    return _json({
        "recommendation": decision.recommendation.value,
        "recommendation_label": texts["recommendation_label"],
        "rule": decision.rule,
        "rule_title": texts["rule_title"],
        "seed_quote": RULES_BY_ID[decision.rule].seed_quote,
        "servers": decision.servers,
        "reasons": texts["reasons"],
        "reason_keys": [r.to_dict() for r in decision.reasons],
        "runner_up": decision.runner_up.value,
        "what_if": [{**w.to_dict(), "text": what_if_text(w)} for w in decision.what_if],
        "fabric": result.recommended.to_dict(),
        "runner_up_fabric": result.runner_up.to_dict(),
        "tuning": result.tuning.to_dict() if result.tuning else None,
        "answers": answers.to_dict(),
        "engine_version": decision.engine_version,
    })


@require_safe
@cache_control(public=True, max_age=300)
def fabric(request: HttpRequest) -> JsonResponse:
    form = FabricQuery(request.GET)
    if not form.is_valid():
        return _errors(form)
    data = form.cleaned_data
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
    return _json({key: body[key] for key in (
        "tiers", "leaf", "spine", "core", "switches", "links", "transceiver_ends",
        "radix", "oversubscription", "leaf_down", "leaf_up", "servers", "rails")})


@require_safe
@cache_control(public=True, max_age=3600)
def openapi(request: HttpRequest) -> JsonResponse:
    return _json(openapi_document(request.build_absolute_uri("/")))
