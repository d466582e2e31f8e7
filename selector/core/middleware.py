from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers

# Paths outside i18n_patterns whose responses follow the request's language
# (Accept-Language or the language cookie) instead of the default language.
NEGOTIATED_PREFIXES = ("/api/",)


class LocaleMiddleware(DjangoLocaleMiddleware):
    """Django's LocaleMiddleware, except that the API negotiates its language: with
    ``prefix_default_language=False`` Django pins every unprefixed path to LANGUAGE_CODE,
    which would make API error messages ignore Accept-Language."""

    def process_request(self, request: HttpRequest) -> None:
        if request.path_info.startswith(NEGOTIATED_PREFIXES):
            translation.activate(translation.get_language_from_request(request, check_path=False))
            request.LANGUAGE_CODE = translation.get_language()
            return
        super().process_request(request)

    def process_response(self, request: HttpRequest, response: HttpResponseBase
                         ) -> HttpResponseBase:
        if request.path_info.startswith(NEGOTIATED_PREFIXES):
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
            response.headers.setdefault("Content-Language", translation.get_language())
            return response
        return super().process_response(request, response)


class PermissionsPolicyMiddleware:
    """``Permissions-Policy`` on every response (settings.PERMISSIONS_POLICY): the site uses
    no camera, microphone, location, payment or sensor, so no page — nor anything injected
    into one — may ask for them. Django has no setting for this header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.header = ", ".join(
            f"{feature}=({' '.join(allow)})"
            for feature, allow in settings.PERMISSIONS_POLICY.items())

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if self.header:
            response.headers.setdefault("Permissions-Policy", self.header)
        return response
