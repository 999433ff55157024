"""Imported once by the detector pass's fork server: the detectors and the language model are
loaded there, so every worker forked from it shares them instead of loading its own copy."""

from trustmh.audit.batch import detect_all  # noqa: F401  (the import is the point)
from trustmh.audit.language import load_language_model

load_language_model()
