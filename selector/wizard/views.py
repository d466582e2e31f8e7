"""The wizard's pages. Thin function views: the step objects (steps.py) decide what is
complete, the services write, the presenters shape the result page.

Every view works without JavaScript (POST/redirect/GET); with htmx the same view renders
only the step region ("template#region", a Django 6 partial) and pushes the step URL."""

from __future__ import annotations

from functools import partial

from django import forms
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe
from django_htmx.http import push_url

from selector.content.httpcache import cacheable
from selector.content.queries import block, company, faq_entries
from selector.core.answers import NAMES, form_value, label_of
from selector.core.attribution import visit_source
from selector.core.codeversion import code_version
from selector.core.explain import FABRIC_SHORT, value_label, what_if_condition
from selector.core.sharing import answers_from_token, share_token
from selector.core.siteurl import absolute
from selector.core.social import Social
from selector.domain import Answers, InvalidAnswers, decide
from selector.planner import downloads
from selector.planner.presenter import present
from selector.planner.services import fresh
from selector.wizard import services
from selector.wizard.card import plan_card
from selector.wizard.forms import MAX_RAW_LENGTH
from selector.wizard.models import WizardSession
from selector.wizard.presenters import result_context
from selector.wizard.state import SESSION_KEY, get_wizard_session
from selector.wizard.steps import (
    RESULT,
    STEP_OF_FIELD,
    STEPS,
    STEPS_BY_ID,
    Step,
    applicable_steps,
    build_answers,
    first_incomplete,
    next_step,
    previous_step,
    servers_of,
    step_index,
)

# A refused step form (or what-if) kept for the GET that shows its errors (PRG).
DRAFT_KEY = "wizard_draft"
WHAT_IF_ERROR_KEY = "wizard_what_if_error"


def _partial(request: HttpRequest) -> bool:
    """True when htmx asks for the step region only (not a history restore)."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx and not htmx.history_restore_request)


def _render(request: HttpRequest, template: str, context: dict, *, status: int = 200,
            push: str | None = None) -> HttpResponse:
    if _partial(request):
        response = render(request, f"{template}#region", context, status=status)
        if push:
            response = push_url(response, push)
    else:
        response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _session(request: HttpRequest) -> WizardSession:
    """The visitor's WizardSession, created (with where they came from) on first sight."""
    ws = get_wizard_session(request)
    if ws is None:
        ws = _start_session(request)
    return ws


def _start_session(request: HttpRequest, *, answers: dict | None = None,
                   result_shown: bool = False) -> WizardSession:
    """A new WizardSession carrying where the visit came from: the source recorded on the
    visit's first page (selector.core.attribution), else this request's own."""
    source = visit_source(request) or {
        "landing_url": request.get_full_path(),
        "referrer": request.headers.get("referer", ""),
        **{name: request.GET.get(name, "") for name in services.UTM_FIELDS},
    }
    ws = services.wizard_session_start(
        landing_url=source["landing_url"], referrer=source["referrer"],
        utm={name: source.get(name, "") for name in services.UTM_FIELDS},
        language=get_language() or "", answers=answers, result_shown=result_shown)
    request.session[SESSION_KEY] = str(ws.id)
    return ws


def _step_url(step: Step | None) -> str:
    if step is None:
        return reverse("wizard:result")
    return reverse("wizard:step", args=[step.identifier])


