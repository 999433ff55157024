"""Consoles that stay readable when their output is piped or redirected, or the terminal is narrow."""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleDimensions, Group, RenderableType
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

# Piped or redirected output is read by tools and people at any width: rich's default of 80
# columns split task names mid-word and cut numbers, so it gets this many (a terminal keeps
# its own width).
PIPED_WIDTH = 200
SEPARATOR = " · "
INDENT = 4  # the continuation of a row printed as lines


class ReadableConsole(Console):
    """A console whose output, when it is not a terminal, is not wrapped at 80 columns (nor
    coloured: rich leaves colour to terminals), and whose tables never split a word: a table
    too wide for the console without splitting one (``reproduce`` on an 80-column terminal) is
    printed as one paragraph per row instead (:func:`table_as_lines`)."""

    @property
    def size(self) -> ConsoleDimensions:
        size = super().size
        if self.is_terminal or size.width >= PIPED_WIDTH:
            return size
        return ConsoleDimensions(PIPED_WIDTH, size.height)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]  # rich's own setter

    def print(self, *objects: Any, **kwargs: Any) -> None:
        readable = [
            table_as_lines(o) if isinstance(o, Table) and not table_fits(self, o, self.width) else o for o in objects
        ]
        super().print(*readable, **kwargs)


def _plain(console: Console, cell: RenderableType) -> Text | None:
    """A cell as text (a string cell is rich markup), or ``None`` for another renderable."""
    if isinstance(cell, Text):
        return cell
    if isinstance(cell, str):
        return console.render_str(cell)
    return None


def table_fits(console: Console, table: Table, width: int) -> bool:
    """Whether rich lays ``table`` out in ``width`` columns with every cell whole: each column
    at least as wide as its longest cell (``no_wrap``: narrower, rich cuts it with ``…``) or,
    when it wraps, its longest word. A table holding other renderables than text is left to rich."""
    options = console.options.update_width(width - table._extra_width)  # as rich's own layout
    widths = table._calculate_column_widths(console, options)
    for index, (column, room) in enumerate(zip(table.columns, widths, strict=True)):
        cells = [column.header, *column.cells] if table.show_header else list(column.cells)
        if any(_plain(console, cell) is None for cell in cells):
            return True
        sizes = [Measurement.get(console, options, cell) for cell in cells]
        needed = max((size.maximum if column.no_wrap else size.minimum) for size in sizes) if sizes else 0
        if needed > room - table._get_padding_width(index):
            return False
    return True


def table_as_lines(table: Table) -> Group:
    """A table as lines wrapped at spaces only: the column names (when shown), then per row its
    first cell on a line of its own and the others, indented, in column order joined by `` · ``
    (an empty cell as ``—``, none after the last cell with a value)."""
    console = Console(width=PIPED_WIDTH)  # only turns markup into text
    headers = [" ".join(str(column.header).split()) for column in table.columns]
    columns = [[_plain(console, cell) or Text("") for cell in column.cells] for column in table.columns]
    lines: list[RenderableType] = [_plain(console, table.title) or Text("")] if table.title else []
    names = [[Text(header) for header in headers]] if table.show_header else []
    for first, *rest in [*names, *zip(*columns, strict=True)]:
        while rest and not rest[-1].plain.strip():
            rest.pop()
        lines.append(first)
        if rest:
            cells = [cell if cell.plain.strip() else Text("—") for cell in rest]
            lines.append(Padding(Text(SEPARATOR).join(cells), (0, 0, 0, INDENT), expand=False))
    if table.caption:
        lines.append(_plain(console, table.caption) or Text(""))
    return Group(*lines)
