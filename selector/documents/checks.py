"""Startup check: without HarfBuzz subsetting WeasyPrint falls back to fontTools, which
makes a Chinese PDF (Noto Sans CJK, ~65,000 glyphs) about a hundred times slower."""

from __future__ import annotations

from django.core import checks

from selector.documents.fonts import harfbuzz_subset_available

HINT = ("Install the HarfBuzz subset library (Debian: apt-get install libharfbuzz-subset0, "
        "HarfBuzz >= 4.1; `make system-deps` does it) and restart.")


@checks.register(checks.Tags.compatibility)
def check_harfbuzz_subset(app_configs=None, **kwargs):
    if not harfbuzz_subset_available():
        return [checks.Error(
            "WeasyPrint cannot subset fonts with HarfBuzz: PDF reports would take seconds "
            "instead of a fraction of a second.",
            hint=HINT, id="documents.E001")]
    return []
