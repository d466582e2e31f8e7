"""What a link preview shows (Open Graph, Twitter card): the sharing image and the values
templates/includes/social_meta.html prints, for a public page (selector.public.seo.Seo)
or a shared result (selector.wizard.views.shared)."""

from __future__ import annotations

from dataclasses import dataclass

from django.templatetags.static import static
from django.utils.translation import gettext as _

from selector.core.i18n import active_lang_tag
from selector.core.siteurl import absolute

# Open Graph wants territory locales.
OG_LOCALES = {"zh-Hans": "zh_CN", "en": "en_US"}
# The sharing image of the public pages: static and branded (drawn by devtools/og_card.py);
# a shared result has its own, drawn from its plan (selector.wizard.card). 1200 x 630 px,
# the size Open Graph consumers show large (Meta for Developers, "Images in Link Shares",
# https://developers.facebook.com/docs/sharing/webmasters/images/, as quoted at
# https://joomlashack.com/docs/shack-open-graph/facebook-image-requirements, read
# 2026-12-02). A PNG, not the SVG logo: link previews take raster images (PNG, JPEG, GIF,
# WebP: https://og-image-2fo.pages.dev/docs/platforms/facebook, read 2026-12-02).
SHARE_IMAGE = "img/og-card.png"
SHARE_IMAGE_SIZE = (1200, 630)


def share_image() -> str:
    """The absolute URL of the sharing image."""
    return absolute(static(SHARE_IMAGE))


@dataclass
class Social:
    """The Open Graph and Twitter card values (templates/includes/social_meta.html)."""

    title: str
    description: str
    url: str = ""  # absolute
    og_type: str = "website"
    # A page's own image (a shared result's plan card) and its text; else the branded one.
    image_url: str = ""
    image_text: str = ""

    @property
    def og_locale(self) -> str:
        return OG_LOCALES[active_lang_tag()]

    @property
    def og_locale_alternates(self) -> list[str]:
        return [v for k, v in OG_LOCALES.items() if k != active_lang_tag()]

    @property
    def image(self) -> str:
        return self.image_url or share_image()

    @property
    def image_width(self) -> int:
        return SHARE_IMAGE_SIZE[0]

    @property
    def image_height(self) -> int:
        return SHARE_IMAGE_SIZE[1]

    @property
    def image_alt(self) -> str:
        return self.image_text or _("AI cluster network selector: RoCE v2 or InfiniBand")