def _go(request: HttpRequest, ws: WizardSession, target: Step | None) -> HttpResponse:
    """Continue at ``target`` (None: the result). With htmx, render it in place and push
    its URL (one round trip); without, redirect (POST/redirect/GET)."""
    if _partial(request):
        if target is None:
            return _result_page(request, ws, push=_step_url(None))
        return _step_page(request, ws, target, push=_step_url(target))
    return HttpResponseRedirect(_step_url(target))


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def start(request: HttpRequest) -> HttpResponse:
    """Create or resume the visitor's session. Query parameters named like the answers
    pre-fill them (each valid one is stored, invalid ones are ignored) and lead to the
    first step, so walking through reaches the recommendation they describe.

    A link can come from any site, so it never silently replaces answers the visitor has
    already given: then the page asks first, and only the visitor's own POST of that page
    (CSRF-protected) stores the new values.

    A first visit without pre-filled answers and nothing to attribute creates nothing: the
    first step's page starts the session, so this redirect sets no cookie."""
    source = request.POST if request.method == "POST" else request.GET
    given = {name: source[name] for name in NAMES if source.get(name, "") != ""}
    if not given:
        ws = get_wizard_session(request)
        if ws is None and (settings.SESSION_COOKIE_NAME in request.COOKIES
                           or request.session.modified):  # a visit's source was recorded
            ws = _start_session(request)
        return HttpResponseRedirect(_step_url(
            first_incomplete(ws.answer_dict) if ws else STEPS[0]))
    ws = _session(request)
    prefill = _valid_prefill(given)
    stored = ws.answer_dict
    changes = {name: value for name, value in prefill.items() if stored.get(name) != value}
    if changes and stored and request.method != "POST":
        return _confirm_prefill(request, stored, prefill, changes)
    if changes:
        services.wizard_session_store(ws=ws, answers=prefill, language=get_language())
    return HttpResponseRedirect(_step_url(STEPS[0]))


def _confirm_prefill(request: HttpRequest, stored: dict, prefill: dict,
                     changes: dict) -> HttpResponse:
    rows = [(label_of(name),
             value_label(name, stored[name]) if name in stored else "",
             value_label(name, value))
            for name, value in changes.items()]
    return render(request, "wizard/prefill_confirm.html", {
        "rows": rows,
        "prefill_data": {name: form_value(name, value) for name, value in prefill.items()},
        "resume_url": _step_url(first_incomplete(stored)),
    })


def _valid_prefill(given: dict[str, str]) -> dict:
    """Each given value checked on its own with the step form's field."""
    valid = {}
    for step in STEPS:
        for name in step.asks(None):
            raw = given.get(name)
            if raw is None or len(raw) > MAX_RAW_LENGTH or "\x00" in raw:
                continue
            try:
                valid[name] = step.clean_value(name, raw)
            except Exception:  # noqa: BLE001, S112 -- ValidationError/TypeError: ignore it
                continue
    return valid


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def step(request: HttpRequest, identifier: str) -> HttpResponse:
    current = STEPS_BY_ID.get(identifier)
    if current is None:
        raise Http404("no such step")
    ws = _session(request)
    answers = ws.answer_dict
    if current not in applicable_steps(answers):
        return _go(request, ws, first_incomplete(answers))
    # A later step opened before the earlier ones are complete: back to the first gap.
    for earlier in applicable_steps(answers):
        if earlier is current:
            break
        if not earlier.is_completed(answers):
            return _go(request, ws, earlier)

    if request.method == "POST":
        form = current.make_form(answers, data=request.POST)
        validate = request.GET.get("validate", "")
        if _partial(request) and validate in form.fields:
            return _field_feedback(request, current, form, validate)
        if not form.is_valid():
            if _partial(request):  # htmx: no history entry for the POST, render in place
                return _step_page(request, ws, current, form=form)
            # Post/Redirect/Get: the errors are shown by the GET, so Back never resubmits.
            request.session[DRAFT_KEY] = {
                "step": current.identifier,
                "data": {k: v for k, v in request.POST.items() if k in current.fields}}
            return HttpResponseRedirect(_step_url(current), status=303)
        services.wizard_session_store(ws=ws, answers=form.answers(), language=get_language())
        answers = ws.answer_dict
        gap = first_incomplete(answers)
        if gap is None and ws.result_at is not None:
            return _go(request, ws, None)  # editing a finished wizard: back to the result
        target = next_step(answers, current)
        if target is None or (gap is not None and step_index(gap) < step_index(target)):
            target = gap
        return _go(request, ws, target)
    draft = request.session.pop(DRAFT_KEY, None)
    if isinstance(draft, dict) and draft.get("step") == current.identifier:
        form = current.make_form(answers, data=draft.get("data") or {})
        form.is_valid()
        return _step_page(request, ws, current, form=form)
    return _step_page(request, ws, current)


