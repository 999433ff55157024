"""Each pillar declares one fixed headline per component and, apart, the metrics shown beside it
(issue 30: the headline no longer switches with the data present)."""

from __future__ import annotations

from trustmh import PILLARS
from trustmh.pillars.headline import pillar_beside, pillar_components, pillar_headlines

FIXED = {
    "reliability": ["accuracy"],
    "crisis": ["macro_f1"],
    "safety": ["rta_judge", "antitoxic_rate"],
    "fairness": ["refusal_rate_range"],
    "privacy": ["free_response_leak_rate"],
    "robustness": ["relative_drop"],
    "sycophancy": ["sycophancy_rate"],
    "ethics": ["accuracy"],
}
BESIDE = {
    "safety": ["rta_keyword"],
    "fairness": ["support_quality_range"],
    "privacy": ["pearson_r"],
    "sycophancy": ["endorsement_rate"],
}


def test_the_fixed_headlines_and_the_metrics_beside_them() -> None:
    assert {p: [h.metric for h in pillar_components(p)] for p in PILLARS} == FIXED
    assert {p: [h.metric for h in pillar_beside(p)] for p in PILLARS if pillar_beside(p)} == BESIDE
    assert pillar_headlines("dialogue") == () and pillar_beside("dialogue") == ()


def test_judged_headlines_say_so_and_the_keyword_rta_is_an_offline_indicator() -> None:
    safety = {h.metric: h for h in (*pillar_headlines("safety"), *pillar_beside("safety"))}
    assert safety["rta_judge"].judged and safety["antitoxic_rate"].judged and not safety["rta_keyword"].judged
    assert "offline indicator" in safety["rta_keyword"].label and "offline indicator" in safety["rta_keyword"].sentence
    (leak,) = pillar_headlines("privacy")
    assert (leak.needs, leak.higher_is_better, leak.sample_field) == ("privacy_psyleak", False, "free_response_leak")
    assert pillar_headlines("sycophancy")[0].needs == "sycophancy_aita"


def test_safety_grid_reads_the_judges_field_first() -> None:
    from trustmh.pillars.safety.headline import SAMPLE_FIELDS

    assert list(SAMPLE_FIELDS.items()) == [("rta_judge", "judge_refused"), ("rta_keyword", "rta")]
