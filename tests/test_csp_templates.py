"""The CSP allows no inline styles or handlers: check every template and page for them,
and that no template loads anything from another host."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# E-mail bodies are no web pages (no CSP applies) and mail clients drop <style> blocks,
# so they keep inline styles; everything served to a browser is checked.
TEMPLATES = sorted(p for p in (ROOT / "templates").rglob("*.html") if "email" not in p.parts)

INLINE_STYLE_ATTR = re.compile(r"<[a-zA-Z][^>]*\sstyle\s*=", re.S)
INLINE_HANDLER = re.compile(r"<[a-zA-Z][^>]*\son[a-z]+\s*=", re.S)
SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.S)
STYLE_TAG = re.compile(r"<style\b([^>]*)>", re.S)
EXTERNAL = re.compile(
    r"""<(?:script|link|img|iframe|source)\b[^>]*(?:src|href)\s*=\s*["'](?:https?:)?//""",
    re.S | re.I,
)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_template_is_csp_clean(path):
    text = path.read_text(encoding="utf-8")
    assert not INLINE_STYLE_ATTR.search(text), "inline style attribute (CSP style-src 'self')"
    assert not INLINE_HANDLER.search(text), "inline event handler (CSP forbids them)"
    for attrs in SCRIPT_TAG.findall(text):
        # Scripts are files; JSON data blocks are never executed. No page has an inline
        # script, so the policy carries no per-response nonce (settings.SECURE_CSP).
        ok = "src=" in attrs or "application/ld+json" in attrs or "application/json" in attrs
        assert ok, f"inline <script{attrs}>: move it into a file under static/js/"
        assert "nonce" not in attrs, "no page needs a nonce: a file of ours is 'self'"
    for attrs in STYLE_TAG.findall(text):
        assert "csp_nonce" in attrs, "inline <style> needs a nonce"
    assert not EXTERNAL.search(text), "asset from another host"


def test_pages_send_a_strict_csp(client, content):
    for url in ("/", "/en/", "/faq/", "/wizard/", "/api/openapi.json"):
        response = client.get(url, follow=True)
        policy = response["Content-Security-Policy"]
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, url
        # Scripts are our files only, and no response carries a nonce: the page is the
        # same for every visitor (selector.content.httpcache).
        assert "script-src 'self';" in policy and "nonce" not in policy, url
        assert "nonce" not in response.content.decode(), url
