"""Issue 25: ``trustmh run --dry-run`` with a judge counts every request the real run sends.

Over every registered task (``--limit 1``, a judge and a simulated-user model bound), the dry
run's requests per task and model equal what the real run then sends to the OpenAI-compatible
double, judge and simulated-user calls included; the double answers a judge with a valid verdict,
as a working judge does. Judge re-asks cannot be known in advance: the dry run gives a bound
("at most"), checked to hold. The stub judge never trips the judge's early stop.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from tests.doubles.openai_double import OpenAIDouble, _last_user_text, default_responder
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, run_cli
from trustmh.cost.run_estimate import DEFAULT_JUDGE_ATTEMPTS, stub_verdict
from trustmh.run.config import RunConfig
from trustmh.run.runner import dry_run_tasks
from trustmh.run.task_catalog import all_tasks
from trustmh.scoring.judge import DEFAULT_MAX_ATTEMPTS

MODEL, JUDGE, USER = "openai/suite-model", "openai/suite-judge", "openai/suite-user"


def working_judge(messages: list[dict[str, Any]]) -> str:
    """A judge that gives a valid verdict for the rubric its prompt ends with; others echo."""
    return stub_verdict(_last_user_text(messages)) or default_responder(messages)


def dry_counts(estimate: Any) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]]]:
    """(requests, at most) per (task, model) from the dry run's estimate."""
    counts: Counter[tuple[str, str]] = Counter()
    bounds: Counter[tuple[str, str]] = Counter()
    for row in estimate.rows.values():
        for task, count in row.by_task.items():
            counts[(task, row.model)] += count
            bounds[(task, row.model)] += row.max_by_task[task]
    return counts, bounds


def model_events(log_dir: Path) -> list[tuple[str, Any]]:
    """(task, model event) of every request the real run made, from its logs."""
    events = []
    for info in list_eval_logs(str(log_dir)):
        log = read_eval_log(info)
        assert log.status == "success", (log.eval.task, log.error)
        task = log.eval.task.removeprefix("trustmh/")
        events += [(task, e) for sample in log.samples or [] for e in sample.events if e.event == "model"]
    return events


def sent_counts(log_dir: Path) -> Counter[tuple[str, str]]:
    """Requests per (task, model) the real run made."""
    return Counter((task, event.model) for task, event in model_events(log_dir))


@pytest.mark.slow  # every task twice: 5-13 minutes on a loaded 2-core machine
def test_the_dry_run_counts_every_request_of_the_real_run_over_the_whole_suite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = tuple(info.name for info in all_tasks())
    monkeypatch.setenv("OPENAI_API_KEY", TEST_KEY)
    config = RunConfig(tasks=tasks, models=(MODEL,), judges=(JUDGE,), user_model=USER, limit=1, source="starter")
    counts, bounds = dry_counts(dry_run_tasks(config))
    home = tmp_path / "home"
    home.mkdir()
    with OpenAIDouble(responder=working_judge) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        real = run_cli(["run", *tasks, "-m", MODEL, "--judge", JUDGE, "--user-model", USER, "--limit", "1",
                        "--source", "starter", "--log-dir", str(tmp_path / "logs"), "--no-report"],
                       REPO, env, timeout=1500)  # fmt: skip
        by_model, _ = double.traffic()
    assert real.returncode == 0, real.stderr[-3000:]
    sent = sent_counts(tmp_path / "logs")
    # the logs account for every request the server received, model by model
    for model in (MODEL, JUDGE, USER):
        assert sum(n for (_, m), n in sent.items() if m == model) == by_model.get(model.removeprefix("openai/"), 0)
    assert by_model.get(JUDGE.removeprefix("openai/"), 0) > 0 and by_model.get(USER.removeprefix("openai/"), 0) > 0
    assert {task for task, _ in sent} == set(tasks)  # every task sent requests
    for key in sorted(set(counts) | set(sent)):
        assert counts[key] == sent[key], (key, counts[key], sent[key])
        assert sent[key] <= bounds[key]
    judged = [key for key in counts if key[1] == JUDGE]
    assert judged and all(bounds[key] > counts[key] for key in judged)  # re-asks: a bound, said so


def test_the_stub_judge_never_trips_the_early_stop_and_every_judgement_is_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A judge watch that stops after the first unusable verdict changes nothing in the count.
    Before, the stub's placeholder verdicts tripped the watch (after 10 verdicts; here after 1),
    the dry run was cancelled there and the requests after it went uncounted (the whole suite
    counted 15 model and 12 judge requests of 26 and 18 for these four tasks)."""
    tasks = ("crisis_psychosis_bench", "safety_crescendo", "dialogue_mindeval", "crisis_simulated_risk")
    config = RunConfig(tasks=tasks, models=(MODEL,), judges=(JUDGE,), limit=1, source="starter")
    counts, bounds = dry_counts(dry_run_tasks(config))
    monkeypatch.setattr("trustmh.scoring.verdict.FIRST_VERDICTS", 1)
    assert dry_counts(dry_run_tasks(config)) == (counts, bounds)
    assert all(counts[(task, JUDGE)] > 0 for task in tasks)
    for task in tasks:  # the bound: every judgement asked up to 3 times, and a calibration item
        assert bounds[(task, JUDGE)] == (counts[(task, JUDGE)] + 1) * DEFAULT_MAX_ATTEMPTS


def test_the_dry_run_counts_a_panel_and_the_model_under_test_playing_the_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No --user-model: the model under test plays the user (its row counts both sides); a panel
    of two judges: each judge's requests are counted in its own role."""
    tasks = ("crisis_simulated_risk", "reliability_esconv_support")
    second = "openai/suite-judge-2"
    monkeypatch.setenv("OPENAI_API_KEY", TEST_KEY)
    config = RunConfig(tasks=tasks, models=(MODEL,), judges=(JUDGE, second), limit=2, source="starter")
    counts, bounds = dry_counts(dry_run_tasks(config))
    home = tmp_path / "home"
    home.mkdir()
    with OpenAIDouble(responder=working_judge) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        real = run_cli(["run", *tasks, "-m", MODEL, "--judge", JUDGE, "--judge", second, "--limit", "2",
                        "--source", "starter", "--log-dir", str(tmp_path / "logs"), "--no-report"],
                       REPO, env, timeout=900)  # fmt: skip
        by_model, _ = double.traffic()
    assert real.returncode == 0, real.stderr[-3000:]
    sent = sent_counts(tmp_path / "logs")
    assert counts == sent and all(sent[key] <= bounds[key] for key in sent)
    for judge in (JUDGE, second):
        assert by_model[judge.removeprefix("openai/")] == sum(n for (_, m), n in sent.items() if m == judge) > 0
    assert by_model[MODEL.removeprefix("openai/")] == sum(n for (_, m), n in sent.items() if m == MODEL)
    # the model under test did play the user: it was asked more often than it answered as the assistant
    logs = [read_eval_log(info) for info in list_eval_logs(str(tmp_path / "logs"))]
    (risk_log,) = [log for log in logs if log.eval.task.endswith("crisis_simulated_risk")]
    answers = sum(m.role == "assistant" for sample in risk_log.samples or [] for m in sample.messages)
    assert sent[("crisis_simulated_risk", MODEL)] > answers > 0


def test_the_dry_run_assumes_the_judges_own_attempt_count() -> None:
    assert DEFAULT_JUDGE_ATTEMPTS == DEFAULT_MAX_ATTEMPTS
