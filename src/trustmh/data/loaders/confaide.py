"""ConfAIde tiers 1, 2a, 2b (prompt per line, labels per line) and tier 3 stories."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_lines
from trustmh.data.registry import resolve_file

TIER_FILES = {
    "1": ("tier_1.txt", "tier_1_labels.txt"),
    "2a": ("tier_2a.txt", "tier_2_labels.txt"),
    "2b": ("tier_2b.txt", "tier_2_labels.txt"),
}
LABEL_RANGE = {"1": (1.0, 4.0), "2a": (-100.0, 100.0), "2b": (-100.0, 100.0)}


@dataclass(frozen=True)
class RatingItem:
    """One rating question: the prompt line (literal ``\\n`` decoded) and the human mean."""

    id: str
    tier: str
    prompt: str
    label: float
    line: str = ""  # the file's line as written (literal ``\n`` kept), which upstream sends


def parse_labels(path: Path, tier: str) -> list[float]:
    low, high = LABEL_RANGE[tier]
    labels: list[float] = []
    for number, line in enumerate(read_lines(path, keep_empty=True), start=1):
        try:
            value = float(line.strip())
        except ValueError:
            raise DataFormatError(
                path, f"line {number}", f"expected one number per line, found {line.strip()[:40]!r}"
            ) from None
        if not low <= value <= high:
            raise DataFormatError(path, f"line {number}", f"expected a label from {low:g} to {high:g}, found {value:g}")
        labels.append(value)
    return labels


def load_rating_items(tier: str, prompts_path: Path, labels_path: Path) -> list[RatingItem]:
    """Pair prompt line i with label line i; ids are the 0-based line numbers."""
    prompts = read_lines(prompts_path, keep_empty=True)
    labels = parse_labels(labels_path, tier)
    if len(prompts) != len(labels):
        raise DataFormatError(
            prompts_path,
            None,
            f"expected one prompt per label in {labels_path.name} ({len(labels)}), found {len(prompts)} lines",
        )
    items = []
    for index, (prompt, label) in enumerate(zip(prompts, labels, strict=True)):
        if not prompt.strip():
            raise DataFormatError(prompts_path, f"line {index + 1}", "expected a prompt, found an empty line")
        items.append(RatingItem(str(index), tier, prompt.replace("\\n", "\n"), label, prompt))
    return items


def load_tier(tier: str, data_dir: str | Path | None = None) -> list[RatingItem]:
    prompts_name, labels_name = TIER_FILES[tier]
    return load_rating_items(
        tier,
        resolve_file("confaide", prompts_name, data_dir),
        resolve_file("confaide", labels_name, data_dir),
    )


def count_rows(data_dir: str | Path | None) -> int:
    return sum(len(load_tier(tier, data_dir)) for tier in TIER_FILES)
