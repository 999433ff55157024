"""``trustmh judge-check``: a run's judge verdicts against human ratings, field by field.

A command of its own rather than an ``align`` option: ``align`` reads MentalBench's wide
xlsx files (one column per response model, seven fixed attributes) and reports model- and
item-level ICCs; judge-check reads any run's log (any judged field, scales *and* labels) and
a long-format human file. Both compute from the same ``trustmh.stats`` functions.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from trustmh.cli.bulk_options import CallOptions, with_call_options
from trustmh.cli.common import JSON_METAVAR, ci3, console, fmt3, user_errors
from trustmh.core.errors import UserError
from trustmh.core.files import write_text

if TYPE_CHECKING:
    from trustmh.judgecheck import JudgeCheck
    from trustmh.judgecheck.verdicts import JudgeVerdicts

HELP = """Agreement of a judge with human raters: ICC(A,1) for scales, Cohen's kappa (one human
rater) or Fleiss' kappa (several) for labels, Krippendorff's alpha, bias (judge - human) and
n, with 95% bootstrap CIs; precision/recall for yes/no fields. For every field that is a mean
or a rate, the judge's mean over the whole run corrected by the human labels (PPI++), beside
the judge-only and the human-only means: the labelled samples must be a random sample of the
run's samples. The JSON records what the correction was calibrated on (label file and sha256,
judge, the run's judge fingerprints).

--human is a CSV (or .jsonl) with columns sample_id, field, rater, score: one row per rating,
sample_id = the run's sample id, field = a score field or judge verdict field of the log
(e.g. judge_refused, harmfulness, verdict), score = a number or a label. An optional turn
column (1-based, as in the transcript) rates one turn of a conversation task against that
turn's verdict (e.g. dcs at turn 5 of crisis_psychosis_bench); the items are then turns.
--scale FIELD=LOW-HIGH declares a field's scale: a human score off it (or a label) is an error
naming the file, line and field, as a non-finite score or a field mixing numbers and labels is.
An optional weight column (1 / inclusion probability, written by trustmh labels import) weighs
each label in the PPI correction and in the raters' own agreement (AC1/AC2, Fleiss' kappa,
alpha, weighted Cohen's kappa per pair), shown for fields rated by two raters or more.

Examples:

  trustmh judge-check --log logs/safety-jailbreakmh.eval --human ratings.csv --json validation.json

  trustmh judge-check --log logs/safety-psyharm.eval --human ratings.csv --scale harmfulness=1-5

  trustmh report logs/ -o report.html --judge-validation validation.json

  # per-turn ratings of a conversation task (CSV header sample_id,turn,field,rater,score)
  trustmh judge-check --log logs/crisis-psychosis-bench.eval --human turn_ratings.csv

  # the refusal detector on recorded answers, partial refusals counted as refusals
  trustmh judge-check --detector refusal --responses DATA/replay_trustmh/psyleak \\
  --human tests/scoring/refusal_labels.csv --binary refusal=refused,partial

--qualify runs a candidate judge on a labelled qualification set and reports its agreement
with the humans (ICC(A,1), bias, alpha with 95% CIs); --previous compares it with an earlier
qualification on the same set (drift: worse beyond the CI of the paired difference). The set
mentalalign70k is built at run time from MentalAlign-70k's human ratings (a fixed seeded
sample, --per-model pairs of each response model); --qualification-set FILE takes your own.
The model options (--base-url, --api-key-env, --cache, --max-cost, --dry-run ...) are
trustmh judge's.

  trustmh judge-check --qualify --judge openai/gpt-4o-mini --conversations mentalbench100k.csv \\
  --json qual-gpt-4o-mini.json

  trustmh judge-check --qualify --judge openai/gpt-4.1-mini --conversations mentalbench100k.csv \\
  --previous qual-gpt-4o-mini.json --json qual-gpt-4.1-mini.json
