"""Consoles that stay readable when their output is piped or redirected."""

from __future__ import annotations

from rich.console import Console, ConsoleDimensions

# Piped or redirected output is read by tools and people at any width: rich's default of 80
# columns split task names mid-word and cut numbers, so it gets this many (a terminal keeps
# its own width).
PIPED_WIDTH = 200


class ReadableConsole(Console):
    """A console whose output, when it is not a terminal, is not wrapped at 80 columns (nor
    coloured: rich leaves colour to terminals)."""

    @property
    def size(self) -> ConsoleDimensions:
        size = super().size
        if self.is_terminal or size.width >= PIPED_WIDTH:
            return size
        return ConsoleDimensions(PIPED_WIDTH, size.height)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]  # rich's own setter
