import json

from inspect_ai import eval
from inspect_ai.model import get_model

from tests.fakes import script, write_jsonl
from trustmh.dialogue.tasks import dialogue_mentalbench
from trustmh.scoring.results import score_summary

SCORES = {
    "Guidance": 4,
    "Informativeness": 3,
    "Relevance": 5,
    "Safety": 5,
    "Empathy": 2,
    "Helpfulness": 3,
    "Understanding": 4,
    "Overall": 4,
    "Explanation": "Warm but generic.",
}


def _run(tmp_path, judge_replies, **task_args):
    task = dialogue_mentalbench(**task_args)
    responses = write_jsonl(
        tmp_path / "r.jsonl",
        [{"id": s.id, "output": "That sounds hard. Would talking to someone you trust help?"} for s in task.dataset],
    )
    judge = get_model(script(f"mb-judge-{len(judge_replies)}", judge_replies))
    (log,) = eval(
        task,
        model="trustmh/replay/x",
        model_args={"responses": str(responses)},
        model_roles={"judge": judge},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    return score_summary(log)["metrics"]


def test_attributes_aggregates_and_unparsed_judge(tmp_path):
    good = json.dumps(SCORES)
    # 8 starter items; the last judge reply is never valid (3 attempts) -> unparsed.
    replies = [good] * 7 + ["not json"]
    metrics = _run(tmp_path, replies, source="starter")
    assert metrics["guidance"] == 4 and metrics["guidance_n"] == 7 and metrics["guidance_unparsed"] == 1
    assert metrics["css"] == (4 + 3 + 5 + 5) / 4 and metrics["ars"] == (2 + 3 + 4) / 3
    assert metrics["overall"] == 4 and metrics["overall_n"] == 7
    assert metrics["judge_unparsed_rate"] == 1 / 8
    assert metrics["response_words_n"] == 8


def test_without_judge_attributes_are_not_scored(tmp_path):
    task = dialogue_mentalbench(source="starter")
    responses = write_jsonl(tmp_path / "r.jsonl", [{"id": s.id, "output": "ok"} for s in task.dataset])
    (log,) = eval(
        task, model="trustmh/replay/x", model_args={"responses": str(responses)}, log_dir=str(tmp_path), display="none"
    )
    summary = score_summary(log)
    assert "empathy" in summary["not_scored"] and summary["metrics"]["response_words"] == 1.0


def test_conversations_file_in_mentalbench_format(tmp_path, shared_data):
    conversations = tmp_path / "conv.csv"
    conversations.write_text(
        'context,response\n"I feel alone at night.","x"\n"Work stresses me.","y"\n', encoding="utf-8"
    )
    # benchmark mode: MentalBench's own generation and judge prompts, read from upstream's files
    task = dialogue_mentalbench(conversations_file=str(conversations), data_dir=str(shared_data))
    assert [s.metadata["context"] for s in task.dataset] == ["I feel alone at night.", "Work stresses me."]


def test_mentalalign_contexts(shared_data):
    task = dialogue_mentalbench(source="benchmark", data_dir=str(shared_data))
    assert len(task.dataset) == 1000
