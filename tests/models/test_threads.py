"""The embedded model's llama.cpp threads: how many, and how they wait (trustmh.models.threads)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from trustmh.core.errors import UserError
from trustmh.models.threads import SPIN_COUNT, ThreadChooser, ThreadCounts, llama_threads, prepare_openmp


def test_one_thread_per_core_the_process_may_use(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRUSTMH_LLAMA_THREADS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3}, raising=False)  # e.g. taskset -c 3
    assert llama_threads() == ThreadCounts(generation=1, prompt=1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert llama_threads() == ThreadCounts(generation=3, prompt=3)


def test_the_environment_overrides_the_thread_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUSTMH_LLAMA_THREADS", "5")
    assert llama_threads() == ThreadCounts(generation=5, prompt=5)
    monkeypatch.setenv("TRUSTMH_LLAMA_THREADS", "0")
    assert llama_threads() == ThreadCounts(generation=1, prompt=1)
    monkeypatch.setenv("TRUSTMH_LLAMA_THREADS", "many")
    with pytest.raises(UserError, match="TRUSTMH_LLAMA_THREADS must be a whole number"):
        llama_threads()


def test_the_spin_is_capped_unless_the_user_chose_how_threads_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY"):
        monkeypatch.delenv(name, raising=False)
    prepare_openmp()
    assert os.environ["GOMP_SPINCOUNT"] == str(SPIN_COUNT)
    monkeypatch.setenv("GOMP_SPINCOUNT", "300000")
    prepare_openmp()
    assert os.environ["GOMP_SPINCOUNT"] == "300000"
    monkeypatch.delenv("GOMP_SPINCOUNT")
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")  # the user's policy decides the spin
    prepare_openmp()
    assert "GOMP_SPINCOUNT" not in os.environ


# Each loads llama.cpp the way trustmh does in a fresh process: the embedded model and the dry
# run's vocabulary. libgomp prints its settings as it loads when OMP_DISPLAY_ENV is set.
ENTRY_POINTS = {
    "embedded model": "from trustmh.models.llama import shared_llama; shared_llama()",
    "token counter": "from trustmh.cost.tokens import _load_gguf_vocab; _load_gguf_vocab(None)",
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_llama_cpp_is_loaded_with_the_capped_spin(entry: str) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("OMP_", "GOMP_"))}
    env["OMP_DISPLAY_ENV"] = "VERBOSE"  # VERBOSE also shows the GOMP_ variables
    completed = subprocess.run(
        [sys.executable, "-c", ENTRY_POINTS[entry]], env=env, capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    shown = completed.stdout + completed.stderr
    assert "OPENMP DISPLAY ENVIRONMENT BEGIN" in shown  # llama.cpp is built with OpenMP (libgomp)
    assert f"GOMP_SPINCOUNT = '{SPIN_COUNT}'" in shown


class FakeMachine:
    """Clock, this process's CPU time and the cores' busy ticks (100 per second), moved by hand."""

    def __init__(self) -> None:
        self.now, self.own, self.busy, self.total = 0.0, 0.0, 0, 0

    def run(self, seconds: float, own_cores: float, other_cores: float, cores: int = 2) -> None:
        self.now += seconds
        self.own += own_cores * seconds
        self.busy += round(100 * seconds * min(cores, own_cores + other_cores))
        self.total += round(100 * seconds * cores)

    def chooser(self, monkeypatch: pytest.MonkeyPatch, cores: int = 2) -> ThreadChooser:
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)), raising=False)
        monkeypatch.setattr(os, "sysconf", lambda name: 100)
        return ThreadChooser(ticks=lambda: (self.busy, self.total), own_cpu=lambda: self.own, clock=lambda: self.now)


def test_threads_follow_the_cores_other_processes_leave_free(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRUSTMH_LLAMA_THREADS", raising=False)
    machine = FakeMachine()
    chooser = machine.chooser(monkeypatch)
    assert chooser.choose() == 2  # nothing known yet: one per core
    machine.run(2.0, own_cores=1.9, other_cores=0.1)  # idle but for us
    assert chooser.choose() == 2
    machine.run(2.0, own_cores=1.3, other_cores=0.7)  # a competitor took most of a core
    assert chooser.choose() == 1
    machine.run(0.2, own_cores=1.0, other_cores=0.0)  # too short a look to decide again
    assert chooser.choose() == 1
    machine.run(2.0, own_cores=1.0, other_cores=1.0)  # still there
    assert chooser.choose() == 1
    machine.run(2.0, own_cores=1.0, other_cores=0.2)  # gone
    assert chooser.choose() == 2
    machine.run(2.0, own_cores=0.5, other_cores=2.0)  # both cores wanted by others: still one thread
    assert chooser.choose() == 1


def test_a_fixed_thread_count_is_never_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUSTMH_LLAMA_THREADS", "2")
    machine = FakeMachine()
    chooser = machine.chooser(monkeypatch)
    for _ in range(3):
        machine.run(2.0, own_cores=1.0, other_cores=1.0)
        assert chooser.choose() == 2


def test_busy_ticks_read_only_this_processs_cpus_and_count_stolen_time(tmp_path) -> None:
    from trustmh.models.threads import busy_ticks

    stat = tmp_path / "stat"
    stat.write_text(
        "cpu  30 0 30 300 0 0 0 30 0 0\ncpu0 10 0 10 100 5 0 0 10 0 0\ncpu1 20 0 20 200 0 0 0 20 7 0\nintr 12345\n"
    )
    assert busy_ticks({0}, stat) == (30, 135)  # user + system + steal; idle and iowait are not busy
    assert busy_ticks({0, 1}, stat) == (90, 395)
    assert busy_ticks({0}, tmp_path / "missing") is None


PROMPTS = [
    "Name three ways to calm down before an exam.",
    "My friend has not left her room for a week. What should I say to her?",
]


@pytest.mark.slow
def test_greedy_answers_do_not_depend_on_the_thread_count(monkeypatch: pytest.MonkeyPatch) -> None:
    from trustmh.models.llama import EmbeddedLlama, smollm2_path

    monkeypatch.delenv("TRUSTMH_LLAMA_THREADS", raising=False)
    model = EmbeddedLlama(smollm2_path(), n_ctx=1024, cache_mb=0)  # no answer reused: each is decoded
    try:
        answers = {}
        for threads in (2, 1, 2):
            monkeypatch.setattr(model._threads, "choose", lambda threads=threads: threads)
            answers[threads, len(answers)] = [
                model.chat([{"role": "user", "content": text}], max_tokens=20, temperature=0.0) for text in PROMPTS
            ]
            assert model._thread_count == threads  # llama.cpp was told
        texts = [[result.text for result in results] for results in answers.values()]
        assert all(text.strip() for text in texts[0])
        assert texts[0] == texts[1] == texts[2]
    finally:
        model.close()
