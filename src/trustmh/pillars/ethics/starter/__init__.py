"""Starter dilemmas of the Ethics pillar, written by the trustmh authors (gold answers are our judgement)."""
