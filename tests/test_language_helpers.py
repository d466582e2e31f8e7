"""selector.core.i18n: the one answer to "which of our languages is this?"."""

import pytest
from django.utils import translation

from selector.core import i18n


@pytest.mark.parametrize("code,english", [
    ("en", True), ("EN", True), ("en-us", True), ("en-GB", True),
    ("zh-hans", False), ("zh-Hans", False), ("zh", False), ("", False), (None, False),
    ("fr", False), ("eng", True),
])
def test_every_code_is_one_of_our_two_languages(code, english):
    assert i18n.is_english(code) is english
    assert i18n.language_code(code) == ("en" if english else "zh-hans")
    assert i18n.lang_tag(code) == ("en" if english else "zh-Hans")
    assert i18n.suffix(code) == ("en" if english else "zh")


def test_the_active_language_is_asked_the_same_way():
    with translation.override("en"):
        assert i18n.active_is_english() and i18n.active_lang_tag() == "en"
    with translation.override("zh-hans"):
        assert not i18n.active_is_english() and i18n.active_lang_tag() == "zh-Hans"
    with translation.override(None):
        assert not i18n.active_is_english() and i18n.active_lang_tag() == "zh-Hans"
