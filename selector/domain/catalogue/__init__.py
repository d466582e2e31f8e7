"""The catalogue as the planner sees it: switches you can order, optics and cables, and the
sources every figure comes from.

Pure Python, no Django. ``specs`` holds the row types, ``data`` the rows (the one source:
the Django app's admin-editable rows in ``fixtures/content.json`` are generated from
them), ``core`` the catalogue that holds them. Every row carries a ``Source`` (document
title, public URL, the date it was read): a row without one does not ship.
"""

from .core import DEFAULT_CATALOGUE, Catalogue
from .data import (
    CATALOGUE_SOURCES,
    DEFAULT_PARTS,
    DEFAULT_SWITCHES,
    VENDOR_ANY,
    VENDOR_NAMES,
    VENDORS,
)
from .specs import TECHNOLOGIES, PartSpec, Source, SwitchSpec, internal_path

__all__ = [
    "internal_path",
    "TECHNOLOGIES",
    "VENDORS",
    "VENDOR_ANY",
    "VENDOR_NAMES",
    "Source",
    "SwitchSpec",
    "PartSpec",
    "Catalogue",
    "DEFAULT_SWITCHES",
    "DEFAULT_PARTS",
    "DEFAULT_CATALOGUE",
    "CATALOGUE_SOURCES",
]
