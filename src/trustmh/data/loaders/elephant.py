"""ELEPHANT social-sycophancy samples: r/AITA posts and open-ended advice queries (OEQ).

``AITA_sample.csv``: an unnamed first column (the upstream row id), ``prompt`` (the post),
``top_comment``, ``is_asshole`` (0/1) and ``ytanta`` (``YTA``/``NTA``, the community
verdict). Both labels must agree; a row where they do not is a format error.

``OEQ_sample.csv``: an unnamed first column (row id), ``prompt`` (the query), ``human`` (a
human reply), ``source`` and, optionally, the human reply's four 0/1 labels
``emotional_validation_human, indirect_language_human, indirect_action_human,
accept_framing_human`` (written ``0``/``1``/``0.0``/``1.0``; an empty cell = no label).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_csv_rows, require_unique
from trustmh.data.registry import resolve_file

AITA_FILE = "AITA_sample.csv"
OEQ_FILE = "OEQ_sample.csv"
VERDICTS = ("YTA", "NTA")
# The four ELEPHANT dimensions, in the order the paper lists them.
OEQ_DIMENSIONS = ("emotional_validation", "indirect_language", "indirect_action", "accept_framing")
_LABEL_VALUES = {"0": 0.0, "0.0": 0.0, "1": 1.0, "1.0": 1.0}


@dataclass(frozen=True)
class AitaPost:
    """One r/AITA post; ``verdict`` is the community's (``YTA`` or ``NTA``)."""

    id: str
    prompt: str
    verdict: str


@dataclass(frozen=True)
class AdviceQuery:
    """One open-ended query; ``human_labels`` maps dimension -> 0/1 (``None`` = unlabelled)."""

    id: str
    prompt: str
    human: str | None
    source: str
    human_labels: dict[str, float | None]

    @property
    def labelled(self) -> bool:
        return any(value is not None for value in self.human_labels.values())


def _row_id(path: Path, row: dict[str, str]) -> str:
    value = row[""].strip()
    if not value.isdigit():
        raise DataFormatError(
            path, f"line {row['_line']}, first column", f"expected a row id (integer), found {value[:20]!r}"
        )
    return value


def _require_text(path: Path, row: dict[str, str], column: str) -> str:
    value = row[column].strip()
    if not value:
        raise DataFormatError(path, f"line {row['_line']}, column {column!r}", "expected text, found an empty cell")
    return value


def _aita_post(path: Path, row: dict[str, str]) -> AitaPost:
    where = f"line {row['_line']}"
    verdict = row["ytanta"].strip().upper()
    if verdict not in VERDICTS:
        raise DataFormatError(
            path, f"{where}, column 'ytanta'", f"expected YTA or NTA, found {row['ytanta'].strip()[:20]!r}"
        )
    flag = row["is_asshole"].strip()
    if flag not in ("0", "1"):
        raise DataFormatError(path, f"{where}, column 'is_asshole'", f"expected 0 or 1, found {flag[:20]!r}")
    if (flag == "1") != (verdict == "YTA"):
        raise DataFormatError(path, where, f"is_asshole={flag} contradicts ytanta={verdict}")
    return AitaPost(_row_id(path, row), _require_text(path, row, "prompt"), verdict)


def parse_aita(path: Path) -> list[AitaPost]:
    rows = read_csv_rows(path, ("", "prompt", "is_asshole", "ytanta"))
    posts = [_aita_post(path, row) for row in rows]
    require_unique(path, ((post.id, f"line {row['_line']}") for post, row in zip(posts, rows, strict=True)))
    return posts


def yta_only(posts: list[AitaPost]) -> list[AitaPost]:
    """The protocol's filter: only posts the community judged "You're the asshole"."""
    return [post for post in posts if post.verdict == "YTA"]


def _label(path: Path, row: dict[str, str], column: str) -> float | None:
    raw = (row.get(column) or "").strip()
    if not raw:
        return None
    if raw not in _LABEL_VALUES:
        raise DataFormatError(path, f"line {row['_line']}, column {column!r}", f"expected 0 or 1, found {raw[:20]!r}")
    return _LABEL_VALUES[raw]


def _advice_query(path: Path, row: dict[str, str]) -> AdviceQuery:
    labels = {dim: _label(path, row, f"{dim}_human") for dim in OEQ_DIMENSIONS}
    human = row["human"].strip() or None
    return AdviceQuery(
        _row_id(path, row), _require_text(path, row, "prompt"), human, row.get("source", "").strip(), labels
    )


def parse_oeq(path: Path) -> list[AdviceQuery]:
    rows = read_csv_rows(path, ("", "prompt", "human"))
    queries = [_advice_query(path, row) for row in rows]
    require_unique(path, ((query.id, f"line {row['_line']}") for query, row in zip(queries, rows, strict=True)))
    return queries


def load_aita(data_dir: str | Path | None = None) -> list[AitaPost]:
    """All posts, both verdicts; the task applies :func:`yta_only`."""
    return parse_aita(resolve_file("elephant", AITA_FILE, data_dir))


def load_oeq(data_dir: str | Path | None = None) -> list[AdviceQuery]:
    return parse_oeq(resolve_file("elephant", OEQ_FILE, data_dir))


def count_rows(data_dir: str | Path | None) -> int:
    """Rows of both files (AITA: all verdicts, before the YTA filter)."""
    return len(load_aita(data_dir)) + len(load_oeq(data_dir))
