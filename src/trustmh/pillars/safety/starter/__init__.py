"""Starter items of the Safety pillar, written by the trustmh authors (no dataset text)."""
