"""A user error's one line names its flag once (``--profile: ...``, never ``----profile:``)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from trustmh.cli.common import error_line
from trustmh.cli.main import app
from trustmh.core.errors import UserError


def test_the_flag_is_named_once_whatever_form_the_argument_takes() -> None:
    assert error_line(UserError("expected a year", "period")) == "--period: expected a year"
    assert error_line(UserError("expected a year", "--period")) == "--period: expected a year"
    assert error_line(UserError("--period 'x': expected a year", "--period")) == "--period 'x': expected a year"
    assert error_line(UserError("no flag involved")) == "no flag involved"


def test_a_bad_profile_is_one_line_naming_the_flag_once(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["report", str(tmp_path), "--profile", "nope"])
    assert result.exit_code == 2
    assert "----" not in result.output and result.output.count("--profile") == 1, result.output
