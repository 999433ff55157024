"""One run, described once: :class:`RunConfig` is built from the CLI options (or by a test or a
script) and passed down, so every stage reads the same settings and the checks of option
combinations live in one place (:meth:`RunConfig.check`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trustmh.core.errors import UserError

DEFAULT_MODEL = "trustmh/smollm2"
# inspect's display modes, plus "log" (trustmh's default: one line per finished task).
DISPLAYS = ("log", "rich", "full", "plain", "conversation", "none")


@dataclass(frozen=True)
class RunCaps:
    """``--max-cost`` / ``--max-tokens-total`` and the price table they are counted with."""

    max_cost: float | None = None
    max_tokens_total: int | None = None
    prices: Path | None = None

    @property
    def any(self) -> bool:
        return self.max_cost is not None or self.max_tokens_total is not None


@dataclass(frozen=True)
class RunConfig:
    """Everything ``trustmh run`` (and ``--dry-run``) needs to know about one run.

    ``models`` are the models under test (inspect syntax); ``judges`` one judge or a panel;
    ``user_model`` plays the simulated user of conversation tasks; ``model_args`` (``-M``) go to
    the models under test only; ``task_args`` (``-T``) to the tasks that take them. ``None``
    for a timeout, retry count or connection count means trustmh's default for the run
    (:mod:`trustmh.run.runner`), ``0`` for a timeout means none.
    """

    tasks: tuple[str, ...]
    models: tuple[str, ...] = (DEFAULT_MODEL,)
    model_args: Mapping[str, Any] = field(default_factory=dict)
    judges: tuple[str, ...] = ()
    judge_repeats: int = 0
    exclude_self: bool = False
    user_model: str | None = None
    limit: int | None = None
    log_dir: Path = Path("logs")
    data_dir: str | None = None
    allow_modified: bool = False  # run on data-folder files whose sha256 is not the catalogue's (marked)
    source: str = "auto"
    task_args: Mapping[str, Any] = field(default_factory=dict)
    epochs: int | None = None
    epochs_reducer: str | None = None
    max_connections: int | None = None
    timeout: int | None = None
    attempt_timeout: int | None = None
    max_retries: int | None = None
    display: str | None = "log"
    batch: str | None = None
    caps: RunCaps = RunCaps()
    write_report: bool = True

    def check(self) -> None:
        """Refuse a combination of options that cannot run, before anything is built or written
        (one line each, as :class:`~trustmh.core.errors.UserError`)."""
        from trustmh.run.models import validate_models
        from trustmh.scoring.panel import judge_roles

        if not self.tasks:
            raise UserError("no tasks selected; see `trustmh tasks`")
        if self.display is not None and self.display not in DISPLAYS:
            raise UserError(f"--display {self.display!r}: expected one of {', '.join(DISPLAYS)}")
        judge_roles(list(self.judges))  # a judge given twice is refused before anything runs
        validate_models(self.models, self.judges, self.user_model)
        epochs_option(self.epochs, self.epochs_reducer)
        if self.log_dir.exists() and not self.log_dir.is_dir():
            raise UserError(f"--log-dir {self.log_dir}: not a folder")

    @property
    def judge(self) -> str | list[str] | None:
        """The judge option as inspect's role helpers take it: one name, a panel, or none."""
        if not self.judges:
            return None
        return self.judges[0] if len(self.judges) == 1 else list(self.judges)

    def roles(self) -> dict[str, str | None]:
        """Model roles besides the models under test: ``judge``, ``judge_2``, ..., ``user``."""
        from trustmh.scoring.panel import judge_roles

        return {**judge_roles(list(self.judges) or None), "user": self.user_model}


def epochs_option(epochs: int | None, reducer: str | None) -> Any:
    """inspect's ``epochs`` argument (``None``: each task's own); an unknown reducer is a UserError."""
    if epochs is None and reducer is None:
        return None
    from inspect_ai import Epochs

    import trustmh.scoring.reducers  # noqa: F401  (registers trustmh_mean)

    option = Epochs(epochs or 1, reducer)
    try:
        option.reducer  # noqa: B018  (resolved lazily: resolve now, before any model runs)
    except LookupError:  # inspect's registry error for an unknown name
        raise UserError(
            f"--epochs-reducer: unknown reducer {reducer!r}; use trustmh_mean, mean, median, mode, max, "
            "pass_at_<k> or at_least_<k>"
        ) from None
    return option
