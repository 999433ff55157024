import asyncio

import pytest
from inspect_ai.model import ChatMessageUser, get_model

from tests.fakes import write_jsonl
from trustmh.core.errors import UserError
from trustmh.models.replay import MissingRecordError, Recordings


def test_lookup_by_id_then_by_normalised_input(tmp_path):
    path = write_jsonl(
        tmp_path / "r.jsonl",
        [{"id": 3, "output": "three"}, {"input": "Hello   there\n", "output": "hi"}, {"id": "x", "output": None}],
    )
    recordings = Recordings.load(path)
    assert recordings.lookup("3", "") == "three"
    assert recordings.lookup(None, "hello there".replace("h", "H", 1)) == "hi"
    assert recordings.lookup("x", "") is None  # recorded "no answer"
    with pytest.raises(MissingRecordError, match="'7'"):
        recordings.lookup("7", "nothing like it")


@pytest.mark.parametrize(
    "content,expected",
    [
        (
            '{"id": 1, "output": "a"}\n{"id": 1, "output": "b"}\n',
            "line 2, field 'id': duplicate id '1' (first at line 1)",
        ),
        ('{"id": 1, "output": "a"}\n{"id": 2, "output": \n', "line 2: expected a JSON object"),
        ('{"id": 1}\n', 'line 1: expected a JSON object with "output"'),
        ('{"id": 1, "output": 5}\n', "line 1, field 'output'"),
        ("", "the file is empty"),
    ],
)
def test_bad_recordings_name_file_and_line(tmp_path, content, expected):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(UserError) as error:
        Recordings.load(path)
    assert str(path) in str(error.value) and expected in str(error.value)
    assert "\n" not in str(error.value)


def test_replay_provider_without_sample_matches_input(tmp_path):
    path = write_jsonl(tmp_path / "r.jsonl", [{"input": "ping", "output": "pong"}])
    model = get_model("trustmh/replay/label", responses=str(path))
    output = asyncio.run(model.generate([ChatMessageUser(content=" ping ")]))
    assert output.completion == "pong"
    assert output.usage is not None and output.usage.total_tokens == 0


def test_replay_provider_requires_file():
    with pytest.raises(UserError, match="responses=FILE"):
        get_model("trustmh/replay/none-given", memoize=False)


def test_folder_of_recordings_resolves_task_short_name_and_per_model_layout(tmp_path):
    from trustmh.models.replay import task_file

    (tmp_path / "ethics_ethicmh.jsonl").write_text("")
    (tmp_path / "psyleak").mkdir()
    (tmp_path / "psyleak" / "gpt-x.jsonl").write_text("")
    (tmp_path / "confaide_tier1.jsonl").write_text("")
    assert task_file(tmp_path, "trustmh/ethics_ethicmh") == tmp_path / "ethics_ethicmh.jsonl"
    assert task_file(tmp_path, "privacy_confaide_tier1") == tmp_path / "confaide_tier1.jsonl"
    assert task_file(tmp_path, "privacy_psyleak", "gpt-x") == tmp_path / "psyleak" / "gpt-x.jsonl"
    with pytest.raises(UserError, match="no recorded outputs for task privacy_psyleak") as error:
        task_file(tmp_path, "privacy_psyleak", "other")
    assert "psyleak/other.jsonl" in str(error.value) and "\n" not in str(error.value)
    single = tmp_path / "ethics_ethicmh.jsonl"
    assert task_file(single, "anything") == single  # a file is used as given


def test_coverage_limit_checks_only_the_samples_that_will_run(tmp_path):
    path = write_jsonl(tmp_path / "r.jsonl", [{"id": "a", "output": "x"}])
    recordings = Recordings.load(path)
    samples = [("a", ""), ("b", "")]
    recordings.check_covers("t", samples, limit=1)  # b will not run: no record needed
    with pytest.raises(UserError, match="no record for sample id 'b' of t"):
        recordings.check_covers("t", samples)
