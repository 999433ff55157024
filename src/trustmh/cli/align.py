"""``trustmh align``: how far do LLM judges agree with human experts (MentalAlign)?

Heavy modules (pandas, the analysis, plotly) are imported inside the command so that
registering it costs nothing for the other commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

import typer

from trustmh.cli.common import JSON_METAVAR, console, deprecated, err_console, user_errors
from trustmh.core.errors import NothingUsableError, UserError
from trustmh.core.files import write_text
from trustmh.mentalalign.schema import MENTALBENCH_MIN_SCORE, SCORE_MAX

if TYPE_CHECKING:
    from trustmh.align import AlignmentResult

HELP = """Judge-human reliability: ICC(C,1), ICC(A,1) with bootstrap CIs, bias, MSE, r, CCC,
Bland-Altman and Krippendorff's alpha per judge and attribute (plus CSS / ARS). Per judge,
response model and attribute, the judge's mean corrected by the human ratings (PPI++): where the
judge scored conversations the humans did not, the human-rated ones (a random sample, assumed)
correct the judge's mean over all of them.

Files are xlsx or csv with a ConvID column and one <prefix>_<model> column per response
model (human_response_* in --human, judge_response_* in each --judge-ratings, e.g. the output of
trustmh judge). Only cells both files rate are compared (same ConvID and response model);
what only one side rates is left out and counted in a note.