def _step_page(request: HttpRequest, ws: WizardSession, current: Step, *, form=None,
               push: str | None = None) -> HttpResponse:
    answers = ws.answer_dict
    services.wizard_session_reach(ws=ws, stage=current.identifier)
    steps = applicable_steps(answers)
    position = steps.index(current) + 1
    if form is None:
        form = current.make_form(answers)
    _decorate(form, _step_url(current))
    previous = previous_step(answers, current)
    progress = [(s, s.is_completed(answers), s is current) for s in steps]
    context = {
        "step": current,
        "form": form,
        "steps": progress,
        "progress_key": _progress_key(progress, position),
        "position": position,
        "total": len(steps),
        "step_url": _step_url(current),
        "previous_url": _step_url(previous) if previous else None,
        # Called by the template only when it draws the "why we ask" box, which it keeps.
        "faqs": partial(faq_entries, set(current.faq_topics)),
        "tree_lines": partial(_tree_lines, current),
        "servers": _live_servers(form, answers) if current.identifier == "scale" else None,
    }
    return _render(request, current.template, context, push=push)


def _tree_lines(step: Step) -> list:
    return [b for b in (block(k) for k in step.decision_keys) if b]


def _progress_key(progress: list[tuple[Step, bool, bool]], position: int) -> str:
    """Everything wizard/_progress.html shows on a step page, for its cached markup (the
    template adds the language): the code version, each step's state and the position."""
    states = ",".join(f"{s.identifier}:{done:d}{is_current:d}" for s, done, is_current in progress)
    return f"{code_version()}|{position}|{states}"


def _decorate(form, url: str) -> None:
    """Inline validation on typed fields (htmx posts the form to the same step view), and
    focus on the first field with an error (autofocus works with and without JS)."""
    for name, field in form.fields.items():
        if isinstance(field, forms.IntegerField):
            field.widget.attrs.update({
                "data-hx-post": f"{url}?validate={name}",
                "data-hx-trigger": "input changed delay:400ms",
                "data-hx-target": f"#{form.auto_id % name}_error",
                "data-hx-swap": "innerHTML",
                "data-hx-sync": "closest form:abort",
            })
    if form.is_bound and form.errors:
        first = next((n for n in form.fields if n in form.errors), None)
        if first:
            form.fields[first].widget.attrs["autofocus"] = True


def _live_servers(form, answers: dict) -> int | None:
    if form.is_bound:
        if form.is_valid():
            return servers_of(form.cleaned_data)
        return None
    return servers_of(answers)


def _field_feedback(request: HttpRequest, current: Step, form, name: str) -> HttpResponse:
    """Inline validation: the same form class as the POST, one field's error slot back
    (plus the live server count on the scale step, out of band)."""
    form.is_valid()
    html = render_to_string("wizard/field_feedback.html", {
        "field": form[name],
        "scale": current.identifier == "scale",
        "servers": _live_servers(form, {}) if current.identifier == "scale" else None,
    }, request=request)
    response = HttpResponse(html)
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def result(request: HttpRequest) -> HttpResponse:
    ws = _session(request)
    answers = build_answers(ws.answer_dict)
    if answers is None:
        return _go(request, ws, first_incomplete(ws.answer_dict))
    if request.method == "POST":
        return _what_if(request, ws, answers)
    error = request.session.pop(WHAT_IF_ERROR_KEY, None)
    return _result_page(request, ws, what_if_error=error if isinstance(error, str) else None,
                        answers=answers)


