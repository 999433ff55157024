"""The plotly.js the page inlines: the smallest bundle that draws every trace on it.

The full plotly.js is 4.7 MB; plotly's own *basic* partial bundle (scatter, bar, pie; npm
``plotly.js-basic-dist-min``, MIT, shipped in ``vendor/``) is 1.1 MB. Matrices are HTML tables
and the radar is drawn with scatter traces, so a report without the alignment heatmaps needs
only the basic bundle. It is inlined gzip-compressed (base64, 0.5 MB) and unpacked by the
browser's own ``DecompressionStream`` (Chrome 80, Firefox 113, Safari 16.4 and later); the
page stays self-contained and offline either way.
"""

from __future__ import annotations

import base64
import gzip
import re
from collections.abc import Iterable, Mapping
from importlib.resources import files
from typing import Any

from plotly.offline import get_plotlyjs

BASIC_TRACES = frozenset({"scatter", "bar", "pie"})
BASIC_FILE = "plotly-basic.min.js"
_VERSION = re.compile(r"plotly\.js(?: \([^)]*\))? v(\d+)\.")


def trace_types(figures: Mapping[str, Mapping[str, Any]]) -> set[str]:
    """Trace types of serialised figures (plotly's default type is scatter)."""
    return {trace.get("type", "scatter") for fig in figures.values() for trace in fig.get("data", [])}


def basic_bundle() -> str:
    return (files("trustmh.report") / "vendor" / BASIC_FILE).read_text(encoding="utf-8")


def major_version(script: str) -> str | None:
    found = _VERSION.search(script[:2000])
    return found[1] if found else None


def plotly_js(types: Iterable[str]) -> str:
    """The basic bundle when it draws every trace type and is the same major version as the
    installed plotly.py's (whose figure JSON it reads); else the full bundle plotly.py ships."""
    full = get_plotlyjs()
    if set(types) <= BASIC_TRACES:
        basic = basic_bundle()
        if major_version(basic) == major_version(full):
            return basic
    return full


def packed(script: str) -> str:
    """``script`` gzip-compressed (mtime 0, so the same input gives the same page) in base64."""
    return base64.b64encode(gzip.compress(script.encode("utf-8"), compresslevel=9, mtime=0)).decode("ascii")
