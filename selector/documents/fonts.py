"""Report fonts: Noto Sans CJK SC cut down to the characters a report uses.

WeasyPrint subsets every font it embeds. For Noto Sans CJK SC (a 65,535-glyph CFF font
in a collection) HarfBuzz needs ~75 ms per face and report, mostly because WeasyPrint
keeps glyph ids and so every glyph up to the highest one used. A copy of the font with
only GB 2312 hanzi, Latin and punctuation (~7,600 glyphs, renumbered) subsets in
~20 ms, so a report with a regular and a bold face saves ~100 ms.

The copies are built once from the system font (fonts-noto-cjk) with HarfBuzz (about a
second) into ``FONT_DIR`` (git-ignored), by ``manage.py report_fonts`` or lazily on the
first render. The print stylesheet names them "Noto Sans CJK SC Report" with "Noto Sans CJK SC" as
fallback, so a character outside GB 2312 (a rare hanzi in a customer's name) is still
printed from the full font. Without the copies the report uses the system font only.
"""

from __future__ import annotations

import ctypes
import logging
import os
import tempfile
from functools import lru_cache
from pathlib import Path

logger = logging.getLogger(__name__)

FAMILY = "Noto Sans CJK SC Report"
FALLBACK = "Noto Sans CJK SC"
FONT_STACK = f'"{FAMILY}", "{FALLBACK}", "Noto Sans SC", "Noto Sans", sans-serif'
SYSTEM_DIR = Path("/usr/share/fonts/opentype/noto")
COLLECTION_INDEX_SC = 2  # NotoSansCJK-*.ttc: JP, KR, SC, TC, HK, ...
FACES = {
    # weight: (source collection, output file)
    400: ("NotoSansCJK-Regular.ttc", "ReportSans-Regular.otf"),
    700: ("NotoSansCJK-Bold.ttc", "ReportSans-Bold.otf"),
}
# Bump when CHARSET changes so old copies are rebuilt.
FONT_BUILD = "1"

# HarfBuzz's subsetter (libharfbuzz-subset0), the library WeasyPrint itself subsets with.
HARFBUZZ_SUBSET_LIBRARIES = ("libharfbuzz-subset.so.0", "libharfbuzz-subset.0.dylib",
                             "libharfbuzz-subset-0.dll")
# WeasyPrint 70 subsets with HarfBuzz from 4.1.0 on (hb_set_add_sorted_array), else with
# fontTools, about a hundred times slower on Noto Sans CJK.
HARFBUZZ_MINIMUM = (4, 1, 0)

RANGES = (
    (0x20, 0x7E), (0xA0, 0x17F),  # ASCII, Latin-1, Latin Extended-A
    (0x2000, 0x206F),  # general punctuation (– — ‘ ’ “ ” • …)
    (0x2070, 0x209F), (0x20AC, 0x20AC),  # super/subscripts, euro
    (0x2100, 0x215F), (0x2190, 0x21FF), (0x2200, 0x22FF),  # letterlike, arrows, maths
    (0x2460, 0x24FF), (0x2500, 0x25FF), (0x2713, 0x2714),  # circled digits, boxes, ticks
    (0x3000, 0x303F), (0xFF00, 0xFFEF),  # CJK punctuation, full-width forms
)


def font_dir() -> Path:
    """The cut-down fonts shipped with the app (REPORT_FONT_DIR was never set anywhere)."""
    return Path(__file__).resolve().parent / "fonts"


def charset() -> list[int]:
    """The code points kept: GB 2312 hanzi (6,763, what Chinese business text uses) plus
    Latin and punctuation."""
    points: set[int] = set()
    for first, last in RANGES:
        points.update(range(first, last + 1))
    for cp in range(0x4E00, 0x9FA6):
        try:
            chr(cp).encode("gb2312")
        except UnicodeEncodeError:
            continue
        points.add(cp)
    return sorted(points)


