"""docs/reproducibility.md carries the reproduce tables exactly as the command prints them."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import REPO_ROOT
from trustmh.reproduce.table import doc_blocks, fill_doc, reproduce_rows

DOC = REPO_ROOT / "docs" / "reproducibility.md"


def test_doc_tables_are_the_commands_output(shared_data: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = doc_blocks(reproduce_rows(shared_data))
    assert blocks and all(f"<!-- reproduce:{key} -->" in text for key in blocks)
    assert fill_doc(text, blocks) == text, (
        'docs/reproducibility.md is stale; regenerate with python -c "from trustmh.reproduce.table import update_doc; '
        "update_doc('docs/reproducibility.md', '../shared/data')\""
    )
