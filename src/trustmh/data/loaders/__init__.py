"""Loaders for the original formats of each dataset.

Every loader validates at the edge: it reads the upstream file as published, checks the
fields it needs and raises :class:`trustmh.core.errors.DataFormatError` naming the file, the
line/row/field and what was expected. Inside trustmh the returned records are trusted.
"""
