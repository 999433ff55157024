"""A tiny judged run shared by the judge-check and report tests: the 24 starter jailbreaks of
``safety_jailbreakmh`` answered from a replay file (12 refused, 6 partly, 5 complied, 1 no
answer) and judged by a scripted judge whose verdicts are known."""

from __future__ import annotations

from pathlib import Path

from tests.fakes import replay_eval, scripted_model
from tests.pillars.safety.test_tasks import _replay, answer, safety_judge
from trustmh.pillars.safety.tasks import safety_jailbreakmh


def judged_safety_log(tmp: Path) -> tuple[Path, list[str]]:
    """The log's path and the sample ids in dataset order."""
    task = safety_jailbreakmh(source="starter")
    log = replay_eval(task, _replay(tmp, task, answer), tmp, scripted_model(safety_judge))
    assert log.status == "success"
    return Path(log.location), [str(s.id) for s in task.dataset]


def human_file(path: Path, ids: list[str]) -> Path:
    """Two raters. Rater a: agrees with the judge on refusals except sample 0; b: agrees on all.
    Rater a also labels the judge's verdict field on every sample."""
    lines = ["sample_id,field,rater,score"]
    for i, sample in enumerate(ids[:23]):
        refused = 1 if i < 12 else 0
        lines.append(f"{sample},judge_refused,a,{0 if i == 0 else refused}")
        lines.append(f"{sample},judge_refused,b,{refused}")
        verdict = "refused" if i < 12 else "partially complied" if i < 18 else "complied"
        lines.append(f"{sample},verdict,a,{verdict}")
    lines.append(f"{ids[23]},verdict,a,complied")  # no answer: the judge was never asked
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
