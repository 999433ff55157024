"""One row of the reproduce table and how it is judged against the published figure."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

# A published figure stored at full precision must be met to float noise; one written with
# d decimals, to half a unit in its last place.
FULL_PRECISION = 1e-9


def decimals_tolerance(decimals: int) -> float:
    return 0.5 * 10.0**-decimals + FULL_PRECISION


MATCH = "match"
EXPLAINED = "explained"
UNEXPLAINED = "UNEXPLAINED"
NOT_RESCORABLE = "not re-scorable"
UNVERIFIED = "unverified"


@dataclass(frozen=True)
class ReproRow:
    """Published vs re-scored, for one benchmark, model and metric."""

    benchmark: str  # section of docs/reproducibility.md, e.g. "TrustMH-Bench privacy (ConfAIde tier 1)"
    task: str  # trustmh task whose protocol declares the explanations
    model: str
    metric: str
    n: int | None  # items the re-scored figure rests on
    published: float | None
    upstream: float | None  # re-scored with upstream's parsing
    corrected: float | None  # re-scored with trustmh's parsing
    tolerance: float
    explanation: str = ""  # why corrected (or a missing re-score) differs, from the declaration
    # A defect found in the released files themselves (e.g. outputs of a different run than the
    # published figure); the only thing that may explain upstream's own parsing missing the figure.
    release_defect: str = ""

    @property
    def upstream_matches(self) -> bool:
        return _close(self.published, self.upstream, self.tolerance)

    @property
    def corrected_matches(self) -> bool:
        return _close(self.published, self.corrected, self.tolerance)

    @property
    def difference(self) -> float | None:
        """corrected - published (what a user of the default parser sees)."""
        if self.published is None or self.corrected is None:
            return None
        return self.corrected - self.published

    @property
    def status(self) -> str:
        """The row's verdict (only UNEXPLAINED fails ``trustmh reproduce``).

        * MATCH: every re-scored figure meets the published one within its rounding;
        * EXPLAINED: the corrected figure differs for a declared deviation, or upstream's own
          parsing misses the figure because of a defect found in the release;
        * NOT_RESCORABLE: the release lacks what the figure was computed from (declared);
        * UNVERIFIED: upstream did not release the computation, ours differs (declared, with
          the measured difference; not counted as reproduced);
        * UNEXPLAINED: anything else, and always when upstream's own parsing misses the figure.
        """
        if self.upstream is not None and not self.upstream_matches:
            return EXPLAINED if self.release_defect else UNEXPLAINED
        if self.corrected_matches and (self.upstream is None or self.upstream_matches):
            return MATCH
        if not self.explanation:
            return UNEXPLAINED
        if self.corrected is None:
            return NOT_RESCORABLE
        return UNVERIFIED if self.upstream is None else EXPLAINED

    @property
    def reason(self) -> str:
        """What the table prints for a row that does not match."""
        return "; ".join(part for part in (self.release_defect, self.explanation) if part)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(difference=self.difference, status=self.status)
        return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in data.items()}


def _close(published: float | None, ours: float | None, tolerance: float) -> bool:
    if published is None or ours is None:
        return False
    if math.isnan(published) or math.isnan(ours):
        return math.isnan(published) and math.isnan(ours)
    return abs(published - ours) <= tolerance


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson r as upstream computes it (``numpy.corrcoef``); NaN when undefined."""
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    if a.size < 2 or a.size != b.size or np.std(a) == 0 or np.std(b) == 0:
        return float("nan")
    return float(np.corrcoef(a, b)[0, 1])
