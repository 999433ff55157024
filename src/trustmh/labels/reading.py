"""What every labelling tool's export is checked against when it is read back.

A label is kept only when it belongs to the set (:mod:`trustmh.labels.labelset`): its task
carries the set's id and rubric fingerprints, its item is one of the set's, its field one of
the set's fields and its value on that field's scale (an integer from low to high, or one of
the rubric's choices). Anything else is one line naming the file, the task and what was
expected (exit 2): a label for an unknown item, a scale mismatch, labels made with another
rubric. A skipped / cancelled / discarded item is counted per rater, never scored; a field a
rater left empty is counted as unanswered.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_json
from trustmh.judgecheck.ratings import Rating, Value
from trustmh.labels.labelset import LabelSet, SetItem

DATA_ITEM, DATA_SET, DATA_RUBRICS = "trustmh_item", "trustmh_set", "trustmh_rubrics"


@dataclass
class Imported:
    """The ratings read from one or more exports, and what was not scored."""

    ratings: list[Rating] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)  # rater -> items skipped / cancelled / discarded
    unanswered: Counter[str] = field(default_factory=Counter)  # rater -> fields left empty
    sources: list[str] = field(default_factory=list)

    def extend(self, other: Imported) -> None:
        self.ratings += other.ratings
        self.skipped.update(other.skipped)
        self.unanswered.update(other.unanswered)
        self.sources += other.sources


@dataclass
class Checker:
    """Checks one export file's labels against the set (module docstring)."""

    labelset: LabelSet
    path: Path

    def task_item(self, data: object, where: str) -> SetItem:
        """The set's item a task is about, after checking the set id and rubric fingerprints it carries."""
        if not isinstance(data, dict):
            raise DataFormatError(self.path, where, "expected the task's data object with trustmh_item")
        found_set, rubrics = data.get(DATA_SET), data.get(DATA_RUBRICS)
        if rubrics != self.labelset.rubric_fingerprint:
            raise DataFormatError(
                self.path,
                where,
                f"labels made with rubric fingerprint {rubrics!r}; the set {self.labelset.path} has "
                f"{self.labelset.rubric_fingerprint!r} (another rubric version: these labels do not validate this judge)",
            )
        if found_set != self.labelset.set_id:
            raise DataFormatError(
                self.path,
                where,
                f"labels of labelling set {found_set!r}; expected set {self.labelset.set_id} ({self.labelset.path})",
            )
        return self.item(data.get(DATA_ITEM), where)

    def item(self, item_id: object, where: str) -> SetItem:
        for item in self.labelset.items:
            if item.item == item_id:
                return item
        raise DataFormatError(
            self.path, where, f"a label for item {item_id!r}, which is not in the set {self.labelset.path}"
        )

    def value(self, field_name: str, raw: object, where: str) -> Value:
        """The label as judge-check reads it: a scale point as a number, a choice as its text."""
        spec = self.labelset.field(field_name)
        if spec is None:
            names = ", ".join(f.name for f in self.labelset.fields)
            raise DataFormatError(self.path, where, f"field {field_name!r} is not in the set (fields: {names})")
        text = str(raw).strip().lower() if isinstance(raw, (str, int, float)) and not isinstance(raw, bool) else None
        if spec.choices:
            if text in spec.choices:
                return text
        elif text is not None:
            try:
                number = float(text)
            except ValueError:
                number = float("nan")
            if number.is_integer() and spec.low <= number <= spec.high:
                return number
        raise DataFormatError(
            self.path, where, f"field {field_name!r} takes {' | '.join(spec.options)} in the set, found {raw!r}"
        )

    def rating(self, item: SetItem, field_name: str, rater: str, raw: object, where: str) -> Rating:
        value = self.value(field_name, raw, where)
        return Rating(item.sample_id, field_name, rater, value, f"{self.path}:{where}", None, item.weight)


def open_export(path: Path, labelset: LabelSet, expected: str) -> tuple[list[object], Checker, Imported]:
    """A tool's JSON export (a list), with the checker of its labels and an empty result to fill."""
    payload = read_json(path)
    if not isinstance(payload, list):
        raise DataFormatError(path, None, f"expected {expected}")
    return payload, Checker(labelset, path), Imported(sources=[str(path)])
