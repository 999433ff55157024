"""Issue 30: the default progress of `trustmh run` — tasks, samples, elapsed, ETA — in 100 columns."""

from __future__ import annotations

import io

from trustmh.cli.run_progress import WIDTH, Progress, duration


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_not_a_terminal_gets_one_line_per_finished_task() -> None:
    out = io.StringIO()
    progress = Progress(tasks_total=2, stream=out, live=False)
    progress.task_started("e1", "trustmh/crisis_psychosis_bench_with_a_long_name_for_width", "trustmh/smollm2", 3)
    for _ in range(3):
        progress.sample_ended("e1", errored=False)
    progress.task_started("e2", "ethics_ethicmh", "openai/a-model-with-a-rather-long-name-indeed", 5)
    progress.sample_ended("e2", errored=True)
    progress.task_ended("e1", "success")
    progress.task_ended("e2", "error")
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and "\r" not in out.getvalue()
    assert lines[0].startswith("done 1/2: crisis_psychosis_bench") and "3 samples in 0s · ETA" in lines[0]
    assert lines[1].startswith("error 2/2: ethics_ethicmh · openai/") and "1 sample, 1 errored" in lines[1]
    assert all(len(line) <= WIDTH for line in lines)


def test_status_line_totals_and_eta() -> None:
    progress = Progress(tasks_total=2, stream=io.StringIO())
    progress.task_started("e1", "a", "m", 4)
    progress.sample_ended("e1", errored=False)
    start = progress.started
    # one task has not started: its samples are not known yet, and there is no ETA
    assert progress.status(start + 10) == "tasks 0/2 · samples 1/4+ · elapsed 10s · ETA —"
    progress.task_started("e2", "b", "m", 6)
    # 1 sample in 10 s, 9 to go: 90 s
    assert progress.status(start + 10) == "tasks 0/2 · samples 1/10 · elapsed 10s · ETA 1m30s"


def test_a_terminal_gets_a_status_line_rewritten_in_place() -> None:
    out = FakeTerminal()
    progress = Progress(tasks_total=1, stream=out, live=True)
    progress.task_started("e1", "a", "m", 2)
    progress.sample_ended("e1", errored=False)
    progress.task_ended("e1", "success")
    progress.close()
    text = out.getvalue()
    assert text.startswith("\r\x1b[Ktasks 0/1 · samples 0/2")  # the status line, rewritten in place
    assert "\r\x1b[Kdone 1/1: a · m · 1 sample in" in text  # the finished line replaces it
    # after the last task no status line is left for inspect's "Completed all tasks" to glue onto
    assert text.endswith("\n") and "ETA" not in text.rsplit("\n", 2)[-1]


def test_durations() -> None:
    assert [duration(s) for s in (4, 65, 3720)] == ["4s", "1m05s", "1h02m"]
