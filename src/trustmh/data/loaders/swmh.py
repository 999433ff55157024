"""SWMH (Ji et al., 2021): Reddit posts labelled with the subreddit they were posted to.

Access-controlled: request it from the authors, then ``trustmh data import DIR`` with a
folder holding ``swmh/``. Accepted format: the released CSV splits ``train.csv``,
``val.csv``, ``test.csv`` with a header row and (at least) the columns

* ``text``: the post (title and body);
* ``label``: one of ``self.depression``, ``self.Anxiety``, ``self.bipolar``,
  ``self.SuicideWatch``, ``self.offmychest``. Case and the ``self.`` / ``r/`` prefix are
  ignored (``depression``, ``r/SuicideWatch`` are read as the canonical labels).

Item ids are ``<split>-<0-based row>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError, UserError
from trustmh.data.readers import read_csv_rows
from trustmh.data.registry import resolve_file

DATASET = "swmh"
SPLITS = ("train", "val", "test")
LABELS: tuple[str, ...] = ("self.depression", "self.Anxiety", "self.bipolar", "self.SuicideWatch", "self.offmychest")
_BY_CORE = {label.split(".", 1)[1].lower(): label for label in LABELS}


@dataclass(frozen=True)
class SwmhPost:
    id: str
    text: str
    label: str  # canonical, one of LABELS


def canonical_label(value: str) -> str | None:
    core = value.strip().lower()
    for prefix in ("self.", "r/", "/r/"):
        if core.startswith(prefix):
            core = core[len(prefix) :]
    return _BY_CORE.get(core)


def parse_swmh(path: Path, split: str = "test") -> list[SwmhPost]:
    posts: list[SwmhPost] = []
    for index, row in enumerate(read_csv_rows(path, required=("text", "label"))):
        where = f"line {row['_line']}"
        label = canonical_label(row["label"])
        if label is None:
            raise DataFormatError(
                path, f"{where}, column 'label'", f"expected one of {', '.join(LABELS)}, found {row['label'][:40]!r}"
            )
        text = row["text"].strip()
        if not text:
            raise DataFormatError(path, f"{where}, column 'text'", "expected the post's text")
        posts.append(SwmhPost(f"{split}-{index}", text, label))
    return posts


def load_swmh(data_dir: str | Path | None = None, split: str = "test") -> list[SwmhPost]:
    if split not in SPLITS:
        raise UserError(f"SWMH split must be one of {', '.join(SPLITS)}, not {split!r}")
    return parse_swmh(resolve_file(DATASET, f"{split}.csv", data_dir), split)


def count_rows(data_dir: str | Path | None) -> int:
    """Rows of the test split (the one the task evaluates)."""
    return len(load_swmh(data_dir, "test"))
