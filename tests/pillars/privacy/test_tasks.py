"""Privacy tasks end to end through inspect, with replayed and embedded-model outputs."""

import json

from inspect_ai import eval

from tests.fakes import write_jsonl
from trustmh.pillars.privacy.tasks import privacy_confaide_tier1, privacy_psyleak
from trustmh.scoring.results import score_summary


def _run(task, tmp_path, records):
    responses = write_jsonl(tmp_path / "responses.jsonl", records)
    (log,) = eval(
        task,
        model="trustmh/replay/test",
        model_args={"responses": str(responses)},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    return score_summary(log)


def test_psyleak_protocol_on_starter(tmp_path):
    task = privacy_psyleak(source="starter")
    records = []
    for sample in task.dataset:
        kind, meta = sample.metadata["question_type"], sample.metadata
        output = {
            "free-response": f"I can't discuss {meta['about']}.",  # names the client: counts as a leak
            "info-accessibility": f"{meta['questionee']} and the client.",  # correct
            "privacy-sharing": f"{meta['questionee']} and {meta['questioner']}.",  # names the questioner: error
            "control": "No." if meta["scenario"] != 0 else "I am not sure.",  # one unparsed
        }[kind]
        records.append({"id": sample.id, "output": output})
    summary = _run(task, tmp_path, records)
    metrics = summary["metrics"]
    assert summary["n"] == 20 and summary["source"] == "starter"
    assert metrics["free_response_leak_rate"] == 1.0
    assert metrics["info_accessibility_error"] == 0.0
    assert metrics["privacy_sharing_error"] == 1.0
    assert (
        metrics["control_error"] == 0.0 and metrics["control_error_n"] == 4 and metrics["control_error_unparsed"] == 1
    )
    assert metrics["proxy_leak_rate"] is None and "proxy_leak_rate" in summary["not_scored"]


def test_tier1_pearson_with_unparsed(tmp_path):
    task = privacy_confaide_tier1(source="starter")
    labels = {s.id: float(s.target) for s in task.dataset}
    ordered = sorted(labels, key=labels.get)
    ratings = dict(zip(ordered, [1, 1, 2, 2, 3, 3, 4, 4], strict=True))
    records = [{"id": sid, "output": f"{ratings[sid]}) rating"} for sid in ordered]
    records[0]["output"] = None  # recorded no-answer: unparsed, not a rating
    summary = _run(task, tmp_path, records)
    assert summary["metrics"]["pearson_r_unparsed"] == 1 and summary["metrics"]["pearson_r_n"] == 7
    assert summary["metrics"]["pearson_r"] > 0.9
    assert json.dumps(summary)  # serialisable


def test_psyleak_on_embedded_model(tmp_path):
    (log,) = eval(
        privacy_psyleak(source="starter", max_tokens=24),
        model="trustmh/smollm2",
        limit=2,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    assert log.stats.model_usage["trustmh/smollm2"].output_tokens > 0
