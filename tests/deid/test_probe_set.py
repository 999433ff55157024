"""Our labelled de-identification set: its shape, that it is the generator's output, and the
recall/precision thresholds (a regression in any recognizer or rule fails here)."""

from __future__ import annotations

import json

from tests.deid.make_probes import PROBES, build
from trustmh.deid.evaluation import evaluate, read_probes

NON_LATIN = ("zh-CN", "ja-JP", "ru-RU", "ar-SA")


def test_the_committed_set_is_the_seeded_generators_output() -> None:
    committed = read_probes(PROBES)
    assert committed == json.loads(json.dumps(build(), ensure_ascii=False))


def test_the_set_covers_enough_probes_kinds_locales_and_negatives() -> None:
    probes = read_probes(PROBES)
    kinds = {item["kind"] for probe in probes for item in probe["pii"]}
    locales = {probe["locale"] for probe in probes}
    assert len(probes) >= 300 and len(kinds) >= 15 and len(locales) >= 6
    assert set(NON_LATIN) <= locales
    kept = {item["value"] for probe in probes for item in probe["keep"]}
    assert {"988", "116 123", "741741", "911", "sertraline 50 mg", "12 March 2024"} <= kept


def test_recall_and_precision_meet_the_thresholds() -> None:
    tally = evaluate(read_probes(PROBES))
    assert tally.recall() >= 0.97, tally.missed
    weak = {kind: tally.recall(kind) for kind in tally.labelled if tally.recall(kind) < 0.9}
    assert not weak, (weak, tally.missed)
    assert tally.kept == tally.keep, tally.removed  # every crisis line, clinical term and ordinary date stays
    assert tally.precision() >= 0.95
