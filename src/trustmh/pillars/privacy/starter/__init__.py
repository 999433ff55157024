"""Starter items of the Privacy pillar, written by the trustmh authors (labels are our estimates)."""
