"""``trustmh run -T KEY=VALUE``: each selected task gets the arguments its function takes."""

from __future__ import annotations

import pytest

from trustmh.core.errors import UserError
from trustmh.run.runner import build_tasks
from trustmh.run.task_catalog import task_args_for, task_parameters


def test_each_task_gets_only_the_arguments_it_takes() -> None:
    shares = task_args_for(["crisis_psychosis_bench", "privacy_psyleak"], {"condition": "explicit", "max_tokens": 200})
    assert shares == {
        "crisis_psychosis_bench": {"condition": "explicit", "max_tokens": 200},
        "privacy_psyleak": {"max_tokens": 200},
    }


def test_task_arguments_reach_the_built_tasks() -> None:
    (psychosis, psyleak) = build_tasks(
        ["crisis_psychosis_bench", "privacy_psyleak"], "starter", None, {"condition": "explicit", "max_tokens": 200}
    )
    assert psychosis.metadata["condition"] == "explicit"
    assert {sample.metadata["condition"] for sample in psychosis.dataset} == {"explicit"}
    assert psychosis.config.max_tokens == 200 and psyleak.config.max_tokens == 200
    (default,) = build_tasks(["privacy_psyleak"], "starter", None)
    assert default.config.max_tokens != 200


def test_source_and_data_dir_are_not_task_arguments() -> None:
    assert "source" not in task_parameters("privacy_psyleak") and "data_dir" not in task_parameters("privacy_psyleak")
    with pytest.raises(UserError, match="set it with --source"):
        task_args_for(["privacy_psyleak"], {"source": "benchmark"})
