"""Small HTML helpers for the public-page tests: a JSON-LD extractor built on html.parser
(it splits <script> the way browsers do, so a broken escape shows up as invalid JSON) and
readers for the visible FAQ and <head> links."""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ld_blocks: list[str] = []
        self.links: list[dict] = []
        self.metas: list[dict] = []
        self.scripts: list[dict] = []
        self._in_ld = False
        self._buf: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            self.scripts.append(a)
            if a.get("type") == "application/ld+json":
                self._in_ld, self._buf = True, []
        elif tag == "link":
            self.links.append(a)
        elif tag == "meta":
            self.metas.append(a)

    def handle_data(self, data):
        if self._in_ld:
            self._buf.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._in_ld:
            self.ld_blocks.append("".join(self._buf))
            self._in_ld = False


def parse(html: str) -> _Collector:
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return collector


def json_ld_nodes(html: str) -> list[dict]:
    """Every JSON-LD node on the page, with @graph containers flattened."""
    nodes = []
    for block in parse(html).ld_blocks:
        data = json.loads(block)  # raises if anything broke out of the string
        items = data if isinstance(data, list) else [data]
        for item in items:
            assert item.get("@context") == "https://schema.org"
            nodes.extend(item.get("@graph", [item]))
    return nodes


def nodes_of_type(html: str, type_: str) -> list[dict]:
    return [n for n in json_ld_nodes(html) if n.get("@type") == type_]


def _text(fragment: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def visible_faq(html: str) -> list[tuple[str, str]]:
    """(question, answer) pairs as the reader sees them in the FAQ <details> list."""
    items = re.findall(
        r'<details class="faq-item"[^>]*>\s*<summary><h3 class="faq-q">(.*?)</h3></summary>\s*'
        r'<p class="faq-a">(.*?)</p>\s*</details>', html, flags=re.S)
    return [(_text(q), _text(a.replace("<br>", "\n"))) for q, a in items]


def meta(html: str, key: str) -> list[str]:
    """Contents of <meta property=key> / <meta name=key>."""
    return [m.get("content", "") for m in parse(html).metas
            if m.get("property") == key or m.get("name") == key]


def links(html: str, rel: str) -> list[dict]:
    return [link for link in parse(html).links if link.get("rel") == rel]