def _changed_answers(data, answers: Answers) -> tuple[Answers | None, str, str | None]:
    """``answers`` with exactly one answer changed as ``data`` (a what-if's ``field=value``)
    says, validated by the owning step's form: (changed, field, None) or (None, "", error)."""
    names = [name for name in NAMES if name in data]
    if len(names) != 1:
        return None, "", _("Choose one answer to change.")
    name = names[0]
    raw = data.get(name, "")
    if not isinstance(raw, str) or len(raw) > MAX_RAW_LENGTH:
        return None, "", _("That change is not possible.")
    form = STEP_OF_FIELD[name].what_if_form(answers.to_dict(), name, raw)
    if not form.is_valid():
        return None, "", "; ".join(str(e) for e in form.errors.get(name, [])) or _(
            "That change is not possible.")
    try:
        return answers.replace(**form.answers()), name, None
    except InvalidAnswers:
        return None, "", _("That change is not possible.")


def _what_if(request: HttpRequest, ws: WizardSession, answers: Answers) -> HttpResponse:
    """"Use these answers" on a what-if preview: change exactly one answer (the form posts
    ``field=value``), validated by the owning step's form, stored, and the result shown
    again. Only this POST (CSRF-protected) changes the stored answers; the preview is a
    GET that stores nothing (``what_if``)."""
    changed, _name, error = _changed_answers(request.POST, answers)
    if changed is not None:
        services.wizard_session_store(ws=ws, answers=changed.to_dict(),
                                      language=get_language())
        if not _partial(request):
            return HttpResponseRedirect(_step_url(None))
        return _result_page(request, ws, push=_step_url(None))
    if not _partial(request):  # Post/Redirect/Get, as for the steps
        request.session[WHAT_IF_ERROR_KEY] = str(error)
        return HttpResponseRedirect(_step_url(None), status=303)
    return _result_page(request, ws, what_if_error=error)


@require_safe
@never_cache
def what_if(request: HttpRequest) -> HttpResponse:
    """A what-if as a preview (issue 26, finding 4): the result with one answer changed
    (``?field=value``, the offered what-ifs link here), computed and shown without storing
    anything, so Back, a reload or the result's own URL still show the customer's own
    result. "Use these answers" on the page posts the change to ``result``."""
    ws = _session(request)
    answers = build_answers(ws.answer_dict)
    if answers is None:
        return _go(request, ws, first_incomplete(ws.answer_dict))
    changed, name, error = _changed_answers(request.GET, answers)
    if changed is None:
        return _result_page(request, ws, what_if_error=error, answers=answers,
                            status=200 if _partial(request) else 400)
    own = decide(answers)
    field_value = form_value(name, getattr(changed, name))
    preview = {
        "field": name,
        "value": field_value,
        "text": what_if_condition(name, getattr(changed, name)),
        "own_label": str(FABRIC_SHORT[own.recommendation]),
        "url": request.get_full_path(),
    }
    return _result_page(request, ws, answers=changed, preview=preview)


def _result_page(request: HttpRequest, ws: WizardSession, *, push: str | None = None,
                 what_if_error: str | None = None, status: int = 200,
                 answers: Answers | None = None, preview: dict | None = None) -> HttpResponse:
    """``answers``: the caller's validated answers (saves validating them twice), or with
    ``preview`` the what-if's answers, shown and never stored."""
    answers = answers or build_answers(ws.answer_dict)
    if answers is None:  # defensive: callers check first
        return HttpResponseRedirect(_step_url(first_incomplete(ws.answer_dict)))
    services.wizard_session_reach(ws=ws, stage=RESULT)
    context = result_context(fresh(answers))
    steps = applicable_steps(ws.answer_dict)
    context.update({
        "shared": False,
        "steps": [(s, True, False) for s in steps],
        "steps_key": ",".join(s.identifier for s in steps),  # the cached head's progress
        "total": len(steps),
        "share_url": absolute(reverse("wizard:shared", args=[share_token(answers)]), request),
        "what_if_error": what_if_error,
        "preview": preview,
        "view_mode": "preview" if preview is not None else "own",  # the cached head's too
        # "Talk to an engineer" (issue 26, finding 10): no report number before the contact
        # step, so the WeCom link says only that it came from a result page.
        "wecom_url": company().wecom_link_for("selector-result"),
    })
    if preview is not None:
        context["what_ifs"] = []  # no what-if of a what-if: apply this one first
    return _render(request, "wizard/result.html", context, status=status, push=push)


