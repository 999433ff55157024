"""Text cells a spreadsheet never executes, and that read back exactly.

Exported cells hold model replies and judged text, which are hostile: a reply starting with
``=`` (``=cmd|' /C calc'!A0``, ``=HYPERLINK(...)``) runs as a formula when the file is opened.

* **CSV** (OWASP "CSV injection"): a cell starting with ``= + - @``, their fullwidth forms
  ``＝ ＋ － ＠`` (spreadsheets with an East Asian input method take them as the ASCII ones), a tab
  or a carriage return gets a leading ``'``, which spreadsheets treat as "this is text". A cell
  that is a plain ASCII number (``-0.25``) is left alone: it cannot be a formula. So that our
  own readers get the exact text back, a cell that already starts with quotes before such a character gets
  one more quote, and :func:`restore_csv_cell` removes exactly one.
* **xlsx**: every text cell is written as a string (never a formula), and the characters XML
  cannot hold (control characters, and CR which XML turns into LF) are escaped the OOXML way
  (``_x000B_``; a literal ``_x000B_`` becomes ``_x005F_x000B_``), as Excel does;
  :func:`unescape_xlsx_text` undoes it on reading.
"""

from __future__ import annotations

import re

FORMULA_PREFIXES = "=+-@\t\r\uff1d\uff0b\uff0d\uff20"  # the last four: fullwidth = + - @
_NEEDS_QUOTE = re.compile(rf"^'*[{re.escape(FORMULA_PREFIXES)}]")
_QUOTED = re.compile(rf"^''*[{re.escape(FORMULA_PREFIXES)}]")
# ASCII digits only: "+１２" with fullwidth digits is no plain number, so it is quoted like "+x"
_NUMBER = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$", re.ASCII)
# XML 1.0 cannot carry these (openpyxl refuses them); CR is legal but normalised to LF by parsers.
_XLSX_UNSAFE = re.compile(r"[\x00-\x08\x0b\x0c\x0d\x0e-\x1f]")
_OOXML_ESCAPE = re.compile(r"_x([0-9A-Fa-f]{4})_")


def neutralise_csv_cell(value: object) -> object:
    """``value`` made inert for a spreadsheet (strings only; numbers and ``None`` pass through)."""
    if not isinstance(value, str) or _NUMBER.match(value) or not _NEEDS_QUOTE.match(value):
        return value
    return "'" + value


def restore_csv_cell(text: str) -> str:
    """The exact text :func:`neutralise_csv_cell` was given."""
    if _QUOTED.match(text) and not _NUMBER.match(text[1:]):
        return text[1:]
    return text


def escape_xlsx_text(text: str) -> str:
    """``text`` as an xlsx string cell holds it (OOXML ``_xHHHH_`` escapes)."""
    text = _OOXML_ESCAPE.sub(r"_x005F_x\1_", text)
    return _XLSX_UNSAFE.sub(lambda m: f"_x{ord(m.group()):04X}_", text)


def unescape_xlsx_text(text: str) -> str:
    """The text an xlsx string cell stands for (inverse of :func:`escape_xlsx_text`)."""
    return _OOXML_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
