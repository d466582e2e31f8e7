"""Reading a bilingual field in the active language."""

from __future__ import annotations

from django.utils.translation import get_language

from selector.core.i18n import suffix


class Localized:
    """``question = Localized("question")`` reads ``question_zh`` or ``question_en`` by the
    active language, falling back to Chinese (the source language) when English is blank."""

    def __init__(self, base: str):
        self.base = base

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        value = getattr(obj, f"{self.base}_{suffix(get_language())}")
        return value or getattr(obj, f"{self.base}_zh")


# WeCom's customer-acquisition links (企业微信「获客链接」) open on this host and path, as
# the API returns them: "url": "https://work.weixin.qq.com/ca/xxxxxx" (企业微信开发者中心,
# 获客链接管理, https://developer.work.weixin.qq.com/document/path/97297, read 2026-12-03).
