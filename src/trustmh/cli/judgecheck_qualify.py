"""``trustmh judge-check --qualify``: a candidate judge on a labelled qualification set
(:mod:`trustmh.judgecheck.qualify`), its agreement with humans and its drift from a previous
qualification, on the console and as JSON."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trustmh.cli.bulk_options import CallOptions
from trustmh.cli.common import console
from trustmh.core.errors import UserError


@dataclass(frozen=True)
class QualifyArgs:
    judge: str | None
    qualification_set: str  # "mentalalign70k" or a JSONL file
    conversations: Path | None
    ratings: Path | None
    per_model: int
    previous: Path | None
    max_verdict_attempts: int
    n_boot: int
    seed: int
    json_out: str | None


def load_set(args: QualifyArgs) -> Any:
    from trustmh.data.registry import resolve_file
    from trustmh.judgecheck.qualification import MENTALALIGN_SET, file_set, mentalalign_set
    from trustmh.mentalalign.schema import HUMAN_FILE

    if args.qualification_set != MENTALALIGN_SET:
        return file_set(Path(args.qualification_set))
    if args.conversations is None:
        raise UserError(
            "--qualification-set mentalalign70k needs --conversations FILE: the MentalBench-100k responses "
            "(context, response, one column per model) that the MentalAlign-70k ratings are of"
        )
    ratings = args.ratings or resolve_file(MENTALALIGN_SET, HUMAN_FILE)
    return mentalalign_set(Path(ratings), args.conversations, args.per_model)


def run_qualification(args: QualifyArgs, options: CallOptions) -> None:
    """The body of ``judge-check --qualify`` (see the command's help)."""
    from trustmh.bulk.backends import parse_model
    from trustmh.bulk.dryrun import judging_estimate, make_budget
    from trustmh.bulk.judging import plan_judging
    from trustmh.core.files import json_text, write_text
    from trustmh.cost.estimate import print_estimate
    from trustmh.cost.prices import PriceTable
    from trustmh.judgecheck import qualify

    if not args.judge:
        raise UserError("--qualify needs --judge MODEL (e.g. openai/gpt-4o-mini)")
    judge = parse_model(args.judge)
    previous = qualify.read_previous(args.previous) if args.previous else None
    qset = load_set(args)
    prices = PriceTable.load(options.prices)
    if options.dry_run:
        items = plan_judging(qualify.judge_input(qset), [qualify.KEY])
        estimate = judging_estimate(items, judge, args.max_verdict_attempts, prices, options.cache_path, options.batch)
        print_estimate(console, estimate, f"trustmh judge-check --qualify --dry-run ({len(qset.items)} items)")
        return
    budget = make_budget([judge], prices, options.max_cost, options.max_tokens_total, options.batch)
    scores = qualify.ask_judge(qset, judge, options.run_settings("qualify", budget), args.max_verdict_attempts)
    record = qualify.qualify(qset, judge.spec, scores, args.n_boot, args.seed)
    drifts = []
    if previous is not None:
        assert args.previous is not None
        drifts = qualify.drift(qset, scores, previous, args.previous, args.n_boot, args.seed)
        record["drift"] = {
            "previous": str(args.previous),
            "previous_judge": previous.get("judge"),
            "fields": [d.to_json() for d in drifts],
        }
    if args.json_out:
        write_text(json_text(record), args.json_out)
    if args.json_out != "-":
        print_qualification(record, drifts, previous)
        if args.json_out:
            console.print(f"wrote {args.json_out}", soft_wrap=True, highlight=False)


def print_qualification(record: dict[str, Any], drifts: list[Any], previous: dict[str, Any] | None) -> None:
    from rich.console import Console
    from rich.table import Table

    from trustmh.cli.common import ci3 as _ci
    from trustmh.cli.common import fmt3 as _fmt

    wide = console if console.is_terminal else Console(width=150)
    qset = record["set"]
    title = (
        f"qualification of judge {record['judge']} on {qset['name']} ({qset['items']} items, rubric "
        f"{record['rubric_hash'][:6]}; {record['bootstrap']['replicates']} bootstrap replicates, 95% CI)"
    )
    table = Table(title=title)
    for name in ("field", "n", "unparsed", "ICC(A,1)", "95% CI", "bias", "bias CI", "alpha"):
        table.add_column(name, justify="left" if name == "field" else "right")
    for f in record["fields"]:
        table.add_row(
            f["field"],
            str(f["n"]),
            str(f["judge_unparsed"]),
            _fmt(f["value"]),
            _ci(f["ci"]),
            _fmt(f["bias"]),
            _ci(f["bias_ci"]),
            _fmt(f["alpha"]),
        )
    wide.print(table)
    if previous is None:
        return
    drift = Table(title=f"drift against {previous.get('judge')} (paired bootstrap of the ICC(A,1) difference)")
    for name in ("field", "n", "previous", "now", "difference", "95% CI", "verdict"):
        drift.add_column(name, justify="left" if name in ("field", "verdict") else "right")
    for d in drifts:
        verdict = "WORSE beyond the CI" if d.worse else "no drop beyond the CI"
        drift.add_row(d.field, str(d.n), _fmt(d.previous), _fmt(d.current), _fmt(d.difference), _ci(d.ci), verdict)
    wide.print(drift)
    worse = [d.field for d in drifts if d.worse]
    console.print(
        f"drift: worse beyond the CI on {', '.join(worse)}" if worse else "drift: no field worse beyond the CI",
        highlight=False,
    )
