"""De-identification on our labelled probe set: recall and precision per kind (with n), and speed.

``tests/deid/deid_probes.jsonl`` (synthetic, seeded: ``python -m tests.deid.make_probes``) holds
identifiers of 20 kinds in 10 locales (Latin, Cyrillic, Chinese, Japanese, Arabic scripts) and
values that must stay (crisis lines, clinical terms, doses, dates that are no birth date).
Speed is messages per second through :func:`trustmh.deid.find_spans` (one warm analyzer, one
core), on the probe messages (identifier-dense) and, when the shared data folder is there, on
real users' crisis messages (``llms_mh_crisis``: mostly no identifier, the audit's common case),
against the time spaCy's blank tokenizer alone takes on the same messages (Presidio's floor).

Usage: ``PYTHONPATH=src python benchmarks/deid_bench.py`` (``TRUSTMH_TEST_DATA=../shared/data``
for the real messages; ``--repeat N`` to time N passes, default 3).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from trustmh.deid import find_names, find_spans
from trustmh.deid.evaluation import evaluate, read_probes

ROOT = Path(__file__).resolve().parents[1]
PROBES = ROOT / "tests" / "deid" / "deid_probes.jsonl"
CRISIS = Path("llms_mh_crisis") / "gpt-4o-mini-labeled-sampled_dataset_n_2046_nPerD168_seed0-merged-labels.json"


def _report_quality() -> list[str]:
    probes = read_probes(PROBES)
    tally = evaluate(probes)
    locales = sorted({p["locale"] for p in probes})
    print(f"{len(probes)} probes, {len(tally.labelled)} kinds, {len(locales)} locales ({', '.join(locales)})")
    print(f"{'labelled kind':<16}{'n':>5}{'recall':>9}")
    for kind in sorted(tally.labelled):
        print(f"{kind:<16}{tally.labelled[kind]:>5}{tally.recall(kind):>9.3f}")
    print(f"{'overall':<16}{sum(tally.labelled.values()):>5}{tally.recall():>9.3f}")
    print(f"\n{'reported kind':<16}{'n':>5}{'precision':>11}")
    for kind in sorted(tally.reported):
        print(f"{kind:<16}{tally.reported[kind]:>5}{tally.precision(kind):>11.3f}")
    print(f"{'overall':<16}{sum(tally.reported.values()):>5}{tally.precision():>11.3f}")
    print(f"\nkept values left alone: {tally.kept}/{tally.keep}")
    if tally.missed or tally.removed:
        print("missed:", ", ".join(tally.missed) or "none", "| removed:", ", ".join(tally.removed) or "none")
    return [m for p in probes for m in p["messages"]]


def _per_second(messages: list[str], work: Callable[[str], object], repeat: int) -> float:
    start = time.process_time()
    for _ in range(repeat):
        for text in messages:
            work(text)
    return len(messages) * repeat / (time.process_time() - start)


def _report_speed(name: str, messages: list[str], repeat: int) -> None:
    import spacy

    tokenizer = spacy.blank("en")
    find_spans(messages[0], find_names(messages[:1]))  # the analyzer is built once, outside the timing
    rate = _per_second(messages, lambda text: find_spans(text, find_names([text])), repeat)
    floor = _per_second(messages, tokenizer, repeat)
    mean = sum(map(len, messages)) / len(messages)
    found = Counter(span.kind for text in messages for span in find_spans(text, find_names([text])))
    print(
        f"{name}: {len(messages)} messages (mean {mean:.0f} chars) x {repeat}: {rate:,.0f} messages/s CPU "
        f"({1000 / rate:.2f} ms each); spaCy's blank tokenizer alone {floor:,.0f}/s ({rate / floor:.2f} x)"
    )
    print(f"  spans reported: {dict(sorted(found.items())) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    start = time.process_time()
    probe_messages = _report_quality()
    print(f"(analyzer built and probes scored in {time.process_time() - start:.1f} s CPU)\n")
    _report_speed("probe messages", probe_messages, args.repeat)
    data = Path(os.environ.get("TRUSTMH_TEST_DATA", ROOT.parent.parent / "shared" / "data"))
    if (data / CRISIS).exists():
        rows = json.loads((data / CRISIS).read_text(encoding="utf-8"))
        _report_speed("llms_mh_crisis user messages", [t for row in rows for t in row["inputs"]], args.repeat)
    else:
        print(f"(no {data / CRISIS}: set TRUSTMH_TEST_DATA to time real messages)")


if __name__ == "__main__":
    main()
