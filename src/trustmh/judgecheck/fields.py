"""One field's ratings as matrices: which kind of data it is, and the items x raters table.

Kinds: ``scale`` (numbers; ICC and interval alpha), ``nominal`` (labels; kappa and nominal
alpha) and ``binary`` (two codes 0/1: nominal statistics plus precision/recall and a rate
bias). Unless told (``--kind``, ``--binary``): any label makes a field nominal, numbers that
are all 0 or 1 binary, other numbers a scale. ``--binary FIELD=A,B`` codes a value 1 when it
is one of the labels A, B (e.g. ``refusal=refused,partial``), on both sides.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field

import numpy as np

from trustmh.core.errors import UserError
from trustmh.judgecheck.ratings import Rating, Value

KINDS = ("scale", "nominal", "binary")


def label_of(value: Value) -> str:
    """A value as a label: numbers in their shortest form (``1.0`` -> ``"1"``)."""
    return f"{value:g}" if isinstance(value, float) else value


@dataclass
class FieldTable:
    """``human`` ``(items, raters)`` and ``judge`` ``(items,)`` as codes or scale points; NaN = none.

    An item is a sample ``(sample_id, None)`` or one turn of a conversation ``(sample_id, turn)``.
    """

    field: str
    kind: str
    items: list[tuple[str, int | None]]
    raters: list[str]
    human: np.ndarray
    judge: np.ndarray
    judge_unparsed: int  # items humans rated whose judge verdict was unparsed
    not_judged: int  # items humans rated that the judge source does not have at all
    labels: tuple[str, ...] = ()  # code -> label (nominal/binary)
    # The judge's codes of the items no human rated (the unlabelled set of a PPI correction),
    # and how many of those verdicts were unparsed or outside the field's codes.
    unlabelled: np.ndarray = dataclass_field(default_factory=lambda: np.zeros(0))
    unlabelled_unparsed: int = 0
    # Each item's sampling weight (1 / inclusion probability, the ratings' ``weight`` column); NaN = none.
    weights: np.ndarray = dataclass_field(default_factory=lambda: np.zeros(0))


def sampling_weights(weights: np.ndarray, used: np.ndarray) -> np.ndarray | None:
    """The used items' sampling weights scaled to mean 1 (so sums keep the sample's size and only
    the items' shares change: the Hájek form), when every used item has one; ``None`` otherwise."""
    if len(weights) != len(used) or not used.any():
        return None
    chosen = weights[used]
    if not np.isfinite(chosen).all():
        return None
    return chosen * (len(chosen) / chosen.sum())


def field_kind(field: str, values: Sequence[Value], kinds: Mapping[str, str], binary: Mapping[str, set[str]]) -> str:
    if field in binary:
        return "binary"
    has_label = any(isinstance(v, str) for v in values)
    kind = kinds.get(field)
    if kind == "scale" and has_label:
        label = next(v for v in values if isinstance(v, str))
        raise UserError(f"field {field!r} is declared a scale but has the label {label!r}", argument="kind")
    if kind:
        return kind
    if has_label:
        return "nominal"
    return "binary" if all(v in (0.0, 1.0) for v in values) else "scale"


def _coder(kind: str, labels: tuple[str, ...], positive: set[str] | None) -> tuple[tuple[str, ...], dict[str, int]]:
    if kind == "binary" and positive is not None:
        return ("no", "yes"), {}
    return labels, {label: code for code, label in enumerate(labels)}


