"""MentalAlign: judge-human reliability (ICC, bias, agreement) for LLM-as-a-judge ratings.

``analyze`` / ``analyze_files`` return an :class:`AlignmentResult` (``AlignmentResult.from_json``
reads one back); figures for reports are in :mod:`trustmh.align.figures` (imports plotly, so
it is not imported here).
"""

from trustmh.align.analysis import analyze, analyze_files
from trustmh.align.result import ALL_ATTRIBUTES, COMPOSITES, AlignmentResult, AlignmentRow, category

__all__ = ["ALL_ATTRIBUTES", "COMPOSITES", "AlignmentResult", "AlignmentRow", "analyze", "analyze_files", "category"]