Example (MentalAlign-70k, each judge's own model family excluded):

  trustmh align --human human_judge.xlsx --judge-ratings claude=claude_llm_judge.xlsx \\
  --judge-ratings gpt-4o=gpt-4o_llm_judge.xlsx --exclude claude=claude --exclude gpt-4o=gpt4o \\
  --json align.json --html align.html

Exit codes: 2 for a bad file or option; 4 when no cell is rated by both sides (nothing is written).

Example (your own responses, judged by trustmh judge, against your human ratings of them):

  trustmh align --human my_ratings.csv --judge-ratings gpt-4o=judged.csv --json align.json
"""


def parse_pairs(values: list[str], option: str, example: str) -> list[tuple[str, str]]:
    """``NAME=VALUE`` option values as pairs; a malformed value is a one-line UserError."""
    pairs = []
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name.strip() or not rest.strip():
            raise UserError(f"{option} {value!r}: expected NAME=VALUE, e.g. {option} {example}")
        pairs.append((name.strip(), rest.strip()))
    return pairs


def judge_paths(values: list[str]) -> dict[str, Path]:
    """``--judge-ratings NAME=FILE`` values as an ordered mapping; names must be unique."""
    out: dict[str, Path] = {}
    for name, path in parse_pairs(values, "--judge-ratings", "claude=claude_llm_judge.xlsx"):
        if name in out:
            raise UserError(f"--judge-ratings {name}={path}: judge name {name!r} given twice")
        out[name] = Path(path)
    return out


def exclusions(values: list[str]) -> dict[str, list[str]]:
    """``--exclude NAME=KEY[,KEY...]`` values merged per judge."""
    out: dict[str, list[str]] = {}
    for name, keys in parse_pairs(values, "--exclude", "claude=claude"):
        out.setdefault(name, []).extend(k.strip() for k in keys.split(",") if k.strip())
    return out


def print_table(result: AlignmentResult, level: str) -> None:
    """ICC table of one level on the console."""
    from rich.table import Table

    def fmt(value: float) -> str:
        return "-" if value != value else f"{value:.3f}"

    table = Table(title=f"{level}-level agreement with human ratings ({result.n_boot} bootstrap replicates)")
    for name in (
        "judge",
        "attribute",
        "n",
        "ICC(C,1)",
        "95% CI",
        "ICC(A,1)",
        "CI width",
        "CI cat.",
        "bias",
        "unparsed",
    ):
        table.add_column(name, justify="left" if name in ("judge", "attribute") else "right")
    for row in result.select(level=level):
        table.add_row(
            row.judge,
            row.attribute,
            str(row.n),
            fmt(row.icc_c1),
            f"[{fmt(row.icc_c1_ci[0])}, {fmt(row.icc_c1_ci[1])}]",
            fmt(row.icc_a1),
            fmt(row.ci_width),
            row.category or "-",
            fmt(row.bias),
            str(row.unparsed),
        )
    # Piped output would be cut to 80 columns, truncating the numbers; use a wider console.
    from rich.console import Console

    (console if console.is_terminal else Console(width=130)).print(table)


def print_corrected(result: AlignmentResult) -> None:
    """The corrected attribute means of the response models some of whose judged conversations
    no human rated (elsewhere the corrected mean is the human mean); one line when there are none."""
    from rich.console import Console
    from rich.table import Table

    def fmt(value: float) -> str:
        return "-" if value != value else f"{value:.3f}"

    rows = [r for r in result.corrected if r["n_unlabelled"] > 0]
    if not rows:
        console.print(
            "corrected means (PPI++): every conversation a judge scored was rated by the humans too, so the "
            "corrected mean is the human mean (in the JSON's corrected_means)",
            highlight=False,
        )
        return
    table = Table(title="attribute means per response model corrected by the human ratings (PPI++, 95% CI)")
    for name in ("judge", "model", "attribute", "labels", "judged only", "judge-only", "human-only", "corrected"):
        table.add_column(name, justify="left" if name in ("judge", "model", "attribute") else "right")
    for r in rows:
        table.add_row(
            r["judge"],
            r["model"],
            r["attribute"],
            str(r["n_labelled"]),
            str(r["n_unlabelled"]),
            *(
                f"{fmt(v['value'])} [{fmt(v['ci'][0])}, {fmt(v['ci'][1])}]"
                for v in (r["judge_only"], r["human_only"], {"value": r["estimate"], "ci": r["ci"]})
            ),
        )
    (console if console.is_terminal else Console(width=150)).print(table)


def print_coverage_notes(result: AlignmentResult) -> None:
    """What was left out because only one side rated it (stderr)."""
    for data in result.judges:
        note = data.coverage.note(data.name, result.human_path) if data.coverage else None
        if note:
            err_console.print(f"note: {note}", highlight=False)


@user_errors
def align_command(
    human: Path = typer.Option(..., "--human", help="Human ratings (xlsx or csv) with human_response_<model> columns."),
    judge_ratings: list[str] | None = typer.Option(
        None, "--judge-ratings", help="NAME=FILE of one LLM judge's ratings; repeat per judge."
    ),
    judge: list[str] | None = typer.Option(
        None, "--judge", hidden=True, help="Deprecated name of --judge-ratings (--judge names a model elsewhere)."
    ),
    exclude: list[str] | None = typer.Option(
        None,
        "--exclude",
        help="NAME=KEY: leave response model KEY out when measuring judge NAME (its own family); repeatable, KEY may be a comma list.",
    ),
    level: str = typer.Option(
        "both",
        "--level",
        help="model (per response-model means, as MentalBench), item (every response, cluster bootstrap over conversations) or both.",
    ),
    bootstrap: int = typer.Option(
        1000, "--bootstrap", help="Bootstrap replicates for the 95% percentile CIs (0 = no CIs)."
    ),
    seed: int = typer.Option(20240607, "--seed", help="Random seed of the bootstrap."),
    min_score: float = typer.Option(
        MENTALBENCH_MIN_SCORE,
        "--min-score",
        help="Lowest valid score. Default 0 keeps the human file's all-zero cells as MentalBench did (reproduces its figures; the Python API's default too); 1 excludes them and counts them as unparsed.",
    ),
    json_out: str | None = typer.Option(
        None, "--json", metavar=JSON_METAVAR, help="Write the full result as JSON to FILE, or - for stdout."
    ),
    html_out: Path | None = typer.Option(
        None, "--html", help="Write a self-contained offline HTML report (tables and figures)."
    ),
) -> None:
    from trustmh.align import analyze_files
    from trustmh.core.files import json_text

    if judge:  # the former name, kept for a release
        deprecated("align --judge NAME=FILE", "--judge-ratings NAME=FILE (--judge names a judge model everywhere else)")
    ratings = [*(judge_ratings or []), *(judge or [])]
    if not ratings:
        raise UserError("--judge-ratings NAME=FILE is required (one LLM judge's ratings; repeat per judge)")
    if level not in ("model", "item", "both"):
        raise UserError(f"--level {level}: expected model, item or both")
    if not 0 <= min_score <= SCORE_MAX:
        raise UserError(f"--min-score {min_score}: expected a value between 0 and {SCORE_MAX:g}")
    result = analyze_files(
        human,
        judge_paths(ratings),
        exclusions(exclude or []),
        level=cast(Literal["model", "item", "both"], level),  # checked just above
        n_boot=bootstrap,
        seed=seed,
        score_range=(min_score, SCORE_MAX),
    )
    print_coverage_notes(result)
    if not any(row.n for row in result.rows):
        # Tables and charts of nothing would read as a result (issue 30): exit 4, write nothing.
        raise NothingUsableError(
            "nothing to compare: no cell is rated by both the human file and a judge (n = 0 for every "
            "judge and attribute); check that ConvID values and response-model columns match"
        )
    # Render everything before writing anything, so a failure leaves no half-written output.
    outputs: list[tuple[str, str]] = []
    if json_out:
        outputs.append((json_text(result.to_json()), json_out))
    if html_out:
        from trustmh.align.report import render_html

        outputs.append((render_html(result), str(html_out)))
    for text, destination in outputs:
        write_text(text, destination)
    if json_out != "-":
        if min_score < 1:
            err_console.print(
                "note: scores below 1 (e.g. the 33 all-zero human cells of MentalAlign-70k) are kept as "
                "MentalBench did; use --min-score 1 to exclude them and count them as unparsed"
            )
        for shown in result.levels:
            print_table(result, shown)
        print_corrected(result)
        for _, destination in outputs:
            console.print(f"wrote {destination}")


def register(app: typer.Typer) -> None:
    """Add ``trustmh align`` to the main app."""
    app.command("align", help=HELP)(align_command)


def _standalone() -> None:
    """``python -m trustmh.cli.align``: the command alone, without the rest of the CLI."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    register(app)
    app()


if __name__ == "__main__":
    _standalone()
