"""``{% memocache %}``: Django's ``{% cache %}`` with a small per-process memo in front.

Same arguments and the same shared cache behind it (``{% memocache 86400 name var1 var2
%}...{% endmemocache %}``), for fragments whose key names everything they show (answers,
versions, content stamp, language): then a copy kept by the process is as current as the
shared cache's, and a request that finds it asks no cache server at all. The memo keeps
the last MEMO_MAX fragments (oldest out first) and is emptied when a setting changes (the
tests' override_settings: URLs and settings are not in the keys).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django import template
from django.core.cache.utils import make_template_fragment_key
from django.core.signals import setting_changed
from django.template import Context
from django.templatetags.cache import CacheNode

register = template.Library()

MEMO_MAX = 128  # about 60 KB each: at most ~8 MB a process
_MEMO: OrderedDict[str, str] = OrderedDict()
_LOCK = threading.Lock()


class MemoCacheNode(CacheNode):
    def render(self, context: Context) -> str:
        key = make_template_fragment_key(
            self.fragment_name, [var.resolve(context) for var in self.vary_on])
        with _LOCK:
            html = _MEMO.get(key)
            if html is not None:
                _MEMO.move_to_end(key)
                return html
        html = super().render(context)
        with _LOCK:
            _MEMO[key] = html
            while len(_MEMO) > MEMO_MAX:
                _MEMO.popitem(last=False)
        return html


@register.tag("memocache")
def do_memocache(parser: template.base.Parser, token: template.base.Token) -> MemoCacheNode:
    nodelist = parser.parse(("endmemocache",))
    parser.delete_first_token()
    tokens = token.split_contents()
    if len(tokens) < 3:
        raise template.TemplateSyntaxError(f"{tokens[0]!r} tag requires at least 2 arguments.")
    return MemoCacheNode(nodelist, parser.compile_filter(tokens[1]), tokens[2],
                         [parser.compile_filter(t) for t in tokens[3:]], None)


def forget(**kwargs: object) -> None:
    with _LOCK:
        _MEMO.clear()


setting_changed.connect(forget, dispatch_uid="memocache-forget")
