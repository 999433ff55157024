"""Where a reproduce row's explanation comes from: the task's declared deviations, or a release gap."""

from __future__ import annotations

import trustmh._registry  # noqa: F401  (every task, so every protocol, is declared)
from trustmh.tasking.protocol import protocol_of

# Figures upstream published without releasing what they were computed from: they can be shown,
# not re-scored. (Why trustmh's protocol differs lives in the task's declaration instead.)
RELEASE_GAPS = {
    "tier2_raw": "not re-scorable with the corrected parser: the tier 2 release keeps only upstream's parsed "
    "ratings (final_report_*), not the answers",
    "psyleak_proxy": "not re-scorable offline: upstream's proxy-model verdicts are not in the released outputs; "
    "re-judge the released answers with upstream's request: trustmh run privacy_psyleak --data-dir DATA "
    "--model trustmh/replay/MODEL -M responses=DATA/replay_trustmh --judge openai/gpt-4 -T parser=upstream "
    "(proxy_leak_rate)",
    "mentalalign_analysis": "upstream released the ratings and the tables but not the analysis code: ours is "
    "trustmh align on the released files (two-way ICCs, each judge's own family excluded, the human file's zero "
    "cells kept as upstream did); where the difference column exceeds the table's rounding (at most 0.004), no "
    "reading of the released files tried closes it, and upstream's human-evaluation table shows that the human "
    "ratings it analysed differ from the released file in the Qwen-2.5-7B and Qwen-3-4B columns "
    "(docs/reproducibility.md); the figure is not counted as reproduced",
    "ethicmh_parsed_only": "not re-scorable with the corrected parser: the release keeps only upstream's parsed "
    "choice (model_choice_option) for this model, not its answer",
}


def explanation(task: str, metric: str) -> str:
    """The declared deviation of ``task`` that explains a difference in ``metric`` ("" if none)."""
    protocol = protocol_of(task)
    deviation = protocol.explains(metric) if protocol else None
    if deviation is None:
        return ""
    return f"{deviation.what} — {deviation.why}"


def release_gap(key: str) -> str:
    return RELEASE_GAPS[key]
