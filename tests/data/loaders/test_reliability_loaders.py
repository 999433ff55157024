"""Loaders of the Reliability pillar on the real files and on small files in each format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.data.synthetic_files import d4_session, write_d4, write_swmh
from trustmh.core.errors import DataFormatError, DatasetMissingError, UserError
from trustmh.data import row_counts
from trustmh.data.loaders import cpsycoune, d4, emobench, esconv, mindeval, psyeval, swmh
from trustmh.data.registry import fix_command, get_dataset

# --- the real reference files -----------------------------------------------------------


def test_psyeval_real_files(shared_data: Path) -> None:
    usmle = psyeval.load_usmle(shared_data)
    crisis = psyeval.load_crisis_qa(shared_data)
    assert len(usmle) == 727 and len(crisis) == 153
    assert psyeval.count_rows(shared_data) == 880
    assert all(item.answer in item.options for item in usmle + crisis)
    # Crisis QA answers are space-padded in a few rows ("A ", " B "): all read as letters.
    assert {item.answer for item in crisis} == {"A", "B", "C", "D"}
    assert all(item.letters == "ABCD" for item in crisis)
    assert max(len(item.options) for item in usmle) == 10
    first = usmle[0]
    assert first.id == "usmle-0" and first.answer == "F" and first.options["F"] == "Small cell lung cancer"
    assert first.metadata == {"step": "step2", "topics": ["depression"]}
    # Option texts are whitespace-stripped.
    assert all(text == text.strip() for item in crisis for text in item.options.values())


def test_emobench_real_file(shared_data: Path) -> None:
    items = emobench.load_eu(shared_data)
    assert len(items) == 400
    assert len(emobench.load_eu(shared_data, "en")) == 200 and len(emobench.load_eu(shared_data, "zh")) == 200
    first = items[0]
    assert first.id == "en-1" and first.subject == "Dorea"
    assert first.emotion_answer == "A" and first.cause_answer == "B"
    assert emobench.count_rows(shared_data) == 400
    with pytest.raises(UserError, match="language"):
        emobench.load_eu(shared_data, "fr")


def test_esconv_fair_real_file(shared_data: Path) -> None:
    dialogues = esconv.load_esconv_fair(shared_data)
    assert len(dialogues) == 11
    first = dialogues[0]
    assert first.id == "esconv_fair-0" and first.emotion_type == "anxiety" and first.problem_type == "job crisis"
    assert first.turns[0].speaker == "seeker" and first.turns[1].strategy == "Question"
    assert sum(len(d.turns) for d in dialogues) == 274
    # load_esconv reads any ESConv-schema file by path.
    assert [d.situation for d in esconv.load_esconv(shared_data / "trustmh" / "ESConv_fair.json")] == [
        d.situation for d in dialogues
    ]
    # The release counter of the trustmh folder uses load_esconv_fair.
    from trustmh.data.loaders import trustmh_release

    assert trustmh_release.count_rows(shared_data) >= 11


def test_cpsycoune_real_files(shared_data: Path) -> None:
    dialogues = cpsycoune.load_cpsycoune(shared_data)
    assert len(dialogues) == 45 and cpsycoune.count_rows(shared_data) == 45
    assert len({d.topic for d in dialogues}) == 9
    career = dialogues[0]
    assert career.id == "Career_1" and career.topic == "Career"
    assert career.turns[0].role == "client" and career.turns[1].role == "counselor"
    assert not career.turns[0].text.startswith("求助者")
    assert sum(len(d.turns) for d in dialogues) == 592


def test_mindeval_real_file(shared_data: Path) -> None:
    profiles = mindeval.load_mindeval(shared_data)
    assert len(profiles) == 50 and mindeval.count_rows(shared_data) == 50
    assert profiles[0].attributes["name"] == "Dennis"
    assert "member_narrative_thinking_trace" in profiles[0].extra


def test_catalog_counts_through_the_loaders(shared_data: Path) -> None:
    assert row_counts.count_rows("psyeval", shared_data) == 880
    assert row_counts.count_rows("emobench", shared_data) == 400
    assert row_counts.count_rows("cpsycoune", shared_data) == 45
    assert row_counts.count_rows("mindeval", shared_data) == 50


# --- Psy-Eval format details ------------------------------------------------------------


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_psyeval_options_written_as_strings(tmp_path: Path) -> None:
    path = _write_jsonl(
        tmp_path / "q.jsonl",
        [
            {"question": "Q1?", "options": json.dumps({"A": "x", "B": "y"}), "answer": "B"},
            {"question": "Q2?", "options": "{'A': 'it\\'s x', 'B': \"y\", 'C': 'z'}", "answer": " c "},
            {"question": "Q3?", "options": {"a": " x ", "b": "y"}, "answer": "(A)"},
        ],
    )
    items = psyeval.parse_mcq_file(path, "t")
    assert [i.answer for i in items] == ["B", "C", "A"]
    assert items[1].options == {"A": "it's x", "B": "y", "C": "z"}
    assert items[2].options == {"A": "x", "B": "y"}
    assert [i.id for i in items] == ["t-0", "t-1", "t-2"]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"question": "Q?", "options": "not a dict", "answer": "A"}, "line 1, field 'options'"),
        ({"question": "Q?", "options": {"A": "x", "C": "y"}, "answer": "A"}, "without gaps"),
        ({"question": "Q?", "options": {"A": "x", "B": "y"}, "answer": "E"}, "line 1, field 'answer'"),
        ({"question": " ", "options": {"A": "x", "B": "y"}, "answer": "A"}, "field 'question'"),
        ({"options": {"A": "x", "B": "y"}, "answer": "A"}, "missing field 'question'"),
    ],
)
def test_psyeval_format_errors_name_the_line(tmp_path: Path, row: dict, message: str) -> None:
    path = _write_jsonl(tmp_path / "q.jsonl", [row])
    with pytest.raises(DataFormatError, match=message):
        psyeval.parse_mcq_file(path, "t")


def test_emobench_label_must_be_a_choice(tmp_path: Path) -> None:
    row = {
        "qid": 1,
        "language": "en",
        "scenario": "s",
        "subject": "X",
        "emotion_choices": ["Joy", "Fear"],
        "emotion_label": "Anger",
        "cause_choices": ["a", "b"],
        "cause_label": "a",
    }
    with pytest.raises(DataFormatError, match="emotion_label"):
        emobench.parse_eu(_write_jsonl(tmp_path / "EU.jsonl", [row]))
    row["emotion_label"] = "Fear"
    items = emobench.parse_eu(_write_jsonl(tmp_path / "EU.jsonl", [row]))
    assert items[0].id == "en-1" and items[0].emotion_answer == "B"
    with pytest.raises(DataFormatError, match="duplicate id"):
        emobench.parse_eu(_write_jsonl(tmp_path / "EU.jsonl", [row, row]))


# --- dialogue formats -------------------------------------------------------------------


def test_esconv_schema_errors(tmp_path: Path) -> None:
    path = tmp_path / "ESConv.json"
    path.write_text(json.dumps([{"situation": "s", "dialog": [{"speaker": "usr", "content": "hi"}]}]))
    with pytest.raises(DataFormatError, match="conversation 0, turn 0, field 'speaker'"):
        esconv.load_esconv(path)
    path.write_text(json.dumps({"situation": "s"}))
    with pytest.raises(DataFormatError, match="list of conversations"):
        esconv.load_esconv(path)


def test_esconv_full_is_resolved_from_the_data_folder(tmp_path: Path) -> None:
    (tmp_path / "esconv").mkdir()
    conversation = {
        "situation": "s",
        "dialog": [
            {"speaker": "seeker", "annotation": {}, "content": "hi"},
            {"speaker": "supporter", "annotation": {"strategy": "Question"}, "content": "hello"},
        ],
    }
    (tmp_path / "esconv" / "ESConv.json").write_text(json.dumps([conversation, conversation]))
    assert esconv.count_rows(tmp_path) == 2
    assert esconv.load_esconv_full(tmp_path)[1].id == "esconv-1"
    spec = get_dataset("esconv")
    assert spec.files[0].sha256 is None
    assert (
        spec.files[0].url
        == "https://raw.githubusercontent.com/thu-coai/Emotional-Support-Conversation/HEAD/ESConv.json"
    )


def test_cpsycoune_turn_prefixes(tmp_path: Path) -> None:
    path = tmp_path / "Sex_2.json"
    path.write_text(json.dumps(["求助者: 你好", "支持者：你好，请说。"], ensure_ascii=False), encoding="utf-8")
    dialogue = cpsycoune.parse_dialogue(path)
    assert dialogue.topic == "Sex" and [t.role for t in dialogue.turns] == ["client", "counselor"]
    assert dialogue.turns[0].text == "你好"
    path.write_text(json.dumps(["来访者：你好"], ensure_ascii=False), encoding="utf-8")
    with pytest.raises(DataFormatError, match="turn 0"):
        cpsycoune.parse_dialogue(path)


def test_mindeval_requires_attributes(tmp_path: Path) -> None:
    (tmp_path / "mindeval").mkdir()
    _write_jsonl(tmp_path / "mindeval" / "profiles.jsonl", [{"member_attributes": "x", "member_narrative": "n"}])
    with pytest.raises(DataFormatError, match="member_attributes"):
        mindeval.load_mindeval(tmp_path)


# --- access-controlled datasets (synthetic fixtures in their documented formats) --------


def test_swmh_loader(tmp_path: Path) -> None:
    write_swmh(
        tmp_path,
        [
            ("sad, multi-line\npost", "self.depression"),
            ("worried", "Anxiety"),
            ("up and down", "r/bipolar"),
            ("vent", "self.offmychest"),
        ],
    )
    posts = swmh.load_swmh(tmp_path)
    assert [p.label for p in posts] == ["self.depression", "self.Anxiety", "self.bipolar", "self.offmychest"]
    assert posts[0].text == "sad, multi-line\npost" and posts[0].id == "test-0"
    assert swmh.count_rows(tmp_path) == 4
    write_swmh(tmp_path, [("x", "self.ADHD")])
    with pytest.raises(DataFormatError, match="line 2, column 'label'"):
        swmh.load_swmh(tmp_path)
    with pytest.raises(UserError, match="split"):
        swmh.load_swmh(tmp_path, "dev")


def test_swmh_and_d4_missing_say_how_to_get_access(tmp_path: Path) -> None:
    for name, loader in (("swmh", swmh.load_swmh), ("d4", d4.load_d4)):
        spec = get_dataset(name)
        assert all(f.sha256 is None and f.url is None for f in spec.files)
        assert "request access" in fix_command(spec) and "trustmh data import" in fix_command(spec)
        with pytest.raises(DatasetMissingError, match="request access"):
            loader(tmp_path)


def test_d4_loader(tmp_path: Path) -> None:
    write_d4(tmp_path, [d4_session(0, 0), d4_session(5, "2", log_key="dialog")])
    sessions = d4.load_d4(tmp_path)
    assert [(s.drisk, s.srisk) for s in sessions] == [(0, 0), (3, 2)]  # 5 clipped to 3
    assert [t.speaker for t in sessions[0].turns] == ["doctor", "patient"]  # empty turn dropped
    assert sessions[1].summary == "情绪低落。" and sessions[1].portrait["symptoms"] == "情绪"
    assert d4.count_rows(tmp_path) == 2
    write_d4(tmp_path, [d4_session(-1, 0)])
    with pytest.raises(DataFormatError, match="session 0, field 'record.drisk'"):
        d4.load_d4(tmp_path)
    broken = d4_session(1, 1)
    broken["log"][0]["speaker"] = "nurse"
    write_d4(tmp_path, [broken])
    with pytest.raises(DataFormatError, match="turn 0, field 'speaker'"):
        d4.load_d4(tmp_path)


def test_cpsycoune_download_urls_follow_the_upstream_layout() -> None:
    spec = get_dataset("cpsycoune")
    urls = {f.name: f.url for f in spec.files}
    assert len(urls) == 45
    base = "https://raw.githubusercontent.com/CAS-SIAT-XinHai/CPsyCoun/HEAD/CPsyCounE/"
    assert urls["Career_1.json"] == base + "Career/1.json"
    assert urls["Emotion_Stress_3.json"] == base + "Emotion%26Stress/3.json"
    assert urls["Family_Relationship_5.json"] == base + "Family%20Relationship/5.json"
    assert urls["Self-growth_2.json"] == base + "Self-growth/2.json"
