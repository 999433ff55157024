"""Starter items of the Anti-sycophancy pillar, written by the trustmh authors (fictional people; the YTA verdicts are our judgement)."""
