"""Readable consoles: piped output is not wrapped at 80 columns, and no table splits a word."""

from __future__ import annotations

import io

from rich.table import Table

from trustmh.core.consoles import PIPED_WIDTH, ReadableConsole, table_fits

NAMES = ["claude-sonnet-4-5-20250929", "qwen3-235b-a22b-instruct-2507"]
HEADERS = ["model", "metric", "n", "published", "ours, upstream parser", "ours, corrected", "status", "why"]


def _table() -> Table:
    table = Table(title="TrustMH-Bench privacy: ConfAIde tier 1")
    for header in HEADERS:
        table.add_column(header, overflow="fold")
    table.add_row(NAMES[0], "pearson_r", "10", "0.4127", "0.4127", "0.7554", "explained", "[1]")
    table.add_row(NAMES[1], "pearson_r", "10", "0.3733", "0.3733", "", "not re-scorable", "")
    return table


def _printed(console: ReadableConsole) -> str:
    console.print(_table())
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def test_a_table_too_wide_for_a_terminal_is_printed_as_lines_with_every_word_whole() -> None:
    text = _printed(ReadableConsole(file=io.StringIO(), width=80, force_terminal=True, color_system=None))
    lines = [line.rstrip() for line in text.splitlines()]
    assert all(len(line) <= 80 for line in lines)
    assert lines[:2] == ["TrustMH-Bench privacy: ConfAIde tier 1", "model"]
    for name in NAMES:  # a name on a line of its own, its cells on the next in column order
        assert name in lines
    at = lines.index(NAMES[0])
    assert lines[at + 1] == "    pearson_r · 10 · 0.4127 · 0.4127 · 0.7554 · explained · [1]"
    # an empty cell in the middle keeps the order (—); none is written after the last value
    assert lines[lines.index(NAMES[1]) + 1] == "    pearson_r · 10 · 0.3733 · 0.3733 · — · not re-scorable"


def test_a_table_that_fits_stays_a_table_and_piped_output_gets_the_wide_width() -> None:
    wide = _printed(ReadableConsole(file=io.StringIO(), width=200, force_terminal=True, color_system=None))
    assert "┃ model" in wide and "ours, upstream parser" in wide
    piped = ReadableConsole(file=io.StringIO(), width=80)  # COLUMNS=80, not a terminal
    assert piped.width == PIPED_WIDTH and "┃ model" in _printed(piped)


def test_fits_counts_whole_cells_of_unwrapped_columns_and_words_of_others() -> None:
    console = ReadableConsole(file=io.StringIO(), width=200, force_terminal=True)
    table = Table(box=None, padding=0, show_header=False)
    table.add_column(no_wrap=True)
    table.add_column()
    table.add_row("a b c", "longest-word of these")
    # the first column needs "a b c" (5), the second its longest word (12): 17 columns in all
    assert table_fits(console, table, 17) and not table_fits(console, table, 16)
