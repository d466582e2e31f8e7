"""Landing page weight budget (issue 7): the first load of "/" -- the HTML and every
same-origin asset it references (stylesheets, scripts, images, icons, and url()s inside the
CSS) -- gzipped one by one as a server would send them. Budget: 80 KB, no other host.

Run alone with `.venv/bin/python bench/run.py public`."""

from __future__ import annotations

import gzip
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.http import StreamingHttpResponse
from django.test import Client, override_settings

BUDGET_BYTES = 80 * 1024
GZIP_LEVEL = 6  # nginx's and most servers' default; WhiteNoise's precompressed files are smaller


class _Assets(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in {"script", "img", "source", "iframe"} and a.get("src"):
            self.urls.append(a["src"])
        elif tag == "link" and a.get("href") and a.get("rel") in {
                "stylesheet", "icon", "preload", "modulepreload", "apple-touch-icon"}:
            self.urls.append(a["href"])


def _fetch(client: Client, url: str) -> bytes:
    response = client.get(url, secure=True)
    if response.status_code != 200:
        raise RuntimeError(f"{url}: HTTP {response.status_code}")
    if isinstance(response, StreamingHttpResponse):  # static files (FileResponse)
        return b"".join(response)
    return response.content


def first_load(path: str = "/") -> dict[str, int]:
    """{url: gzipped bytes} for the page and each same-origin asset it pulls in."""
    # WhiteNoise serves static files from the finders here, so no collectstatic is needed.
    with override_settings(WHITENOISE_USE_FINDERS=True, WHITENOISE_AUTOREFRESH=True):
        return _first_load(Client(), path)


def _first_load(client: Client, path: str) -> dict[str, int]:
    html = _fetch(client, path)
    sizes = {path: len(gzip.compress(html, GZIP_LEVEL))}
    parser = _Assets()
    parser.feed(html.decode())
    queue = list(parser.urls)
    while queue:
        url = queue.pop(0)
        parts = urlsplit(url)
        if parts.scheme or parts.netloc:
            raise RuntimeError(f"request to another host: {url}")
        if url in sizes or url.startswith("data:"):
            continue
        body = _fetch(client, url)
        sizes[url] = len(gzip.compress(body, GZIP_LEVEL))
        if parts.path.endswith(".css"):
            for ref in re.findall(rb"url\(\s*['\"]?([^'\")]+)", body):
                ref = ref.decode()
                if not ref.startswith("data:"):
                    queue.append(urljoin(url, ref))
    return sizes


def run():
    for path, name in (("/", "landing_first_load_gzip"), ("/en/", "landing_en_first_load_gzip")):
        sizes = first_load(path)
        total = sum(sizes.values())
        yield name, total, "bytes"
        if total > BUDGET_BYTES:
            yield f"{name}_over_budget", total - BUDGET_BYTES, "bytes"
    yield "landing_first_load_requests", len(first_load("/")), "requests"
