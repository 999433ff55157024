"""``trustmh reproduce``: upstream's released outputs re-scored beside its published figures.

Each benchmark module reads, from the pinned upstream files (:mod:`trustmh.data.upstream`), the
outputs upstream released and the figures it published, and re-scores the outputs twice: with
upstream's own parsing (bugs included) and with trustmh's corrected parsing. Published numbers
are only ever read from upstream's result files.
"""
