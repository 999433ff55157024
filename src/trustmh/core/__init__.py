"""Shared low-level utilities every layer may use: user errors, paths and files, locks,
endpoints, spreadsheet cells, plotting defaults, the run stop, and the one place that touches
inspect_ai internals. Nothing here imports another trustmh package."""
