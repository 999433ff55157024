"""The task helper: source resolution, metadata stamping, generation settings per source."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig

from tests.conftest import REPO_ROOT
from trustmh.run.task_catalog import all_tasks, generation_table, get_task_info, task_function
from trustmh.tasking import declare as tasking
from trustmh.tasking.declare import STARTER_NOTE, Generation, greedy, trustmh_task

SAMPLING = Generation(
    starter=greedy(8), benchmark=GenerateConfig(max_tokens=300, temperature=1.0), upstream="u", why="w", epochs=3
)


@pytest.fixture
def scratch_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tasks declared by a test go into throwaway catalogues, never the real one."""
    monkeypatch.setattr(tasking, "TASKS", {})
    monkeypatch.setattr(tasking, "TASK_FUNCTIONS", {})


def _declare_example() -> object:
    @trustmh_task(pillar="ethics", datasets=("ethicmh", "esconv"), metrics=("accuracy",), generation=SAMPLING)
    def example_task(
        source: str = "auto",
        data_dir: str | None = None,
        max_tokens: int | None = None,
        greedy: bool = False,
        only: str | None = None,
    ) -> Task:
        """An example."""
        metadata = {"seen_source": source}
        if only:
            metadata["trustmh_datasets"] = [only]
        return Task(dataset=MemoryDataset([Sample(input="q", target="A")]), metadata=metadata)

    return example_task


def test_decorator_resolves_source_and_stamps_metadata(scratch_registry: None, monkeypatch) -> None:
    example = _declare_example()
    starter = example()
    assert starter.metadata == {
        "trustmh_pillar": "ethics",
        "trustmh_source": "starter",
        "trustmh_datasets": ["starter"],
        "trustmh_note": STARTER_NOTE,
        "seen_source": "starter",
    }
    benchmark = example(data_dir="/nowhere")
    assert benchmark.metadata["seen_source"] == benchmark.metadata["trustmh_source"] == "benchmark"
    assert benchmark.metadata["trustmh_datasets"] == ["ethicmh", "esconv"]
    monkeypatch.setenv("TRUSTMH_DATA_DIR", "/nowhere")
    assert example().metadata["trustmh_source"] == "benchmark"
    assert example(source="starter").metadata["trustmh_source"] == "starter"
    # A run that reads only some of the declared datasets says which.
    assert example(source="benchmark", only="esconv").metadata["trustmh_datasets"] == ["esconv"]
    with pytest.raises(ValueError, match="does not declare"):
        example(source="benchmark", only="cssrs")
    assert tasking.TASKS["example_task"].description == "An example."


def test_generation_switches_with_source_and_arguments_override_it(scratch_registry: None) -> None:
    example = _declare_example()
    starter = example(source="starter")
    assert (starter.config.max_tokens, starter.config.temperature, starter.epochs) == (8, 0.0, None)
    benchmark = example(source="benchmark")
    assert (benchmark.config.max_tokens, benchmark.config.temperature, benchmark.epochs) == (300, 1.0, 3)
    shorter = example(source="benchmark", max_tokens=20)
    assert (shorter.config.max_tokens, shorter.config.temperature) == (20, 1.0)
    assert example(source="benchmark", greedy=True).config.temperature == 0.0


def test_declaration_errors_name_the_problem(scratch_registry: None) -> None:
    with pytest.raises(ValueError, match="unknown task group 'ethic'"):
        trustmh_task(pillar="ethic", datasets=(), metrics=())
    with pytest.raises(TypeError, match="must take `source` and `data_dir`"):

        @trustmh_task(pillar="ethics", datasets=(), metrics=())
        def no_source() -> Task:
            raise AssertionError("never built")


@pytest.mark.parametrize("info", all_tasks(), ids=lambda info: info.name)
def test_every_task_builds_offline_with_its_starter_settings(info: tasking.TaskInfo) -> None:
    built = task_function(info.name)(source="starter")
    assert info.generation is not None, "every task declares its generation settings"
    assert built.config.max_tokens == info.generation.starter.max_tokens
    assert built.config.temperature == 0.0
    assert built.metadata["trustmh_source"] == "starter" and built.metadata["trustmh_pillar"] == info.pillar


@pytest.mark.parametrize(
    ("name", "max_tokens", "temperature", "epochs"),
    [
        ("ethics_ethicmh", 1024, 0.0, None),
        ("crisis_classification", 256, 0.0, None),
        ("crisis_escalation", 1024, 0.0, None),
        ("privacy_confaide_tier1", 365, 1.0, None),  # TrustMH-Bench: 1 sample (-T confaide_samples=true: 10)
        ("privacy_psyleak", 256, 0.0, None),
        ("sycophancy_aita", 256, 0.0, None),
    ],
)
def test_benchmark_mode_uses_the_upstream_settings(
    shared_data: Path, name: str, max_tokens: int, temperature: float, epochs: int | None
) -> None:
    starter = task_function(name)(source="starter")
    benchmark = task_function(name)(source="benchmark", data_dir=str(shared_data))
    assert (benchmark.config.max_tokens, benchmark.config.temperature, benchmark.epochs) == (
        max_tokens,
        temperature,
        epochs,
    )
    assert starter.config.max_tokens < max_tokens  # the starter budget is the embedded model's


def test_confaide_greedy_option(shared_data: Path) -> None:
    task = task_function("privacy_confaide_tier1")(source="benchmark", data_dir=str(shared_data), greedy=True)
    assert (task.config.temperature, task.config.top_p, task.epochs, task.config.max_tokens) == (0.0, None, 1, 365)


def test_settings_table_in_the_docs_matches_the_code() -> None:
    doc = (REPO_ROOT / "docs" / "generation_settings.md").read_text(encoding="utf-8")
    missing = [row for row in generation_table() if row not in doc]
    assert not missing, "docs/generation_settings.md is stale; regenerate the table rows:\n" + "\n".join(missing)
    assert len(generation_table()) == len(all_tasks())


def test_dialogue_is_a_registered_group() -> None:
    assert get_task_info("dialogue_mentalbench").pillar == "dialogue"
    assert (REPO_ROOT / "src" / "trustmh" / "dialogue" / "README.md").is_file()


def test_tasking_imports_no_task() -> None:
    """The helper sits below the tasks: importing it must not import any pillar (no circle)."""
    code = "import sys, trustmh.tasking.declare; print([m for m in sys.modules if m.startswith(('trustmh.pillars', 'trustmh._registry'))])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_default_run_is_the_pillars_and_every_conversation_task() -> None:
    from trustmh import PILLARS
    from trustmh.cli.evaluate import _selected_tasks

    default = _selected_tasks([], [])
    conversation_tasks = ["crisis_psychosis_bench", "crisis_simulated_risk", "safety_crescendo", "dialogue_mindeval"]
    assert set(conversation_tasks) <= set(default)
    assert "dialogue_mentalbench" not in default  # the rest of the dialogue group: `--pillar dialogue`
    assert {info.name for info in all_tasks() if info.pillar in PILLARS} <= set(default)
    assert _selected_tasks([], ["dialogue"]) == ["dialogue_mentalbench", "dialogue_mindeval"]
