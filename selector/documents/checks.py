"""Startup check: without HarfBuzz subsetting WeasyPrint falls back to fontTools, which
makes a Chinese PDF (Noto Sans CJK, ~65,000 glyphs) about a hundred times slower."""

from __future__ import annotations

from django.core import checks

_UNKNOWN = object()

HINT = ("Install the HarfBuzz subset library (Debian: apt-get install libharfbuzz-subset0, "
        "HarfBuzz >= 4.1; `make system-deps` does it) and restart.")


def harfbuzz_subset_status() -> bool | None:
    """True when WeasyPrint can subset fonts with HarfBuzz, False when it cannot, None when
    this WeasyPrint does not tell (then the check is skipped)."""
    try:
        from weasyprint.text import ffi
    except (ImportError, OSError):
        return False
    subset = getattr(ffi, "harfbuzz_subset", _UNKNOWN)
    harfbuzz = getattr(ffi, "harfbuzz", None)
    if subset is _UNKNOWN or harfbuzz is None:
        return None
    if subset is None:
        return False
    try:
        # WeasyPrint 70 (pdf/fonts.py) needs 4.1.0 for hb_set_add_sorted_array.
        return bool(harfbuzz.hb_version_atleast(4, 1, 0))
    except AttributeError:
        return None


@checks.register(checks.Tags.compatibility)
def check_harfbuzz_subset(app_configs=None, **kwargs):
    status = harfbuzz_subset_status()
    if status is False:
        return [checks.Error(
            "WeasyPrint cannot subset fonts with HarfBuzz: PDF reports would take seconds "
            "instead of a fraction of a second.",
            hint=HINT, id="documents.E001")]
    if status is None:
        return [checks.Info(
            "Could not detect whether WeasyPrint subsets fonts with HarfBuzz; check skipped.",
            id="documents.I001")]
    return []
