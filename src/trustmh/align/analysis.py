"""MentalAlign: how closely does each LLM judge agree with the human expert ratings?

Two levels, because they answer different questions:

* **model level** (as MentalBench): per response model, the mean human and mean judge
  score over conversations; the ICC is over those ~9 pairs of means, i.e. "does the judge
  rank *models* like the humans do?". Its bootstrap resamples response models, as
  MentalBench does, so with n = 9 the intervals are wide.
* **item level**: every rated response is a pair; "does the judge score *responses* like the
  humans do?". Responses to one conversation are not independent, so the bootstrap
  resamples whole conversations (cluster bootstrap).

All statistics come from the paired moments of :mod:`trustmh.stats.paired`; the bootstrap
multiplies a resampling-count matrix into per-unit moments (:mod:`trustmh.stats.bootstrap`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Literal

import numpy as np

from trustmh.align.composites import with_composites
from trustmh.align.correction import corrected_means
from trustmh.align.result import (
    AlignmentResult,
    AlignmentRow,
    JudgeData,
    category,
)
from trustmh.core.errors import UserError
from trustmh.data.loaders.mentalalign import OK, UNPARSED, RatingTable, coverage, match_to, read_ratings
from trustmh.mentalalign.schema import (
    ALL_ATTRIBUTES,
    ATTRIBUTES,
    DEFAULT_SCORE_RANGE,
    HUMAN_PREFIX,
    JUDGE_PREFIX,
)
from trustmh.stats.bootstrap import percentile_ci, resample_counts, resampled_sums
from trustmh.stats.intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED
from trustmh.stats.krippendorff import interval_alpha
from trustmh.stats.paired import pair_moments, summarize

Level = Literal["model", "item", "both"]
LEVELS: tuple[str, ...] = ("model", "item")


def _cell_counts(status: np.ndarray) -> dict[str, int]:
    return {"unparsed": int((status == UNPARSED).sum()), "missing": int(((status != OK) & (status != UNPARSED)).sum())}


def _cells_summary(status: np.ndarray) -> dict[str, dict[str, int]]:
    return {attr: _cell_counts(status[..., a]) for a, attr in enumerate(ATTRIBUTES)}


def _validate_exclusions(
    exclude: Mapping[str, Iterable[str]], judges: Mapping[str, RatingTable], keys: tuple[str, ...]
) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for name, excluded in exclude.items():
        if name not in judges:
            raise UserError(f"no judge named {name!r} (judges: {', '.join(judges)})", argument="exclude")
        for key in excluded:
            if key not in keys:
                raise UserError(
                    f"judge {name!r}: no response model {key!r} (models: {', '.join(keys)})", argument="exclude"
                )
        out[name] = tuple(excluded)
    return out


def _rows_for_level(
    level: str,
    judge: str,
    excluded: tuple[str, ...],
    unit_moments: np.ndarray,
    replicate_sums: np.ndarray | None,
    tallies: dict[str, np.ndarray],
) -> list[AlignmentRow]:
    """Rows of one judge at one level.

    ``unit_moments`` are the per-unit moments ``(units, attributes, 6)`` (units: response
    models or conversations); ``replicate_sums`` the bootstrap replicates' moments
    ``(n_boot, attributes, 6)``, or None without bootstrap.
    """
    point = summarize(unit_moments.sum(axis=0))
    nan2 = np.full((2, len(ALL_ATTRIBUTES)), np.nan)
    cis = {"icc_c1": nan2, "icc_a1": nan2, "bias": nan2}
    if replicate_sums is not None and replicate_sums.size:
        reps = summarize(replicate_sums)
        cis = {name: np.array(percentile_ci(reps[name])) for name in cis}
    n_units = (unit_moments[..., 0] > 0).sum(axis=0)
    rows = []
    for a, attr in enumerate(ALL_ATTRIBUTES):
        c1_lo, c1_hi = (float(v) for v in cis["icc_c1"][:, a])
        width = c1_hi - c1_lo
        rows.append(
            AlignmentRow(
                judge=judge,
                attribute=attr,
                level=level,
                n=int(n_units[a]) if level == "model" else int(point["n"][a]),
                n_pairs=int(tallies["pairs"][a]),
                unparsed=int(tallies["unparsed"][a]),
                missing=int(tallies["missing"][a]),
                human_mean=float(point["human_mean"][a]),
                judge_mean=float(point["judge_mean"][a]),
                bias=float(point["bias"][a]),
                bias_ci=(float(cis["bias"][0, a]), float(cis["bias"][1, a])),
                mse=float(point["mse"][a]),
                icc_c1=float(point["icc_c1"][a]),
                icc_c1_ci=(c1_lo, c1_hi),
                icc_a1=float(point["icc_a1"][a]),
                icc_a1_ci=(float(cis["icc_a1"][0, a]), float(cis["icc_a1"][1, a])),
                ci_width=width,
                category=category(width),
                pearson_r=float(point["pearson_r"][a]),
                ccc=float(point["ccc"][a]),
                ba_mean_diff=float(point["ba_mean_diff"][a]),
                ba_loa=(float(point["ba_loa_low"][a]), float(point["ba_loa_high"][a])),
                excluded=excluded,
            )
        )
    return rows


def analyze(
    human: RatingTable,
    judges: Mapping[str, RatingTable],
    exclude: Mapping[str, Iterable[str]] | None = None,
    level: Level = "both",
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
) -> AlignmentResult:
    """Agreement of every judge with the human ratings (see the module docstring).

    ``exclude`` maps a judge name to response-model keys left out when measuring that judge
    (its own family). Unparsable or empty cells are excluded pairwise and counted in each
    row's ``unparsed`` / ``missing``.
    """
    if level not in ("model", "item", "both"):
        raise UserError(f"level {level!r}: expected model, item or both", argument="level")
    if not judges:
        raise UserError("at least one judge's ratings are required", argument="judges")
    if n_boot < 0:
        raise UserError(f"{n_boot} bootstrap replicates: expected 0 or more", argument="n_boot")
    levels = LEVELS if level == "both" else (level,)
    exclusions = _validate_exclusions(exclude or {}, judges, human.keys)
    h_scores, h_status = with_composites(human)
    n_conv = len(human.conv_ids)
    seeds = np.random.SeedSequence(seed).spawn(len(judges) + 1)
    conv_counts = resample_counts(n_conv, n_boot, np.random.default_rng(seeds[0])) if "item" in levels else None

    judge_data: list[JudgeData] = []
    corrected: list[dict[str, object]] = []
    item_moments, item_tallies, model_parts = [], [], []
    kripp_values = [np.where(h_status == OK, h_scores, np.nan)]
    cells = {"human": _cells_summary(human.status)}
    for j, (name, table) in enumerate(judges.items()):
        shared = coverage(human, table)
        matched = match_to(human, table)  # cells this judge did not rate are MISSING
        j_scores, j_status = with_composites(matched)
        kripp_values.append(np.where(j_status == OK, j_scores, np.nan))
        cells[name] = _cells_summary(matched.status)
        excluded = exclusions.get(name, ())
        corrected += corrected_means(human, name, table, excluded)
        used = [k for k, key in enumerate(human.keys) if key in shared.keys and key not in excluded]
        if len(used) < 2 and ("model" in levels or not used):
            raise UserError(
                f"judge {name!r} ({table.path}): fewer than two response models rated by both the humans and the judge "
                f"(after exclusions: {', '.join(human.keys[k] for k in used) or 'none'}); model-level agreement "
                "needs two or more, item-level needs one (--level item)",
                argument="exclude" if excluded else None,
            )
        valid = (h_status[:, used] == OK) & (j_status[:, used] == OK)
        x = np.where(valid, h_scores[:, used], np.nan)
        y = np.where(valid, j_scores[:, used], np.nan)
        either_unparsed = (h_status[:, used] == UNPARSED) | (j_status[:, used] == UNPARSED)
        tallies = {
            "pairs": valid.sum(axis=(0, 1)),
            "unparsed": (either_unparsed & ~valid).sum(axis=(0, 1)),
            "missing": (~either_unparsed & ~valid).sum(axis=(0, 1)),
        }
        keys_used = tuple(human.keys[k] for k in used)
        judge_data.append(JudgeData(name, matched.path, keys_used, excluded, x, y, shared))
        item_moments.append(pair_moments(x, y, axis=1))  # (conversations, attributes, 6)
        item_tallies.append(tallies)
        if "model" in levels:
            # Per response model: mean human and mean judge score over its valid pairs; a
            # model with no valid pair gets NaN means and drops out (n counts the rest).
            per_model = summarize(pair_moments(x, y, axis=0))  # (models, attributes)
            unit = pair_moments(per_model["human_mean"][:, None], per_model["judge_mean"][:, None], axis=1)
            counts = resample_counts(len(used), n_boot, np.random.default_rng(seeds[j + 1]))
            model_parts.append((unit, counts))

    item_reps = None
    if conv_counts is not None and n_boot > 0:
        # One matrix product for every judge and attribute at once.
        stacked = np.stack(item_moments, axis=1)  # (conversations, judges, attributes, 6)
        item_reps = resampled_sums(conv_counts, stacked)

    rows: list[AlignmentRow] = []
    for j, data in enumerate(judge_data):
        if "model" in levels:
            unit, counts = model_parts[j]
            reps = resampled_sums(counts, unit) if n_boot else None
            rows += _rows_for_level("model", data.name, data.excluded, unit, reps, item_tallies[j])
        if "item" in levels:
            reps = None if item_reps is None else item_reps[:, j]
            rows += _rows_for_level("item", data.name, data.excluded, item_moments[j], reps, item_tallies[j])

    alpha = {
        attr: interval_alpha(np.stack([v[..., a].ravel() for v in kripp_values]))
        for a, attr in enumerate(ALL_ATTRIBUTES)
    }
    return AlignmentResult(
        rows=rows,
        krippendorff_alpha=alpha,
        n_conversations=n_conv,
        keys=human.keys,
        human_path=human.path,
        levels=levels,
        n_boot=n_boot,
        seed=seed,
        cells=cells,
        judges=judge_data,
        corrected=corrected,
    )


def analyze_files(
    human_path: str | Path,
    judge_paths: Mapping[str, str | Path],
    exclude: Mapping[str, Iterable[str]] | None = None,
    level: Level = "both",
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    score_range: tuple[float, float] = DEFAULT_SCORE_RANGE,
) -> AlignmentResult:
    """:func:`analyze` on files (xlsx or csv) as released; scores outside ``score_range`` are unparsed.

    The default range is MentalBench's (0-5: the human file's all-zero cells are kept, which
    reproduces its published ICCs), as in ``trustmh align``; pass ``STRICT_SCORE_RANGE`` (1-5)
    to count them as unparsed instead.
    """
    human = read_ratings(human_path, HUMAN_PREFIX, score_range)
    judges = {name: read_ratings(path, JUDGE_PREFIX, score_range) for name, path in judge_paths.items()}
    return analyze(human, judges, exclude, level, n_boot, seed)
