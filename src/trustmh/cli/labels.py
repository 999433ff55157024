"""``trustmh labels export | import | plan``: clinician labels out to Label Studio / Argilla / a CSV
sheet and back in as judge-check ratings (with sampling weights); how many labels a CI needs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from trustmh.cli.common import JSON_METAVAR, console, user_errors
from trustmh.core.errors import UserError

app = typer.Typer(
    help="Clinician labels: export a labelling set, import the labels, plan how many.\n\n"
    "Example: trustmh labels export logs/run.eval --format labelstudio -o tasks.json --sample 200",
    no_args_is_help=True,
)


def _log_file(path: Path) -> Path:
    """A log file, or the one log in a folder (a labelling set is drawn from one judged run)."""
    if path.is_dir():
        logs = sorted([*path.glob("*.eval"), *path.glob("*.json")])
        if len(logs) != 1:
            raise UserError(f"{path}: holds {len(logs)} logs; name the judged run's log file")
        return logs[0]
    if not path.is_file():
        raise UserError(f"{path}: no such log file or folder")
    return path


@app.command("export")
@user_errors
def export_command(
    log_dir: Annotated[
        Path,
        typer.Argument(
            help="The judged run: its inspect log, or a folder holding only it; or a detector pass folder whose "
            "sample was judged (trustmh audit --sample-judge): its conversations, on the population rates."
        ),
    ],
    output: Annotated[Path, typer.Option("-o", "--output", help="The tasks / records / sheet file to write.")],
    fmt: Annotated[str, typer.Option("--format", help="labelstudio, argilla or csv.")] = "labelstudio",
    sample: Annotated[int, typer.Option("--sample", min=1, help="How many items to draw.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the draw (same seed, same set).")] = 37,
    stratify: Annotated[
        str | None, typer.Option("--stratify", help="A judged field whose value makes the strata, e.g. judge_refused.")
    ] = None,
    allocation: Annotated[
        str | None,
        typer.Option(
            "--allocation",
            help="equal (rare strata over-drawn; the default for a run) or proportional; for an audit's judged "
            "sample also population (10 per stratum, the rest by its share of the export; its default).",
        ),
    ] = None,
    field: Annotated[
        list[str] | None, typer.Option("--field", help="Label only this rubric field (repeatable).")
    ] = None,
    blind: Annotated[bool, typer.Option("--blind", help="Hide the judge's verdicts from the clinicians.")] = False,
) -> None:
    """Draw a seeded (optionally stratified) labelling set from a judged run and write it for a labelling tool.

    Writes OUTPUT, OUTPUT's .set.json (keep it: `labels import` reads the labels back with it)
    and, for Label Studio, the labelling configuration generated from the rubric (.config.xml),
    for Argilla the dataset settings (.settings.json). Each item's inclusion probability is
    recorded so that the PPI correction and the agreement statistics can weigh by it.

    Example: trustmh labels export logs/safety.eval --format labelstudio -o tasks.json --sample 200 --stratify judge_refused --blind

    Example (an audit's judged sample, stratum by stratum, for trustmh audit --labels): trustmh labels export
    logs/audit-nov --format csv -o rates.csv --sample 600 --blind
    """
    from trustmh.audit.rate_label_set import POPULATION, export_rate_set, is_sampled_pass
    from trustmh.labels import export_set

    sampled_pass = is_sampled_pass(log_dir)
    if sampled_pass:
        if stratify is not None:
            raise UserError("a judged audit sample is drawn stratum by stratum of its own strata: drop --stratify")
        written = export_rate_set(log_dir, output, fmt, sample, seed, allocation or POPULATION, field or [], blind)
    else:
        if allocation == POPULATION:
            raise UserError("--allocation population is for an audit's judged sample (a detector pass folder)")
        how = allocation or "equal"
        written = export_set(_log_file(log_dir), output, fmt, sample, seed, stratify, how, field or [], blind)
    labelset = written.labelset
    strata = ", ".join(f"{name} {s['drawn']}/{s['size']}" for name, s in labelset.sampling["strata"].items())
    console.print(
        f"{len(labelset.items)} items of {labelset.sampling['population']} (drawn/size per stratum: {strata}); "
        f"fields: {', '.join(f.name for f in labelset.fields)}; {'blind' if blind else 'judge verdicts shown as pre-annotations'}",
        soft_wrap=True,
        highlight=False,
    )
    for path in written.files:
        console.print(f"wrote {path}", soft_wrap=True, highlight=False)
    short = [name for name, s in labelset.sampling["strata"].items() if s["drawn"] < 2]
    if sampled_pass and short:
        console.print(
            f"warning: strata {', '.join(short)} get fewer than 2 labels; trustmh audit --labels cannot correct the "
            "rates without 2 in every stratum: draw a larger --sample",
            soft_wrap=True,
            highlight=False,
        )


@app.command("import")
@user_errors
def import_command(
    files: Annotated[
        list[Path], typer.Argument(help="Label Studio JSON exports, Argilla records (.json) or filled sheets (.csv).")
    ],
    set_file: Annotated[Path, typer.Option("--set", help="The .set.json that `labels export` wrote.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="The ratings CSV to write (judge-check --human).")],
    log: Annotated[Path | None, typer.Option("--log", help="The run: refuse labels made for another rubric.")] = None,
) -> None:
    """Read clinicians' labels back into judge-check's ratings (sample_id, field, rater, score, turn, weight).

    Skipped / cancelled / discarded items are counted, not scored. A label for an item not in
    the set, a value off the field's scale, or labels made with another rubric is one line (exit 2).

    Example: trustmh labels import export.json --set tasks.set.json -o ratings.csv --log logs/safety.eval
    """
    from trustmh.core.files import write_text
    from trustmh.judgecheck.ratings import ratings_csv
    from trustmh.labels import import_labels

    imported = import_labels(files, set_file, log)
    if not imported.ratings:
        raise UserError(f"no labels in {', '.join(map(str, files))} (skipped: {sum(imported.skipped.values())})")
    write_text(ratings_csv(imported.ratings), output)
    raters = sorted({r.rater for r in imported.ratings} | set(imported.skipped))
    for rater in raters:
        mine = [r for r in imported.ratings if r.rater == rater]
        console.print(
            f"{rater}: {len({r.sample_id for r in mine})} items labelled, {len(mine)} ratings, "
            f"{imported.skipped[rater]} skipped (not scored), {imported.unanswered[rater]} fields left empty",
            soft_wrap=True,
            highlight=False,
        )
    console.print(f"wrote {output}", soft_wrap=True, highlight=False)


@app.command("plan")
@user_errors
def plan_command(
    log: Annotated[Path, typer.Option("--log", help="The judged run (its judge scores are the population).")],
    field: Annotated[str, typer.Option("--field", help="A numeric judged field (a scale or a 0/1 rate).")],
    target_width: Annotated[
        float, typer.Option("--target-width", min=1e-9, help="Full width of the 95% CI wanted.")
    ] = 0.05,
    human: Annotated[
        Path | None, typer.Option("--human", help="Pilot labels (ratings CSV) to measure the variances.")
    ] = None,
    json_out: Annotated[
        str | None,
        typer.Option("--json", metavar=JSON_METAVAR, help="Also write the plan as JSON to FILE, or - for stdout."),
    ] = None,
) -> None:
    """How many clinician labels a 95% CI of --target-width needs: labels alone and with PPI.

    Example: trustmh labels plan --log logs/safety.eval --field judge_refused --target-width 0.05 --human pilot.csv
    """
    from trustmh.core.files import write_json
    from trustmh.labels.plan_run import plan_for_run

    plan = plan_for_run(_log_file(log), field, target_width, human)
    if json_out:
        write_json(plan.to_json(), json_out)
    if json_out == "-":
        return
    console.print(
        f"{field}: labels for a 95% CI of width {target_width:g} out of {plan.population} judged items", highlight=False
    )
    for row in plan.rows:
        console.print(
            f"  {row['labels']:>6}  {row['how']} (variance {row['variance']:.4g})", highlight=False, soft_wrap=True
        )
        if "warning" in row:
            console.print(f"          {row['warning']}", highlight=False, soft_wrap=True)