"""


def print_tables(result: JudgeCheck) -> None:
    """The per-field table (and precision/recall of yes/no fields) on the console."""
    from rich.console import Console
    from rich.table import Table

    wide = console if console.is_terminal else Console(width=150)  # piped output keeps every column
    title = f"judge {result.verdicts.judge} vs human raters ({result.n_boot} bootstrap replicates, 95% CI)"
    table = Table(title=title)
    for name in (
        "field",
        "kind",
        "n",
        "raters",
        "agreement",
        "value",
        "95% CI",
        "alpha",
        "alpha CI",
        "bias",
        "bias CI",
    ):
        table.add_column(name, justify="left" if name in ("field", "kind", "agreement") else "right")
    table.add_column("unparsed / not judged", justify="right")
    for row in result.fields:
        table.add_row(
            row.field if row.unit == "sample" else f"{row.field} (per turn)",
            row.kind,
            str(row.n),
            str(len(row.raters)),
            row.agreement,
            fmt3(row.value),
            ci3(row.ci),
            fmt3(row.alpha),
            ci3(row.alpha_ci),
            fmt3(row.bias),
            ci3(row.bias_ci),
            f"{row.judge_unparsed} / {row.not_judged}",
        )
    wide.print(table)
    binary = [row for row in result.fields if row.kind == "binary"]
    if binary:
        calls = Table(title="yes/no fields: the judge's 1 as a call, the human majority as truth (Wilson 95% CI)")
        for name in ("field", "TP", "FP", "FN", "TN", "precision", "95% CI", "recall", "95% CI "):
            calls.add_column(name, justify="left" if name == "field" else "right")
        for row in binary:
            c = row.confusion
            calls.add_row(
                row.field,
                *(str(c[k]) for k in ("tp", "fp", "fn", "tn")),
                fmt3(row.precision),
                ci3(row.precision_ci),
                fmt3(row.recall),
                ci3(row.recall_ci),
            )
        wide.print(calls)
    print_corrections(result, wide)
    print_clinicians(result, wide)


def print_clinicians(result: JudgeCheck, wide: Any) -> None:
    """Per field rated by several humans: their agreement among themselves (the judge's ceiling)."""
    from rich.table import Table

    rows = [row for row in result.fields if row.clinicians]
    if not rows:
        return
    table = Table(title="the human raters among themselves (95% CI): the most a judge can be asked to agree")
    for name in ("field", "n", "raters", "AC1 / AC2", "Fleiss' kappa", "alpha", "pairwise weighted kappa"):
        table.add_column(name, justify="left" if name in ("field", "pairwise weighted kappa") else "right")
    for row in rows:
        c = row.clinicians or {}
        pairs = "; ".join(
            f"{p['raters'][0]}-{p['raters'][1]} {fmt3(p['cohen_kappa']['value'])} (n={p['n']})" for p in c["pairs"]
        )
        table.add_row(
            row.field,
            str(c["n"]),
            str(len(c["raters"])),
            f"{c['gwet_name']} {fmt3(c['gwet_ac']['value'])} {ci3(c['gwet_ac']['ci'])}",
            f"{fmt3(c['fleiss_kappa']['value'])} {ci3(c['fleiss_kappa']['ci'])}",
            f"{fmt3(c['krippendorff_alpha']['value'])} {ci3(c['krippendorff_alpha']['ci'])}",
            pairs,
        )
    wide.print(table)


def print_corrections(result: JudgeCheck, wide: Any) -> None:
    """Per mean/rate field: judge-only, human-only and the PPI++ corrected mean (95% CIs)."""
    from rich.table import Table

    rows = [row for row in result.fields if row.correction and "skipped" not in row.correction]
    if not rows:
        return
    table = Table(
        title="the judge's mean corrected by the human labels (PPI++, 95% CI; the corrected one is the estimate)"
    )
    for name in ("field", "labels", "unlabelled", "judge-only", "human-only", "corrected", "lambda", "labels gained"):
        table.add_column(name, justify="left" if name == "field" else "right")
    for row in rows:
        c = row.correction or {}
        table.add_row(
            row.field,
            f"{c['n_labelled']}{' (weighted)' if c.get('weighted') else ''}",
            str(c["n_unlabelled"]),
            f"{fmt3(c['judge_only']['value'])} {ci3(c['judge_only']['ci'])}",
            f"{fmt3(c['human_only']['value'])} {ci3(c['human_only']['ci'])}",
            f"{fmt3(c['estimate'])} {ci3(c['ci'])}",
            f"{c['lam']:.2f}",
            f"{c['effective_n_gained']:+.0f}",
        )
    wide.print(table)
    for row in rows:
        if (row.correction or {}).get("warning"):
            wide.print(f"{row.field}: {(row.correction or {})['warning']}", markup=False)


def load_verdicts(
    log: Path | None, detector: str | None, responses: Path | None, judge_ratings: Path | None, judge_rater: str | None
) -> JudgeVerdicts:
    """The judge side from exactly one of --log, --detector/--responses, --judge-ratings."""
    from trustmh.judgecheck import verdicts

    given = [
        name for name, value in (("--log", log), ("--detector", detector), ("--judge-ratings", judge_ratings)) if value
    ]
    if len(given) != 1:
        raise UserError("give exactly one of --log LOG, --detector NAME --responses PATH, --judge-ratings FILE")
    if detector is not None:
        if responses is None:
            raise UserError("--detector needs --responses (recorded answers: a .jsonl file or a folder of them)")
        return verdicts.from_detector(detector, responses)
    if responses is not None:
        raise UserError("--responses goes with --detector")
    if judge_ratings is not None:
        return verdicts.from_ratings_file(judge_ratings, judge_rater)
    assert log is not None
    return verdicts.from_log(log)


@user_errors
@with_call_options
def judge_check_command(
    human: Path | None = typer.Option(
        None, "--human", help="Human ratings: CSV or .jsonl with sample_id, field, rater, score (and optionally turn)."
    ),
    log: Path | None = typer.Option(None, "--log", help="The run's inspect log (.eval or .json) holding the verdicts."),
    detector: str | None = typer.Option(None, "--detector", help="Check a detector instead of a judge: refusal."),
    responses: Path | None = typer.Option(
        None, "--responses", help="With --detector: recorded answers ({id, output} .jsonl, or a folder of them)."
    ),
    judge_ratings: Path | None = typer.Option(
        None, "--judge-ratings", help="The judge's verdicts as a long-format file instead of a log."
    ),
    judge_rater: str | None = typer.Option(None, "--judge-rater", help="With --judge-ratings: the judge's rater name."),
    binary: list[str] | None = typer.Option(
        None, "--binary", help="FIELD=LABEL[,LABEL]: code the field 1 when it is one of these labels (both sides)."
    ),
    kind: list[str] | None = typer.Option(
        None, "--kind", help="FIELD=scale|nominal|binary: override the kind guessed from the values."
    ),
    scale: list[str] | None = typer.Option(
        None, "--scale", help="FIELD=LOW-HIGH: the field's declared scale; a human score off it is an error."
    ),
    bootstrap: int = typer.Option(1000, "--bootstrap", help="Bootstrap replicates for the 95% CIs (0 = no CIs)."),
    seed: int = typer.Option(20240607, "--seed", help="Random seed of the bootstrap."),
    json_out: str | None = typer.Option(
        None,
        "--json",
        metavar=JSON_METAVAR,
        help="Write the result as JSON to FILE (the report's --judge-validation), or - for stdout.",
    ),
    qualify: bool = typer.Option(
        False, "--qualify", help="Qualify a candidate judge (--judge) on a labelled qualification set instead."
    ),
    judge: str | None = typer.Option(None, "--judge", help="With --qualify: the candidate judge model."),
    qualification_set: str = typer.Option(
        "mentalalign70k",
        "--qualification-set",
        help="With --qualify: mentalalign70k (built at run time) or your own JSONL set {id, context, response, labels}.",
    ),
    conversations: Path | None = typer.Option(
        None,
        "--conversations",
        help="With the mentalalign70k set: the MentalBench-100k responses file (context, response, a column per model).",
    ),
    mentalalign_ratings: Path | None = typer.Option(
        None, "--mentalalign-ratings", help="With the mentalalign70k set: human_judge.xlsx (default: the data folder)."
    ),
    per_model: int = typer.Option(10, "--per-model", help="With the mentalalign70k set: items per response model."),
    previous: Path | None = typer.Option(
        None, "--previous", help="With --qualify: a previous qualification's --json file, to test for drift."
    ),
    max_verdict_attempts: int = typer.Option(
        3, "--max-verdict-attempts", min=1, max=10, help="With --qualify: asks per item before a verdict is unparsed."
    ),
    *,
    options: CallOptions,
) -> None:
    if qualify:
        from trustmh.cli.judgecheck_qualify import QualifyArgs, run_qualification

        args = QualifyArgs(
            judge,
            qualification_set,
            conversations,
            mentalalign_ratings,
            per_model,
            previous,
            max_verdict_attempts,
            bootstrap,
            seed,
            json_out,
        )
        run_qualification(args, options)
        return
    if human is None:
        raise UserError("give --human FILE (the human ratings), or --qualify --judge MODEL to qualify a judge")
    if log is not None and detector is None and judge_ratings is None:
        from trustmh.cli.audit_review import review_detector_flags

        if review_detector_flags(log, human, json_out):  # an audit without a judge: its detectors' precision
            return
    from trustmh.core.files import json_text
    from trustmh.judgecheck import check
    from trustmh.judgecheck.fields import parse_binary, parse_kinds
    from trustmh.judgecheck.ratings import parse_scales, read_ratings

    scales = parse_scales(scale or [])
    kinds, coded = {**dict.fromkeys(scales, "scale"), **parse_kinds(kind or [])}, parse_binary(binary or [])
    judged = load_verdicts(log, detector, responses, judge_ratings, judge_rater)
    result = check(read_ratings(human, scales), str(human), judged, kinds, coded, n_boot=bootstrap, seed=seed)
    if json_out:
        write_text(json_text(result.to_json()), json_out)
    if json_out != "-":
        print_tables(result)
        if json_out:
            console.print(f"wrote {json_out}", soft_wrap=True, highlight=False)


def register(app: typer.Typer) -> None:
    """Add ``trustmh judge-check`` to the main app."""
    app.command("judge-check", help=HELP)(judge_check_command)
