"""Lean async engine for bulk generation and judging (``trustmh generate`` / ``trustmh judge``).

inspect_ai's per-sample pipeline costs ~20 ms of CPU, far too much for MentalBench's
100,000 responses x 4 judges. This engine only does what bulk calls need: bounded
concurrency, retries, a resumable SQLite cache and usage accounting.
"""
