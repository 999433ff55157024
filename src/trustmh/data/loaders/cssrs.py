"""C-SSRS-labelled Reddit users (Gaur et al. 2019): ``500_Reddit_users_posts_labels.csv``.

Columns ``User, Post, Label``: ``Post`` is a *stringified Python list* of the user's posts
and ``Label`` one of the five C-SSRS-derived levels, ordered by severity::

    Supportive < Indicator < Ideation < Behavior < Attempt

28 ``Post`` cells of the upstream file are cut at 32,759 characters (a spreadsheet cell
limit), so the list literal is unterminated. For those we keep every post that is complete
before the cut and drop the partial last one (``CssrsUser.truncated`` is set). Any other
cell that is not a list of strings is a format error.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_csv_rows, require_unique
from trustmh.data.registry import resolve_file

DATASET = "cssrs"
FILE = "500_Reddit_users_posts_labels.csv"
CSSRS_LEVELS: tuple[str, ...] = ("Supportive", "Indicator", "Ideation", "Behavior", "Attempt")
# Cells this long were cut by the spreadsheet the file went through (32,767 minus quoting).
CELL_LIMIT = 32_759


@dataclass(frozen=True)
class CssrsUser:
    """One user's posts (oldest first, as upstream) and their severity level."""

    id: str
    posts: tuple[str, ...]
    label: str
    truncated: bool = False

    @property
    def level(self) -> int:
        """0 (Supportive) .. 4 (Attempt)."""
        return CSSRS_LEVELS.index(self.label)


def _as_posts(value: object) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(p, str) for p in value):
        return tuple(value)
    return None


def _recover_truncated(cell: str) -> tuple[str, ...] | None:
    """The complete posts before the cut: close the list after the last complete literal."""
    end = len(cell)
    for _ in range(200):  # a few separators back is always enough on the real file
        end = max(cell.rfind("', ", 0, end), cell.rfind('", ', 0, end))
        if end <= 0:
            return None
        try:
            posts = _as_posts(ast.literal_eval(cell[: end + 1] + "]"))
        except (SyntaxError, ValueError):
            continue
        if posts:
            return posts
    return None


def parse_posts(path: Path, where: str, cell: str) -> tuple[tuple[str, ...], bool]:
    """``(posts, truncated)`` of one ``Post`` cell."""
    text = cell.strip()
    try:
        posts = _as_posts(ast.literal_eval(text))
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        posts = None
    if posts:
        return posts, False
    if len(cell) >= CELL_LIMIT and text.startswith("["):
        recovered = _recover_truncated(text)
        if recovered:
            return recovered, True
    raise DataFormatError(path, where, "expected a Python list of post strings, e.g. ['first post', 'second post']")


def parse_users(path: Path) -> list[CssrsUser]:
    rows = read_csv_rows(path, ("User", "Post", "Label"))
    users: list[CssrsUser] = []
    for row in rows:
        where = f"line {row['_line']}"
        label = row["Label"].strip()
        if label not in CSSRS_LEVELS:
            raise DataFormatError(
                path, f"{where}, column 'Label'", f"expected one of {', '.join(CSSRS_LEVELS)}, found {label!r}"
            )
        user = row["User"].strip()
        if not user:
            raise DataFormatError(path, f"{where}, column 'User'", "expected a user id, found an empty cell")
        posts, truncated = parse_posts(path, f"{where}, column 'Post'", row["Post"])
        users.append(CssrsUser(user, posts, label, truncated))
    require_unique(path, ((u.id, f"line {r['_line']}") for u, r in zip(users, rows, strict=True)))
    return users


def load_cssrs(data_dir: str | Path | None = None) -> list[CssrsUser]:
    return parse_users(resolve_file(DATASET, FILE, data_dir))


def count_rows(data_dir: str | Path | None) -> int:
    return len(load_cssrs(data_dir))
