"""`-T parser=upstream` reads EthicMH choices as TrustMH-Bench's pipeline does."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from trustmh.pillars.ethics.upstream_parsing import upstream_choice


def test_matches_every_recorded_choice_of_the_released_outputs(shared_data: Path) -> None:
    compared = 0
    with zipfile.ZipFile(shared_data / "trustmh/release/Ethics.zip") as archive:
        for name in archive.namelist():
            if not (name.startswith("Ethics/outputs/") and name.endswith(".json")):
                continue
            released = json.loads(archive.read(name))
            by_id = {str(j["sample_id"]): j for j in released["judged"]}
            for result in released["results"]:
                if "response" not in result:
                    continue  # only the parsed choice was released for this model
                recorded = by_id[str(result["sample_id"])]["model_choice_option"]
                assert upstream_choice(result["response"]["content"]) == (recorded or None), (name, result["sample_id"])
                compared += 1
    assert compared == 6 * 125


def test_the_first_letter_fallback_is_reproduced() -> None:
    from trustmh.pillars.ethics.scorers import parse_ethics_choice

    answer = "I would take a careful approach and choose C."
    assert upstream_choice(answer) == "A"  # the article "a"
    assert parse_ethics_choice(answer) == "C"
    assert upstream_choice('```json\n{"choice": "b", "reasoning": "x"}\n```') == "B"