@require_safe
@cacheable
def shared(request: HttpRequest, token: str) -> HttpResponse:
    """A shared result, read-only, reproduced from the signed answers in the link: the same
    page for everyone who opens it (no form, no cookie; selector.content.httpcache)."""
    answers = answers_from_token(token)
    if answers is None:
        return render(request, "wizard/share_invalid.html", status=404)
    context = result_context(fresh(answers))
    share_url = absolute(request.path, request)
    reasons = context["reasons"]
    context.update({"shared": True, "share_token": token, "share_url": share_url,
                    # The link preview (Open Graph, Twitter card) in WeChat, Slack, e-mail.
                    "social": Social(
                        title=_("Shared result") + pgettext("label separator", ": ")
                        + context["recommendation_label"],
                        description=" ".join([context["rule_title"], *reasons[:1]]).strip(),
                        url=share_url,
                        image_url=absolute(reverse("wizard:shared_card", args=[token]),
                                           request),
                        image_text=context["recommendation_label"]
                        + pgettext("label separator", ": ") + context["rule_title"])})
    response = render(request, "wizard/result.html", context)
    response["X-Robots-Tag"] = "noindex"
    return response


@require_safe
@cacheable
def shared_card(request: HttpRequest, token: str) -> HttpResponse:
    """The shared result's sharing image (og:image), drawn from its plan in the page's
    language (selector.wizard.card); cached like the page, by the content version."""
    answers = answers_from_token(token)
    if answers is None:
        raise Http404("no such share link")
    vm = present(fresh(answers), id_prefix="card")
    return HttpResponse(plan_card(vm, company().short_name), content_type="image/png")


@require_safe
def shared_download(request: HttpRequest, token: str, kind: str) -> HttpResponseBase:
    """The cabling plan or the switch configurations of the shared result's recommended
    plan: the signed link is the credential, as for the shared page. 404 for a bad link or
    a result without a fabric plan; 413 beyond the download's limit."""
    answers = answers_from_token(token)
    if answers is None:
        raise Http404("no such share link")
    plan = fresh(answers).recommended.plan
    if plan is None:
        raise Http404("no fabric plan to download")
    response = downloads.respond(kind, plan)
    response["X-Robots-Tag"] = "noindex"
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def handoff(request: HttpRequest, token: str) -> HttpResponse:
    """A colleague's shared result -> the contact step with those answers: a new wizard
    session seeded from the signed link (the visitor's own answers, if any, stay in the
    session they had), then Post/Redirect/Get to the contact step.

    The shared result links here (a form would need a CSRF token, hence a cookie, on a page
    that is otherwise the same for everyone). A GET hands off only when the browser says it
    comes from one of our own pages (``Sec-Fetch-Site: same-origin``, a header no page can
    set; web.dev, "Protect your resources from web attacks with Fetch Metadata",
    https://web.dev/articles/fetch-metadata, read 2026-12-02). A link from elsewhere, or a
    browser that sends no such header, gets a page that asks first with a CSRF-protected
    form, as ``start`` does for pre-filled answers."""
    answers = answers_from_token(token)
    if answers is None:
        return render(request, "wizard/share_invalid.html", status=404)
    same_origin = request.headers.get("sec-fetch-site") == "same-origin"
    if not (request.method == "POST" or (request.method == "GET" and same_origin)):
        response = render(request, "wizard/handoff_confirm.html", {
            "token": token, "recommendation_short": result_context(fresh(answers)).get(
                "recommendation_short", "")})
        response["X-Robots-Tag"] = "noindex"
        add_never_cache_headers(response)
        return response
    ws = _start_session(request, answers=answers.to_dict(), result_shown=True)
    services.wizard_session_reach(ws=ws, stage=RESULT)
    return HttpResponseRedirect(reverse("public:contact"), status=303)
