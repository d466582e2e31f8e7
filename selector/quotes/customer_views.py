"""The customer's quote page (/quote/<signed token>/): the quote and nothing else of the
lead (no contact details, no answers, no notes), the company's details, accept or ask for
changes. A tampered or unknown link is the site's 404; an expired one says so and shows
nothing of the quote. Opening the page is counted (first and last viewed, views)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from selector.content.queries import company
from selector.core.request import client_ip
from selector.quotes import jsonld, services
from selector.quotes.forms import AcceptForm, ChangesForm
from selector.quotes.links import open_token, quote_path
from selector.quotes.models import Quote
from selector.quotes.models import Status as QuoteStatus
from selector.quotes.pdf import pdf_response
from selector.quotes.services import QuoteError, latest_sent


def _opened(request: HttpRequest, token: str) -> Quote | HttpResponse:
    opened = open_token(token)
    if opened.expired:
        response = render(request, "quotes/expired.html", status=410)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response
    if opened.quote is None:
        raise Http404
    return opened.quote


def _page(request, quote: Quote, token: str, *, accept=None, changes=None, error="",
          status=200) -> HttpResponse:
    lines = list(quote.lines.all())
    totals = quote.totals(lines)
    newest = latest_sent(quote.lead)
    superseded = newest is not None and newest.pk != quote.pk
    answerable = quote.status == QuoteStatus.SENT and not superseded and not quote.is_expired()
    context = {
        "quote": quote, "company": company(), "lines": list(zip(lines, totals.lines,
                                                                 strict=True)),
        "totals": totals, "token": token, "answerable": answerable,
        "superseded": superseded,
        "newest_path": quote_path(newest, request.LANGUAGE_CODE) if superseded and newest
        else "",
        "accept_form": accept or AcceptForm(), "changes_form": changes or ChangesForm(),
        "error": error, "done": request.GET.get("done", ""),
        "jsonld": jsonld.script(jsonld.offer(quote, totals, request.build_absolute_uri(
            reverse("quotes:customer", args=[token])))),
    }
    response = render(request, "quotes/customer.html", context, status=status)
    response["X-Robots-Tag"] = "noindex, nofollow"
    # The token stays out of other sites' logs. Not "no-referrer": with it the browser
    # posts the accept form with "Origin: null", which the CSRF check refuses.
    response["Referrer-Policy"] = "same-origin"
    return response


@require_http_methods(["GET", "HEAD"])
@never_cache
def quote_page(request: HttpRequest, token: str) -> HttpResponse:
    quote = _opened(request, token)
    if isinstance(quote, HttpResponse):
        return quote
    if request.method == "GET":
        services.quote_viewed(quote=quote, ip=client_ip(request))
    return _page(request, quote, token)


@require_http_methods(["GET", "HEAD"])
@never_cache
def quote_pdf_view(request: HttpRequest, token: str) -> HttpResponse:
    """The quote's PDF for the customer (?lang=zh-hans|en), the same file as the rep's."""
    quote = _opened(request, token)
    if isinstance(quote, HttpResponse):
        return quote
    response = pdf_response(quote, request.GET.get("lang"))
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_POST
@never_cache
def quote_accept(request: HttpRequest, token: str) -> HttpResponse:
    quote = _opened(request, token)
    if isinstance(quote, HttpResponse):
        return quote
    form = AcceptForm(request.POST)
    if not form.is_valid():
        return _page(request, quote, token, accept=form, status=400)
    try:
        services.quote_accept(quote=quote, name=form.cleaned_data["name"],
                              title=form.cleaned_data["title"],
                              consent=str(form.fields["consent"].label),
                              ip=client_ip(request))
    except QuoteError as exc:
        quote.refresh_from_db()
        return _page(request, quote, token, error=exc.code, status=409)
    return redirect(reverse("quotes:customer", args=[token]) + "?done=accepted")


@require_POST
@never_cache
def quote_changes(request: HttpRequest, token: str) -> HttpResponse:
    quote = _opened(request, token)
    if isinstance(quote, HttpResponse):
        return quote
    form = ChangesForm(request.POST)
    if not form.is_valid():
        return _page(request, quote, token, changes=form, status=400)
    try:
        services.quote_request_changes(quote=quote, message=form.cleaned_data["message"],
                                       name=form.cleaned_data["name"], ip=client_ip(request))
    except QuoteError as exc:
        quote.refresh_from_db()
        return _page(request, quote, token, error=exc.code, status=409)
    return redirect(reverse("quotes:customer", args=[token]) + "?done=changes")
