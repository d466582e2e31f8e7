from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from selector.content import queries


@require_GET
def faq(request: HttpRequest) -> HttpResponse:
    return render(request, "public/faq.html", {"faqs": queries.faq_entries()})


@require_GET
def comparison(request: HttpRequest) -> HttpResponse:
    return render(request, "public/comparison.html", {"rows": queries.comparison_rows()})
