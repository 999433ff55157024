"""Scorers and metrics shared by every pillar.

Convention: a trustmh scorer returns ``Score(value={field: number | None, ...})``.

* a number is a scored observation (0/1 flags for rates, ratings for means);
* ``None`` means the output could not be parsed: it is counted as *unparsed*, never as
  right or wrong;
* a missing key means "not applicable" for that sample (e.g. a judge field with no judge).
"""
