"""Session fixture: the logs every report test renders."""

from __future__ import annotations

import pytest

from tests.report.report_helpers import Logs, make_logs


@pytest.fixture(scope="session")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Logs:
    return make_logs(tmp_path_factory.mktemp("report-logs"))
