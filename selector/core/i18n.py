"""Language questions, answered once: which of our two languages a code means, its
HTML/BCP 47 tag; and the language switch.

Chinese (``zh-hans``) is the default, English (``en``) the second language. Anything that
is not English (None, "", "zh", "zh-hans", an unknown code) means Chinese.

The language switch: a link in every page's header to the same page in the other language
(``translate_path``; the ``other_language`` template tag). The URL alone says the language
(Chinese at /, English under /en/), so switching needs no form, no cookie and no POST, and
every page stays the same for every visitor (selector.content.httpcache). The path is resolved
in whichever language its prefix belongs to, then reversed in the other one; the query
string is kept.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.urls import Resolver404, resolve, reverse
from django.urls.exceptions import NoReverseMatch
from django.utils import translation

LANGUAGE_CODES = [code for code, _name in settings.LANGUAGES]


def is_english(code: str | None) -> bool:
    """True for "en", "en-us", "EN"...; False for Chinese, "" and None."""
    return (code or "").lower().startswith("en")


def language_code(code: str | None) -> str:
    """Our code for ``code``: "en" or "zh-hans" (what ``translation.override`` takes)."""
    return "en" if is_english(code) else "zh-hans"


def lang_tag(code: str | None) -> str:
    """The HTML ``lang`` / BCP 47 tag: "en" or "zh-Hans"."""
    return "en" if is_english(code) else "zh-Hans"


def suffix(code: str | None) -> str:
    """The suffix of the model fields holding each language's text: "en" or "zh"."""
    return "en" if is_english(code) else "zh"


def active_is_english() -> bool:
    """Is the active language (the request's, or an override's) English?"""
    return is_english(translation.get_language())


def active_lang_tag() -> str:
    """The active language's tag, as in ``inLanguage``, ``hreflang`` and ``lang``."""
    return lang_tag(translation.get_language())


def _prefix(code: str) -> str:
    return "" if code == settings.LANGUAGE_CODE else f"/{code}"


def _language_of(path: str) -> str:
    for code in LANGUAGE_CODES:
        prefix = _prefix(code)
        if prefix and (path == prefix or path.startswith(prefix + "/")):
            return code
    return settings.LANGUAGE_CODE


def translate_path(url: str, language: str) -> str:
    """``url`` (root-relative, with query) as the same page in ``language``."""
    parts = urlsplit(url)
    path = parts.path or "/"
    query = f"?{parts.query}" if parts.query else ""
    source = _language_of(path)
    try:
        with translation.override(source):
            match = resolve(path)
        if match.url_name is None:
            raise NoReverseMatch
        with translation.override(language):
            return reverse(match.view_name, args=match.args, kwargs=match.kwargs) + query
    except (Resolver404, NoReverseMatch):
        pass
    # Not one of our named pages (or not resolvable): swap the prefix.
    bare = path[len(_prefix(source)):] or "/"
    return (_prefix(language) + bare if bare != "/" else (_prefix(language) + "/")) + query