@lru_cache(maxsize=1)
def _harfbuzz_subset() -> ctypes.CDLL | None:
    """HarfBuzz's subset library through its public C API (ctypes), or None."""
    for name in HARFBUZZ_SUBSET_LIBRARIES:
        try:
            hb = ctypes.CDLL(name)
        except OSError:
            continue
        pointer = ctypes.c_void_p
        for function, restype, argtypes in (
                ("hb_version_atleast", ctypes.c_int, [ctypes.c_uint] * 3),
                ("hb_blob_create_from_file_or_fail", pointer, [ctypes.c_char_p]),
                ("hb_blob_destroy", None, [pointer]),
                ("hb_blob_get_data", pointer, [pointer, ctypes.POINTER(ctypes.c_uint)]),
                ("hb_face_create", pointer, [pointer, ctypes.c_uint]),
                ("hb_face_reference_blob", pointer, [pointer]),
                ("hb_face_destroy", None, [pointer]),
                ("hb_set_add", None, [pointer, ctypes.c_uint32]),
                ("hb_subset_input_create_or_fail", pointer, []),
                ("hb_subset_input_unicode_set", pointer, [pointer]),
                ("hb_subset_input_destroy", None, [pointer]),
                ("hb_subset_or_fail", pointer, [pointer, pointer])):
            getattr(hb, function).restype = restype
            getattr(hb, function).argtypes = argtypes
        return hb
    return None


def harfbuzz_subset_available() -> bool:
    """True when HarfBuzz's subsetter is installed in a version WeasyPrint subsets with
    (without it, a Chinese PDF takes seconds instead of a fraction of a second)."""
    hb = _harfbuzz_subset()
    return hb is not None and bool(hb.hb_version_atleast(*HARFBUZZ_MINIMUM))


def _subset(source: Path, index: int, points: list[int]) -> bytes:
    hb = _harfbuzz_subset()
    if hb is None:
        raise OSError("HarfBuzz's subset library is not installed")
    blob = hb.hb_blob_create_from_file_or_fail(str(source).encode())
    if not blob:
        raise OSError(f"cannot read {source}")
    face = hb.hb_face_create(blob, index)
    subset_input = hb.hb_subset_input_create_or_fail()
    try:
        unicodes = hb.hb_subset_input_unicode_set(subset_input)
        for cp in points:
            hb.hb_set_add(unicodes, cp)
        out = hb.hb_subset_or_fail(face, subset_input)
        if not out:
            raise OSError(f"HarfBuzz could not subset {source}")
        out_blob = hb.hb_face_reference_blob(out)
        length = ctypes.c_uint()
        data = hb.hb_blob_get_data(out_blob, ctypes.byref(length))
        content = ctypes.string_at(data, length.value)
        hb.hb_blob_destroy(out_blob)
        hb.hb_face_destroy(out)
        return content
    finally:
        hb.hb_subset_input_destroy(subset_input)
        hb.hb_face_destroy(face)
        hb.hb_blob_destroy(blob)


def font_paths() -> dict[int, Path]:
    return {weight: font_dir() / f"{FONT_BUILD}-{name}" for weight, (_src, name) in
            FACES.items()}


def build_fonts(*, force: bool = False) -> dict[int, Path]:
    """Write the cut-down faces (atomically); returns the paths written or present."""
    directory = font_dir()
    directory.mkdir(parents=True, exist_ok=True)
    points = None
    paths = {}
    for weight, path in font_paths().items():
        if path.is_file() and not force:
            paths[weight] = path
            continue
        source = SYSTEM_DIR / FACES[weight][0]
        points = points or charset()
        content = _subset(source, COLLECTION_INDEX_SC, points)
        fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
        os.replace(tmp, path)
        paths[weight] = path
    return paths


@lru_cache(maxsize=1)
def available_fonts() -> dict[int, Path]:
    """The cut-down faces, built on first use; empty (system font only) when they cannot
    be built, e.g. without fonts-noto-cjk or on a read-only file system."""
    try:
        return build_fonts()
    except (OSError, AttributeError) as exc:
        logger.warning("report fonts unavailable, using the system font: %s",
                       type(exc).__name__)
        return {}


def font_face_css() -> str:
    rules = []
    for weight, path in available_fonts().items():
        rules.append(f'@font-face {{ font-family: "{FAMILY}"; font-weight: {weight}; '
                     f'src: url("{path.as_uri()}"); }}')
    return "\n".join(rules)
