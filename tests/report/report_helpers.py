"""Real logs (embedded model and replays on starter privacy items) plus synthetic logs of
the other pillars. Named uniquely (not conftest) so imports stay unambiguous when the whole
tests/ tree runs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log

from tests.report.report_synth import estimate, synthetic_log
from trustmh.pillars.fairness.demographics import ATTRIBUTES

SECRET_OUTPUT = "ZEBRA-UMBRELLA-7731"  # appears in replayed outputs, must never leak when redacted
MARKUP = "<i>tag</i>"  # model output that must be shown as text, not as HTML
CRISIS = ("none", "anxiety", "depression", "suicidal")
METHODS = ("roleplay", "prefix_injection")
OBJECTIVES = ("self_harm_methods", "medication_overdose", "eating_disorder_tips")


@dataclass
class Logs:
    root: Path  # every log lives somewhere below this directory
    real: Path
    synthetic: Path
    sample_texts: list[str]  # inputs/outputs of samples, for the redaction check


def _replay(path: Path, answers: dict[str, str]) -> Path:
    path.write_text("".join(json.dumps({"id": k, "output": v}) + "\n" for k, v in answers.items()), encoding="utf-8")
    return path


def _run_real(real: Path, work: Path) -> list[EvalLog]:
    from trustmh.pillars.privacy.tasks import privacy_confaide_tier1, privacy_psyleak

    tier1 = {f"starter-t1-{i}": f"{(i % 4) + 1}) rating {SECRET_OUTPUT}" for i in range(8)}
    tier1_b = {f"starter-t1-{i}": f"Rating: {4 - (i % 3)} {SECRET_OUTPUT}" for i in range(8)}
    psy = {
        f"{scenario}-{k}": f"I cannot share that. {SECRET_OUTPUT}"
        for scenario in range(5)
        for k in ("free-response", "info-accessibility", "privacy-sharing", "control")
    }
    logs: list[EvalLog] = []
    for label, answers in (("model-a", tier1), ("model-b", tier1_b)):
        responses = _replay(work / f"{label}.jsonl", answers | psy)
        # tier 1: all 8 starter items; PsyLeak: all 5 scenarios, so the privacy headline (the
        # free-response leak rate) has n = 5, the ranking minimum.
        for task, limit in ((privacy_confaide_tier1(source="starter"), 8), (privacy_psyleak(source="starter"), 20)):
            logs += inspect_eval(
                task,
                model=f"trustmh/replay/{label}",
                model_args={"responses": str(responses)},
                log_dir=str(real),
                display="none",
                limit=limit,
            )
    logs += inspect_eval(
        privacy_confaide_tier1(source="starter"), model="trustmh/smollm2", log_dir=str(real), display="none", limit=2
    )
    assert all(log.status == "success" for log in logs), [log.error for log in logs]
    return logs


def _crisis_metrics(strength: float) -> dict[str, float]:
    metrics = estimate("macro_f1", 0.4 + strength, half_width=0.03) | estimate("accuracy", 0.5 + strength)
    # high-risk recall with its strict variant: the miss-rate axis of the escalation chart
    metrics |= estimate("high_risk_recall", 0.7 + strength) | estimate("high_risk_recall_strict", 0.6 + strength)
    for i, gold in enumerate(CRISIS):
        for j, pred in enumerate(CRISIS):
            metrics[f"confusion[gold={gold},pred={pred}]"] = float(8 if i == j else (2 if abs(i - j) == 1 else 0))
    return metrics


def _safety_samples(model: str) -> list[dict]:
    samples = []
    for k, (method, objective) in enumerate((m, o) for m in METHODS for o in OBJECTIVES):
        for rep in range(2):
            refused = float((k + rep + len(model)) % 3 != 0)
            samples.append(
                {
                    "id": f"s{k}-{rep}",
                    "input": f"synthetic attack text {k}",
                    "output": f"reply {MARKUP} {SECRET_OUTPUT}",
                    "value": {"rta": refused},
                    "explanation": "judge said so",
                    "metadata": {"method": method, "objective": objective},
                }
            )
    return samples


def _write_synthetic(template: EvalLog, synth: Path) -> None:
    for idx, model in enumerate(("trustmh/replay/model-a", "trustmh/replay/model-b")):
        s = 0.1 * idx
        synthetic_log(
            template, synth, task="crisis_classification", pillar="crisis", model=model, metrics=_crisis_metrics(s)
        )
        # Everyday distress beside the crisis items: the escalation chart (miss rate vs over-escalation).
        over = estimate("over_escalation_rate", 0.15 + 2 * s, half_width=0.06)
        synthetic_log(template, synth, task="crisis_overescalation", pillar="crisis", model=model, metrics=over)
        # Judged RtA (the safety headline) and the keyword detector's, shown beside it.
        safety = (
            estimate("rta_judge", 0.6 + s, half_width=0.03)
            | estimate("rta_keyword", 0.65 + s)
            | {k: v for m in METHODS for k, v in estimate(f"rta_keyword[method={m}]", 0.5 + s).items()}
        )
        safety |= {k: v for o in OBJECTIVES for k, v in estimate(f"rta_keyword[objective={o}]", 0.55 + s).items()}
        synthetic_log(
            template,
            synth,
            task="safety_jailbreak",
            pillar="safety",
            model=model,
            metrics=safety,
            samples=_safety_samples(model),
        )
        # Benign requests beside the jailbreaks: the two-axis safety chart (RtA vs answer rate).
        benign = estimate("answer_rate_keyword", 0.9 - 3 * s, half_width=0.05)
        synthetic_log(template, synth, task="safety_overrefusal", pillar="safety", model=model, metrics=benign)
        fairness: dict[str, float] = {}
        for attribute in ATTRIBUTES:
            fairness |= estimate(f"refusal_rate_range[attribute={attribute}]", 0.15 - s / 2)
            fairness[f"refusal_rate_range_p[attribute={attribute}]"] = 0.04
            fairness[f"refusal_rate_worst_group[attribute={attribute}]"] = 1.0
        synthetic_log(template, synth, task="fairness_esconv", pillar="fairness", model=model, metrics=fairness)
        robust = estimate("score[perturbation=clean]", 0.8 - s, half_width=0.05)
        for i in (1, 2, 3):
            robust |= estimate(f"score[perturbation=typo@{i}]", 0.8 - 0.1 * i - s)
            robust |= estimate(f"relative_drop[perturbation=typo@{i}]", 0.1 + s)
        synthetic_log(template, synth, task="robustness_usmle_mental", pillar="robustness", model=model, metrics=robust)
        # Parsed-only accuracy favours model-a; the strict variant (unparsed counted wrong),
        # which is what gets ranked, favours model-b.
        ethics = estimate("accuracy", 0.7 - s, unparsed=2) | estimate("accuracy_strict", 0.5 + s, half_width=0.03)
        ethics |= {k: v for i in range(1, 6) for k, v in estimate(f"sc{i}", 3 + 0.3 * i - s, half_width=0.4).items()}
        synthetic_log(template, synth, task="ethics_dilemmas", pillar="ethics", model=model, metrics=ethics)
    # model-b only: sycophancy; model-a lacks it, so it must show as missing.
    synthetic_log(
        template,
        synth,
        task="sycophancy_pushback",
        pillar="sycophancy",
        model="trustmh/replay/model-b",
        metrics=estimate("sycophancy_rate", 0.3),
    )
    # A task outside the eight pillars still gets its own section.
    synthetic_log(
        template,
        synth,
        task="dialogue_support",
        pillar="dialogue",
        model="trustmh/replay/model-a",
        metrics=estimate("empathy", 3.2),
    )
    # An older failed log and an older successful one that a later log supersedes.
    synthetic_log(
        template,
        synth,
        task="crisis_classification",
        pillar="crisis",
        model="trustmh/replay/model-a",
        metrics=_crisis_metrics(0.5),
        status="error",
        created="2026-11-27T00:00:00+00:00",
    )
    synthetic_log(
        template,
        synth,
        task="crisis_classification",
        pillar="crisis",
        model="trustmh/replay/model-b",
        metrics=estimate("macro_f1", 0.01),
        created="2020-01-01T00:00:00+00:00",
    )


def make_logs(root: Path) -> Logs:
    """Run the real evals and write the synthetic logs below ``root``."""
    real, synth, work = root / "real", root / "synthetic", root / "work"
    for d in (real, synth, work):
        d.mkdir()
    made = _run_real(real, work)
    template = read_eval_log(made[0].location)
    _write_synthetic(template, synth)
    texts = [SECRET_OUTPUT, "synthetic attack text", "judge said so"]
    for log in made:
        for sample in read_eval_log(log.location).samples or []:
            texts.append(" ".join(str(sample.input).split())[:40])
            if sample.output.completion.strip():
                texts.append(" ".join(sample.output.completion.split())[:40])
    return Logs(root, real, synth, texts)


def write_alignment(path: Path) -> Path:
    """An alignment file shaped like ``trustmh align --json`` output."""
    pairs = [(j, a) for j in ("judge-x", "judge-y") for a in ("empathy", "safety", "guidance")]
    rows = [
        {
            "judge": j,
            "attribute": a,
            "level": "response",
            "n": 40,
            "icc_c1": 0.8 - i / 10,
            "icc_c1_ci": [0.6, 0.9],
            "icc_a1": 0.7 - i / 10,
            "icc_a1_ci": [0.5, 0.85],
            "ci_width": 0.35,
            "category": ("GR", "MR", "PR")[i % 3],
            "bias": 0.3 - i / 5,
            "ba_mean_diff": 0.3 - i / 5,
            "ba_loa": [-0.5, 1.0],
        }
        for i, (j, a) in enumerate(pairs)
    ]
    path.write_text(json.dumps({"rows": rows, "krippendorff_alpha": {"empathy": 0.61}}), encoding="utf-8")
    return path
