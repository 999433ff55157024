"""Starter items of the Reliability pillar, written by the trustmh authors (see the pillar README)."""
