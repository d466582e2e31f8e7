"""Each staff string shows its own translation. Django merges the catalogues of
LOCALE_PATHS and then of every installed app in INSTALLED_APPS order (django.contrib.admin
first), so a msgid that another catalogue also translates takes that translation: the
list said 过滤器 (the admin's "Filter"), 下一步 (the wizard's "Next") and 已创建 (the leads
app's event "Created"). Staff strings that mean something else than elsewhere carry a
msgctxt; this test fails for any staff entry that the running site would render
differently from the staff catalogue."""

import gettext
from pathlib import Path

from django.utils import translation

from tests.conftest import make_lead

from .conftest import login

CATALOGUE = (Path(__file__).resolve().parents[2] / "selector" / "staff" / "locale" / "zh_Hans"
             / "LC_MESSAGES" / "django.mo")


def test_every_staff_string_renders_its_own_translation():
    with CATALOGUE.open("rb") as handle:
        staff = gettext.GNUTranslations(handle)
    wrong = []
    with translation.override("zh-hans"):
        for key, value in staff._catalog.items():
            if not key or (isinstance(key, tuple) and not key[0]):
                continue
            if isinstance(key, tuple):  # plural: (msgid, n)
                msgid, n = key
                if n:
                    continue
                ctx, _sep, msgid = msgid.rpartition("\x04")
                plural = staff._catalog.get((key[0], 1), value)  # noqa: F841
                got = (translation.npgettext(ctx, msgid, msgid, 1) if ctx
                       else translation.ngettext(msgid, msgid, 1))
            else:
                ctx, _sep, msgid = key.rpartition("\x04")
                got = translation.pgettext(ctx, msgid) if ctx else translation.gettext(msgid)
            if got != value:
                wrong.append((ctx, msgid, value, got))
    assert not wrong, wrong


def test_the_list_in_chinese_says_filter_next_page_and_created_time(client, sales,
                                                                     monkeypatch):
    from selector.staff.views import lead_list as views

    monkeypatch.setattr(views, "PAGE_SIZE", 2)
    for _ in range(3):
        make_lead()
    page = login(client, sales).get("/staff/leads/").content.decode()
    for word in ("筛选", "下一页", "创建时间"):
        assert word in page, word
    for wrong in ("过滤器", ">下一步<", "已创建"):
        assert wrong not in page, wrong
