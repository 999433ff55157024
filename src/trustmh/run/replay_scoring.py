"""``trustmh score``: recorded outputs re-scored with the replay model."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from trustmh.core.errors import UserError
from trustmh.run.logs import raise_on_failed
from trustmh.run.models import model_roles, with_redacting_models
from trustmh.run.replay_check import check_covered, load_recordings
from trustmh.run.runner import build_tasks, raise_if_stopped, stoppable_run
from trustmh.scoring.results import score_summary


def score_responses(
    task: str,
    responses: Path,
    data_dir: str | None,
    judge: str | None,
    source: str,
    log_dir: Path | None,
) -> dict[str, object]:
    """Re-score recorded outputs with the replay model; returns the ``trustmh score`` JSON."""
    from inspect_ai import eval

    import trustmh._registry  # noqa: F401  (the trustmh/replay provider)

    (built,) = build_tasks([task], source, data_dir)
    recordings = load_recordings(task, responses)  # a malformed file is its own error, whatever the data
    try:
        check_covered(task, built, recordings)
    except UserError as error:
        if (built.metadata or {}).get("trustmh_source") != "starter":
            raise
        # The usual cause: outputs recorded on the benchmark, scored against the starter items.
        raise UserError(
            f"{error} — scored against the starter suite because no benchmark data was given; "
            "add --data-dir DIR (or set TRUSTMH_DATA_DIR) to score against the benchmark dataset"
        ) from None
    roles = with_redacting_models({"model": [], "model_roles": model_roles(judge=judge)})["model_roles"]
    # Without --log-dir the logs (prompts and replies) go to a private temporary folder that is
    # removed afterwards, whatever happens: the JSON summary is the result.
    temporary = None if log_dir else tempfile.mkdtemp(prefix="trustmh-score-")
    try:
        with stoppable_run() as interrupted:  # Ctrl-C: exit 130, as `trustmh run`
            logs = eval(
                built,
                model=f"trustmh/replay/{responses.stem}",
                model_args={"responses": str(responses)},
                model_roles=roles,
                log_dir=str(log_dir or temporary),
                display="none",
                fail_on_error=True,
            )
        raise_if_stopped(interrupted, logs=logs)
        raise_on_failed(logs)
        return score_summary(logs[0])
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)
