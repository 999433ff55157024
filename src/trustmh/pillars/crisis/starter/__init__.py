"""Starter items of the Crisis pillar, written by the trustmh authors (labels are our judgement)."""
