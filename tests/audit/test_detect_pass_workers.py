"""The detector pass's worker processes stay light: they never import inspect_ai (nor spaCy/Presidio)."""

from __future__ import annotations

import ast
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from trustmh.audit.detect_pass import _context, _init_worker
from trustmh.audit.pass_worker import loaded_packages

HEAVY = {"inspect_ai", "spacy", "presidio_analyzer", "pandas"}
# pyarrow imports pandas at its first array from Python values; the fork server imports it once
# (trustmh.audit.worker_process) so that the workers share it rather than each loading its own.
SHARED_FROM_THE_FORK_SERVER = {"pandas"}


def test_a_detector_worker_imports_no_heavy_package() -> None:
    empty = np.zeros(0, dtype=np.uint64)
    with ProcessPoolExecutor(1, mp_context=_context(), initializer=_init_worker, initargs=(empty,)) as pool:
        loaded = pool.submit(loaded_packages).result(timeout=120)
    assert "trustmh" in loaded and "py3langid" in loaded  # it is a detector worker
    assert not loaded & (HEAVY - SHARED_FROM_THE_FORK_SERVER), loaded & HEAVY


def test_the_worker_modules_import_no_heavy_package_alone() -> None:
    code = "import sys, trustmh.audit.pass_worker; print(sorted({m.partition('.')[0] for m in sys.modules}))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    loaded = set(ast.literal_eval(result.stdout))
    assert not loaded & HEAVY, loaded & HEAVY
