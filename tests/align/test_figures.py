"""Figure builders are importable on their own and reflect the result they are given."""

from __future__ import annotations

from pathlib import Path

from trustmh.align import ALL_ATTRIBUTES, analyze_files
from trustmh.align.figures import bias_bars, bland_altman, icc_heatmap


def test_figures_from_result(fixtures: Path) -> None:
    result = analyze_files(
        fixtures / "human.csv", {"a": fixtures / "judge_a.csv", "b": fixtures / "judge_b.csv"}, n_boot=50
    )
    heat = icc_heatmap(result, "model", "icc_a1")
    assert list(heat.data[0].y) == ["a", "b"] and list(heat.data[0].x) == list(ALL_ATTRIBUTES)
    expected = result.select(level="model", judge="b", attribute="Safety")[0].icc_a1
    assert heat.data[0].z[1][ALL_ATTRIBUTES.index("Safety")] == expected
    bars = bias_bars(result, "item")
    assert [trace.name for trace in bars.data] == ["a", "b"]
    ba = bland_altman(result, ("Guidance",))
    # Merged markers still account for every valid item-level pair.
    assert sum(trace.customdata.sum() for trace in ba.data) == sum(
        result.select(level="item", judge=j, attribute="Guidance")[0].n for j in ("a", "b")
    )
