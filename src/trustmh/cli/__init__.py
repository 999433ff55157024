"""The ``trustmh`` command line (typer + rich)."""
