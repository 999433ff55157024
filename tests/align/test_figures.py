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


def test_a_result_read_back_from_its_json_draws_the_same_figures(fixtures: Path) -> None:
    """The report reads `trustmh align --json` back as a typed result and draws these figures."""
    import json
    import math

    from trustmh.align import AlignmentResult
    from trustmh.align.figures import alignment_figures
    from trustmh.core.files import json_text

    result = analyze_files(
        fixtures / "human.csv", {"a": fixtures / "judge_a.csv", "b": fixtures / "judge_b.csv"}, n_boot=50
    )
    back = AlignmentResult.from_json(json.loads(json_text(result.to_json())), "align.json")

    def same(x: object, y: object) -> bool:
        if isinstance(x, float) and isinstance(y, float):
            return x == y or (math.isnan(x) and math.isnan(y))
        if isinstance(x, tuple) and isinstance(y, tuple):
            return len(x) == len(y) and all(same(a, b) for a, b in zip(x, y, strict=True))
        return x == y

    assert len(back.rows) == len(result.rows)
    for original, read in zip(result.rows, back.rows, strict=True):
        assert all(same(getattr(original, k), getattr(read, k)) for k in original.__dataclass_fields__), original
    assert [j.name for j in back.judges] == ["a", "b"] and back.levels == result.levels
    assert back.judges[0].coverage == result.judges[0].coverage
    drawn = dict(alignment_figures(result))
    redrawn = dict(alignment_figures(back))
    assert set(drawn) - set(redrawn) == {"bland-altman"}  # the item-level scatter needs the pairs
    for name, figure in redrawn.items():
        assert figure.to_plotly_json() == drawn[name].to_plotly_json(), name


def test_a_malformed_alignment_json_is_one_line(fixtures: Path) -> None:
    import pytest

    from trustmh.align import AlignmentResult
    from trustmh.core.errors import UserError

    for payload in ({"rows": 3}, [], {"rows": [{"judge": "a"}]}):
        with pytest.raises(UserError, match=r"a\.json: .*trustmh align --json"):
            AlignmentResult.from_json(payload, "a.json")
