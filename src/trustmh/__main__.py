"""``python -m trustmh`` = the ``trustmh`` command."""

from trustmh.cli.main import main

main()
