"""Scorers and metrics shared by every pillar.

The score/metric contract (details in :mod:`trustmh.scoring.metrics`):

* a trustmh scorer is declared with :func:`trustmh.scoring.unparsed.trustmh_scorer` and
  returns ``Score(value={field: number | None, ...})``;
* a number is a scored observation (0/1 flags for rates, ratings for means);
* ``None`` means the output could not be parsed: it is stored as NaN
  (:data:`~trustmh.scoring.unparsed.UNPARSED`), which every epoch reducer keeps apart, and
  counted as *unparsed*, never as right or wrong;
* a missing key means "not applicable" for that sample (e.g. a judge field with no judge);
* classification scores carry ``gold`` and ``pred`` labels
  (:mod:`trustmh.scoring.classification`);
* every metric reports n, a 95% CI and the unparsed count through
  :func:`trustmh.scoring.metrics.summarise`, and a ``_strict`` variant where the upstream
  benchmark counts a non-answer as wrong.
"""