def build_table(
    field: str,
    human: list[Rating],
    judge: Mapping[tuple[str, int | None], Value | None],
    kinds: Mapping[str, str],
    binary: Mapping[str, set[str]],
) -> FieldTable:
    """The table of one field: items are the samples (or the turns) at least one human rated."""
    items = sorted({r.item for r in human}, key=lambda item: (item[0], item[1] or 0))
    raters = sorted({r.rater for r in human})
    judged = [v for s in items if (v := judge.get(s)) is not None]
    kind = field_kind(field, [r.value for r in human] + judged, kinds, binary)
    positive = binary.get(field)
    if kind == "binary" and positive is None:
        strays = sorted({label_of(v) for v in [r.value for r in human] + judged} - {"0", "1"})
        if strays:
            raise UserError(f"field {field!r}: binary needs 0/1 values, found {strays[0]!r}; use --binary", "kind")
        labels: tuple[str, ...] = ("0", "1")
    else:
        labels = tuple(sorted({label_of(v) for v in [r.value for r in human] + judged}))
    labels, codes = _coder(kind, labels, positive)

    def encode(value: Value) -> float:
        if kind == "scale":
            return float(value)
        if positive is not None:
            return float(label_of(value) in positive)
        return float(codes[label_of(value)])

    row = {s: i for i, s in enumerate(items)}
    col = {r: k for k, r in enumerate(raters)}
    human_matrix = np.full((len(items), len(raters)), np.nan)
    for rating in human:
        human_matrix[row[rating.item], col[rating.rater]] = encode(rating.value)
    judge_vector = np.full(len(items), np.nan)
    unparsed = missing = 0
    for i, item in enumerate(items):
        if item not in judge:
            missing += 1
        elif (value := judge[item]) is None:
            unparsed += 1
        else:
            judge_vector[i] = encode(value)
    unlabelled, unlabelled_unparsed = _unlabelled_codes(judge, set(row), encode)
    weights = np.full(len(items), np.nan)
    for rating in human:
        if rating.weight is not None:
            weights[row[rating.item]] = rating.weight
    return FieldTable(
        field,
        kind,
        items,
        raters,
        human_matrix,
        judge_vector,
        unparsed,
        missing,
        labels,
        unlabelled,
        unlabelled_unparsed,
        weights,
    )


def _unlabelled_codes(
    judge: Mapping[tuple[str, int | None], Value | None],
    rated: set[tuple[str, int | None]],
    encode: Callable[[Value], float],
) -> tuple[np.ndarray, int]:
    """The judge's codes of the items outside ``rated``; a verdict that is unparsed, or a value the
    humans' coding has no code for, is counted instead (never guessed)."""
    codes: list[float] = []
    unparsed = 0
    for item, value in judge.items():
        if item in rated:
            continue
        code = _try_encode(value, encode)
        if code is None:
            unparsed += 1
        else:
            codes.append(code)
    return np.array(codes, dtype=float), unparsed


def _try_encode(value: Value | None, encode: Callable[[Value], float]) -> float | None:
    if value is None:
        return None
    try:
        return encode(value)
    except (KeyError, ValueError):  # a label the field's codes lack, or a label on a scale
        return None


def parse_binary(values: Sequence[str]) -> dict[str, set[str]]:
    """``FIELD=LABEL[,LABEL]`` options as ``{field: {labels}}`` (labels lower-cased)."""
    out: dict[str, set[str]] = {}
    for value in values:
        name, sep, labels = value.partition("=")
        chosen = {label.strip().lower() for label in labels.split(",") if label.strip()}
        if not sep or not name.strip() or not chosen:
            raise UserError(f"{value!r}: expected FIELD=LABEL[,LABEL], e.g. refusal=refused,partial", "binary")
        out.setdefault(name.strip(), set()).update(label_of(_number_or(label)) for label in chosen)
    return out


def parse_kinds(values: Sequence[str]) -> dict[str, str]:
    """``FIELD=scale|nominal|binary`` options as a mapping."""
    out: dict[str, str] = {}
    for value in values:
        name, sep, kind = value.partition("=")
        if not sep or not name.strip() or kind.strip() not in KINDS:
            raise UserError(f"{value!r}: expected FIELD=KIND with KIND one of {', '.join(KINDS)}", "kind")
        out[name.strip()] = kind.strip()
    return out


def _number_or(text: str) -> Value:
    try:
        return float(text)
    except ValueError:
        return text
