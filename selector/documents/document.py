"""WeasyPrint's HTML document, made cheaper for the report template.

Two costs of ``weasyprint.HTML`` do nothing for a document we write ourselves:

* Parsing. WeasyPrint parses with tinyhtml5, an HTML5 parser in pure Python (about 15 ms
  for a report). The report template is well-formed XHTML (void elements closed, every
  value escaped by Django), so the standard library's expat parser builds the same tree
  in well under a millisecond. Anything that is not well-formed XML (a control
  character in a customer's text, raw markup in a test) falls back to tinyhtml5, so the
  output never depends on which parser ran.
* The user-agent stylesheet: ``report-ua.css`` instead of WeasyPrint's full one (see the
  comment at its top).

And one cost of pydyf, WeasyPrint's PDF writer: it compresses at zlib level 9 (see _Zlib).

And one of its serialisation: each object's bytes are kept once computed (serialise_once).

And one of its SVG renderer: a ``<text>`` is laid out and drawn as one run, not letter by
letter (_svg_text), when nothing in it is positioned per letter.

Why it stays (issue 16 asked whether it earns its place): measured on the sample report
(zh-hans, RoCE) with ``bench/run.py reports`` (DATABASE_URL=.../selector_d_bench
TEST_DATABASE_NAME=test_selector_d_bench DB_POOL=0 BENCH_LOAD=0), which renders it with this
module and with WeasyPrint as shipped, interleaved in the same run: 5,291 ms against
6,626 ms p50 wall clock on a machine at load average 15 (so 1,335 ms, 20 %, saved; by part
parse 144, user-agent CSS 365, zlib level 892, serialisation 199 ms); in the process's CPU
time, which the load does not inflate as much, 707 against 918 ms (211 ms, 23 %; a 12-round
run of the same interleaved comparison, now the bench's report_document_saves_cpu_p50).
Figures of 2026-12-01. The PDF budget is 450 ms p50 and the render measured ~421 ms p50
on an idle machine (issue 13): without this module it would be about 545 ms. Same pages
and text; the file is 0.8 % larger (zlib level 6).

Where the render stood later that day (issue 13): on an idle machine the bench's two
renders took 271 ms p50 for the report and 28.7 ms for the one-page Chinese document
(9.4x); by part, in CPU time, layout
122 ms, painting 48, font subsetting 17, pydyf's writing 22, boxes 14, cascade 10, the
template 8, tags 6. Layout and painting grow with the lines of text (~320 on six pages;
the one-page document has ~40), so the ratio follows the report's length. The SVG text
shortcut and 4-px QR modules (selector/core/qr.py) took the CPU-time ratio from 9.5x to
9.1x (main and this code in alternating processes, three pairs of 10 renders, load ~4).

All of these are WeasyPrint and pydyf internals (``HTML.__init__``'s attributes,
``_ua_stylesheets``, pydyf's module-level ``zlib``, the ``data`` properties, the SVG
renderer's ``TAGS`` table and its text function).
requirements.txt pins WeasyPrint, pydyf and cssselect2; tests/reports/test_document.py
fails on any other version and checks every hook point is still there, and renders every
sample report both ways requiring the same pages, text and outline. An upgrade: re-read
each hook against the new source, re-run those tests and the bench, then move the pins.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zlib
from functools import lru_cache
from importlib import import_module
from math import inf
from pathlib import Path

import cssselect2
import pydyf
import weasyprint.svg
from weasyprint import CSS, HTML
from weasyprint import _find_base_url as find_base_url
from weasyprint.draw.text import draw_emojis, draw_first_line
from weasyprint.matrix import Matrix
from weasyprint.svg.bounding_box import extend_bounding_box
from weasyprint.text.line_break import split_first_line

UA_CSS = Path(__file__).with_name("report-ua.css")
PDF_ZLIB_LEVEL = 6


@lru_cache(maxsize=1)
def ua_stylesheet() -> CSS:
    return CSS(string=UA_CSS.read_text(encoding="utf-8"))  # no URL fetch: our own file


def _xml_tree(string: str) -> ET.Element:
    """The tree of a document we rendered: Django escaped every value in it, so it holds
    no DOCTYPE internal subset and no entity declaration (the caller refuses one; such a
    document takes the HTML parser), and expat resolves no external entity."""
    return ET.fromstring(string)  # noqa: S314 - our template's output, see above


class ReportHTML(HTML):
    """``weasyprint.HTML(string=...)`` for the report template; see the module doc."""

    #: True when the fast XML parser built the tree, False when tinyhtml5 did.
    parsed_as_xml: bool

    def __init__(self, string: str, *, base_url: str, url_fetcher, media_type: str = "print"):
        try:
            if "<!ENTITY" in string:  # entity declarations: never ours (see _xml_tree)
                raise ET.ParseError("entity declaration")
            root = _xml_tree(string)
        except ET.ParseError:
            super().__init__(string=string, base_url=base_url, url_fetcher=url_fetcher,
                             media_type=media_type)
            self.parsed_as_xml = False
            return
        # What HTML.__init__ sets after parsing (WeasyPrint 70).
        self.parsed_as_xml = True
        self.base_url = find_base_url(root, base_url)
        self.url_fetcher = url_fetcher
        self.media_type = media_type
        self.wrapper_element = cssselect2.ElementWrapper.from_html_root(
            root, content_language=None)
        self.etree_element = self.wrapper_element.etree_element

    def _ua_stylesheets(self, forms: bool = False) -> list[CSS]:
        return [ua_stylesheet()]


class _Zlib:
    """pydyf compresses every PDF stream with zlib at level 9. For a report that is 21 ms
    of a ~300 ms render; zlib's default level 6 takes 9 ms for a file 0.5 % larger
    (measured on the sample report's 14 streams, 558 KB before compression). pydyf looks
    the module up as ``pydyf.zlib``, so this shim changes the level and nothing else."""

    compress = staticmethod(zlib.compress)
    decompress = staticmethod(zlib.decompress)

    @staticmethod
    def compressobj(level: int = zlib.Z_DEFAULT_COMPRESSION, *args, **kwargs):
        return zlib.compressobj(min(level, PDF_ZLIB_LEVEL), *args, **kwargs)


pydyf.zlib = _Zlib


class _Once:
    """A pydyf object whose serialised (for a stream, compressed) bytes are computed once."""

    @property
    def data(self) -> bytes:
        cached = self.__dict__.get("_data")
        if cached is None:
            # super(): the pydyf class this is mixed into (mypy sees only object).
            cached = self.__dict__["_data"] = super().data  # type: ignore[misc]
        return cached


class _OnceStream(_Once, pydyf.Stream):
    pass


class _OnceDictionary(_Once, pydyf.Dictionary):
    pass


def serialise_once(pdf: pydyf.PDF) -> None:
    """pydyf writes a PDF with a file identifier (PDF/A requires one) by serialising every
    object twice: once to write it, once more to hash all objects for the identifier
    (``PDF.write``: ``b''.join(obj.data for obj in self.objects)``), and a stream's
    ``data`` compresses it anew each time. On the sample report that second pass is
    ~35 ms of ~450. Called as the last step of WeasyPrint's ``finisher`` hook, when the
    objects are final: it makes each stream and dictionary keep its bytes after the first
    pass. The file is byte-for-byte the same (tests/reports/test_document.py)."""
    for obj in pdf.objects:
        cls = type(obj)
        if cls is pydyf.Stream:
            obj.__class__ = _OnceStream
        elif cls is pydyf.Dictionary:
            obj.__class__ = _OnceDictionary


# ---------------------------------------------------------------------------------------
# SVG text


# The module: weasyprint.svg's attribute ``text`` is the function it imports from it.
_svg_text_module = import_module("weasyprint.svg.text")
_letter_by_letter = _svg_text_module.text
_PER_LETTER = ("dx", "dy", "rotate", "textLength", "letter-spacing")


def _one_run(node) -> bool:
    """True when no attribute of ``node`` positions its letters one by one: at most one x
    and one y, none of dx, dy, rotate, textLength, letter-spacing, and one line of text."""
    if any(name in node.attrib for name in _PER_LETTER):
        return False
    if not node.text or "\n" in node.text:
        return False
    return all(len(node.attrib.get(name, "").split()) <= 1 for name in ("x", "y"))


def _svg_text(svg, node, font_size):
    """WeasyPrint's SVG ``<text>``, laid out and drawn as one run.

    WeasyPrint (svg/text.py ``text``) lays out and draws every letter on its own, so that
    it can honour per-letter positions (x/y lists, dx, dy, rotate, textLength,
    letter-spacing): one Pango layout and one text object per letter. The fabric diagram
    of the report has ten labels (~130 letters) and uses none of that, and its letters
    cost ~10 ms of the render. Here a label with no per-letter position is laid out once
    and drawn as one run, from the same start point, with the same style, bounding box
    (which text-anchor uses) and cursor; the glyphs sit as HarfBuzz shapes the run
    (kerning included) instead of side by side. Anything else goes letter by letter as
    WeasyPrint does. tests/reports/test_document.py compares both."""
    if not _one_run(node):
        return _letter_by_letter(svg, node, font_size)
    from weasyprint.css.properties import INITIAL_VALUES

    # The style as WeasyPrint builds it (svg/text.py ``text``).
    style = _svg_text_module.Style()
    style.update(INITIAL_VALUES)
    style.font_config = svg.font_config
    style["font_family"] = [
        font.strip("\"'") for font in node.get("font-family", "sans-serif").split(",")]
    style["font_style"] = node.get("font-style", "normal")
    style["font_weight"] = node.get("font-weight", 400)
    style["font_size"] = font_size
    if node.get("direction") in ("ltr", "rtl"):
        style["direction"] = node.get("direction")
    if style["font_weight"] == "normal":
        style["font_weight"] = 400
    elif style["font_weight"] == "bold":
        style["font_weight"] = 700
    else:
        try:
            style["font_weight"] = int(style["font_weight"])
        except ValueError:
            style["font_weight"] = 400

    layout, _, _, width, height, baseline = split_first_line(
        node.text, style, svg.context, inf, 0)

    # Vertical alignment, as WeasyPrint does it.
    ascent, descent = font_size * .8, font_size * .2
    y_align = 0
    display_anchor = node.get("display-anchor")
    alignment_baseline = node.get("dominant-baseline", node.get("alignment-baseline"))
    if display_anchor == "middle":
        y_align = -height / 2
    elif display_anchor == "top":
        pass
    elif display_anchor == "bottom":
        y_align = -height
    elif alignment_baseline in ("central", "middle"):
        y_align = (ascent + descent) / 2 - descent
    elif alignment_baseline in (
            "text-before-edge", "before_edge", "top", "hanging", "text-top"):
        y_align = ascent
    elif alignment_baseline in (
            "text-after-edge", "after_edge", "bottom", "text-bottom"):
        y_align = -descent

    # The first letter's position, then the cursor after the run.
    x = y = None
    if "x" in node.attrib:
        x = _svg_text_module.size(
            _svg_text_module.normalize(node.attrib["x"]).strip(), font_size,
            svg.inner_width)
        svg.cursor_d_position[0] = 0
    if "y" in node.attrib:
        y = _svg_text_module.size(
            _svg_text_module.normalize(node.attrib["y"]).strip(), font_size,
            svg.inner_height)
        svg.cursor_d_position[1] = 0
    x = svg.cursor_position[0] if x is None else x
    y = svg.cursor_position[1] if y is None else y
    svg.cursor_position = x + width, y
    x_position = x + svg.cursor_d_position[0]
    y_position = y + svg.cursor_d_position[1] + y_align
    node.text_bounding_box = extend_bounding_box(node.text_bounding_box, (
        (x_position, y_position - baseline),
        (x_position + width, y_position - baseline + height)))

    svg.stream.push_state()
    fill, stroke = svg.set_graphical_state(node, font_size)
    svg.stream.begin_text()
    layout.reactivate(style)
    svg.fill_stroke(fill, stroke, text=True)
    text_box = _svg_text_module.TextBox(layout, style)
    text_box.baseline = baseline
    emojis = draw_first_line(svg.stream, text_box, "none", "none",
                             Matrix(a=1, d=-1, e=x_position, f=y_position))
    svg.stream.end_text()
    svg.stream.pop_state()
    draw_emojis(svg.stream, style, x, y, emojis)


# svg/__init__.py finds the function in TAGS and compares TAGS entries with its own name.
for _tag in ("text", "tspan"):
    weasyprint.svg.TAGS[_tag] = _svg_text
weasyprint.svg.text = _svg_text
