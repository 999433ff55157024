"""``trustmh generate`` and ``trustmh judge``: MentalBench generation and judging in bulk.

Runnable on its own as ``python -m trustmh.cli.bulk`` (the tests start it that way).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from trustmh.bulk.backends import MODEL_SYNTAX, parse_model
from trustmh.bulk.generate import generate, load_conversations, parse_model_columns
from trustmh.bulk.judging import judge_table, select_keys
from trustmh.bulk.request import GenerationParams
from trustmh.bulk.session import RunReport
from trustmh.bulk.tables import check_table_suffix, first_rows, read_table, write_table
from trustmh.cli.bulk_options import CallOptions, Output, with_call_options
from trustmh.cli.common import console, judge_option, user_errors
from trustmh.core.errors import IncompleteRunError, NothingUsableError, UserError
from trustmh.core.files import write_json
from trustmh.core.paths import check_output_file
from trustmh.mentalalign.rubric import GENERATION_MAX_TOKENS, GENERATION_PROMPT, GENERATION_TEMPERATURE
from trustmh.scoring.rubric import Rubric

GENERATE_HELP = f"""Generate a response from each model for each conversation (MentalBench wide format).

Models: {MODEL_SYNTAX}; name the output column with COLUMN=MODEL.
Each context is sent inside MentalBench's generation prompt ("You are a licensed psychiatrist
...", --prompt-template) as the only message, at temperature 0.7 with 512 tokens, as MentalBench.
The API key is read from $OPENAI_API_KEY (or --api-key-env NAME; anthropic/ models:
$ANTHROPIC_API_KEY), never from the command line.
Calls are cached (--cache): a rerun after an interruption resumes without paying twice.

Example: trustmh generate --conversations mentalbench.csv --model gpt4o=openai/gpt-4o
--base-url http://localhost:8000/v1 -o responses.csv

Example (Anthropic Message Batches, half price, resumable): trustmh generate --conversations
mentalbench.csv --model claude=anthropic/claude-sonnet-4-5 --batch 1000 -o responses.csv
"""

JUDGE_HELP = """Judge responses on the seven MentalAlign attributes (1-5 anchored scales).

Writes the MentalAlign judge-file format: ConvID, context, judge_response_<key>, each cell
the JSON of the seven scores plus Overall and Explanation (MentalBench's rubric). Keys are
response columns; the human `response` column is key `original`. Unusable verdicts after the retries are left empty and counted in the printed
summary and in OUT.summary.json. Exit code 3 when calls failed for good (rerun retries only
them), 4 when not one verdict is usable (every one unparsed or empty).

Example: trustmh judge --responses responses.csv --judge openai/gpt-4o --key original
--key gpt4o -o judge_gpt4o.xlsx

Example (OpenAI Batch; anthropic/NAME uses Message Batches): trustmh judge --responses
responses.csv --judge openai/gpt-4o --batch 2000 -o judge.csv

Example (MentalBench-Align's own judge prompt and settings, as its released judgments were made):
trustmh judge --responses responses.csv --judge openai/gpt-4o --judge-prompts upstream
--data-dir DATA -o judge.csv
"""


def summary_path(output: Path) -> Path:
    return output.with_name(output.name + ".summary.json")


def run_summary(report: RunReport, price_in: float | None, price_out: float | None) -> dict[str, Any]:
    return {
        **report.stats.as_dict(price_in, price_out),
        **report.backend_notes,
        "startup_seconds": round(report.startup_seconds, 3),
        "run_seconds": round(report.run_seconds, 3),
    }


def print_sampling_notice(models: list[str]) -> None:
    from trustmh.bulk.sampling import unsent_sampling_notice

    notice = unsent_sampling_notice(models)
    if notice is not None:
        console.print(notice, highlight=False)


def print_usage_line(summary: dict[str, Any]) -> None:
    tokens = summary["tokens"]
    cost = "" if summary["cost"] is None else f", cost {summary['cost']:.4f}"
    batches = summary.get("batches")
    if batches:  # a resumed batch was polled, not submitted again
        cost += f"; batches submitted {batches['submitted']}, resumed {batches['resumed']}"
    console.print(
        f"calls {summary['calls']} (cached {summary['cache_hits']}, retries {summary['retries']}, "
        f"failed {summary['failures']}); tokens in {tokens['input']} out {tokens['output']} "
        f"(+ cached in {tokens['cached_input']} out {tokens['cached_output']}){cost}; "
        f"{summary['run_seconds']:.1f} s",
        highlight=False,
    )


def fail_if_incomplete(failed: int, total: int, summary: dict[str, Any], output: Path) -> None:
    """Exit 3 (outputs written) when calls failed for good, naming the kinds of the last errors."""
    if not failed:
        return
    kinds = ", ".join(f"{kind}: {count}" for kind, count in sorted(summary["failure_reasons"].items())) or "unknown"
    raise IncompleteRunError(
        f"{failed} of {total} cells failed ({kinds}); they are empty in {output} and listed in "
        f"{summary_path(output)}; rerun the same command to retry only them"
    )


@user_errors
@with_call_options
def generate_command(
    conversations: Annotated[Path, typer.Option(help="MentalBench CSV/xlsx with a `context` column.")],
    model: Annotated[
        list[str],
        typer.Option(help=f"Model to generate with ({MODEL_SYNTAX}); repeatable; COLUMN=MODEL names the column."),
    ],
    output: Output,
    system: Annotated[str, typer.Option(help="System prompt (default: none, as MentalBench).")] = "",
    prompt_template: Annotated[
        str,
        typer.Option(
            help="User message; {user_concern} is replaced by the context. Default: our wording of MentalBench's "
            "request; 'upstream': MentalBench's own prompt, read from the pinned generate_responses.py "
            "(with --data-dir); '{user_concern}' alone sends the bare context."
        ),
    ] = GENERATION_PROMPT,
    max_tokens: Annotated[int, typer.Option(min=1)] = GENERATION_MAX_TOKENS,
    temperature: Annotated[float, typer.Option(min=0.0, max=2.0)] = GENERATION_TEMPERATURE,
    seed: Annotated[int, typer.Option(help="Sampling seed sent with each call.")] = 0,
    data_dir: Annotated[
        Path | None,
        typer.Option(help="Data folder holding mentalalign70k/upstream/ (for --prompt-template upstream)."),
    ] = None,
    *,
    options: CallOptions,
) -> None:
    from trustmh.bulk.dryrun import generation_estimate, make_budget
    from trustmh.bulk.generate import plan_generation
    from trustmh.bulk.request import openai_endpoint
    from trustmh.cost.estimate import print_estimate
    from trustmh.cost.prices import PriceTable

    check_table_suffix(output, "--output")
    check_output_file(output, "--output")
    if prompt_template == "upstream":
        from trustmh.dialogue.mentalbench_upstream import upstream_generation_prompt

        prompt_template = upstream_generation_prompt(str(data_dir) if data_dir else None)
    if "{user_concern}" not in prompt_template:
        raise UserError("--prompt-template: expected the placeholder {user_concern} where the context goes")
    targets = parse_model_columns(model)  # before reading a possibly large file
    print_sampling_notice([t.model.spec for t in targets])
    price_table = PriceTable.load(options.prices)
    table = first_rows(load_conversations(conversations), options.limit)
    params = GenerationParams(max_tokens=max_tokens, temperature=temperature, seed=seed)
    if options.dry_run:
        items = plan_generation(table, targets, params, system, prompt_template)
        endpoint = openai_endpoint(options.base_url[0] if options.base_url else None)
        estimate = generation_estimate(items, price_table, options.cache_path, options.batch, endpoint)
        print_estimate(console, estimate, f"trustmh generate --dry-run ({len(table.rows):,} conversations)")
        return
    budget = make_budget(
        [t.model for t in targets], price_table, options.max_cost, options.max_tokens_total, options.batch
    )
    settings = options.run_settings("generate", budget)
    result = generate(table, targets, params, system, settings, prompt_template)
    write_table(output, result.columns, result.rows)
    summary = run_summary(result.report, options.price_in, options.price_out)
    summary["failed_cells"] = result.failures
    summary["empty_replies"] = result.empty_replies
    write_json(summary, summary_path(output))
    print_usage_line(summary)
    console.print(
        f"wrote {output} ({len(result.rows)} rows; {len(result.failures)} failed calls left empty cells, "
        f"{len(result.empty_replies)} empty replies; both listed in {summary_path(output)})",
        highlight=False,
    )
    fail_if_incomplete(len(result.failures), len(result.rows) * len(targets), summary, output)


def fail_if_nothing_judged(counts: Mapping[str, int], listed_in: Path) -> None:
    """Exit 4 when responses were judged but not one verdict is usable (all unparsed or empty)."""
    total = sum(counts.values())
    if total and not counts.get("judged"):
        raise NothingUsableError(
            f"no usable verdict: 0 of {total} judged ({counts.get('unparsed', 0)} unparsed, "
            f"{counts.get('empty_response', 0)} empty responses); the cells are listed in {listed_in}"
        )


@user_errors
@with_call_options
def judge_command(
    responses: Annotated[Path, typer.Option(help="Wide CSV/xlsx: `context` plus one column per response.")],
    output: Output,
    key: Annotated[
        list[str] | None,
        typer.Option(help="Response column to judge (repeatable; `original` = the `response` column). Default: all."),
    ] = None,
    max_verdict_attempts: Annotated[
        int, typer.Option(min=1, max=10, help="Asks per response before the verdict counts as unparsed.")
    ] = 3,
    judge_prompts: Annotated[
        str,
        typer.Option(
            help="`trustmh`: our fenced rubric; `upstream`: MentalBench-Align's own judge prompt and settings "
            "(temperature 0.7, 512 tokens, asked once), read from its pinned llm_judge_evaluation.py "
            "(needs --data-dir or a cached copy).",
        ),
    ] = "trustmh",
    data_dir: Annotated[
        Path | None, typer.Option(help="Data folder holding mentalalign70k/upstream/ (for --judge-prompts upstream).")
    ] = None,
    judge_name: Annotated[str | None, typer.Option("--judge", help=f"Judge model ({MODEL_SYNTAX}); required.")] = None,
    judge_model: Annotated[
        str | None, typer.Option("--judge-model", hidden=True, help="Deprecated name of --judge.")
    ] = None,
    *,
    options: CallOptions,
) -> None:
    from trustmh.bulk.dryrun import judging_estimate, make_budget
    from trustmh.bulk.judging import plan_judging
    from trustmh.bulk.request import openai_endpoint
    from trustmh.cost.estimate import print_estimate
    from trustmh.cost.prices import PriceTable

    check_table_suffix(output, "--output")
    check_output_file(output, "--output")
    rubric = judge_rubric(judge_prompts, data_dir)
    judge = parse_model(judge_option(judge_name, judge_model))
    print_sampling_notice([judge.spec])
    price_table = PriceTable.load(options.prices)
    table = first_rows(read_table(responses, ["context"]), options.limit)
    keys = select_keys(table, key or [])
    if options.dry_run:
        endpoint = openai_endpoint(options.base_url[0] if options.base_url else None)
        estimate = judging_estimate(
            plan_judging(table, keys),
            judge,
            max_verdict_attempts,
            price_table,
            options.cache_path,
            options.batch,
            endpoint,
        )
        print_estimate(console, estimate, f"trustmh judge --dry-run ({len(table.rows):,} rows x {len(keys)} keys)")
        return
    budget = make_budget([judge], price_table, options.max_cost, options.max_tokens_total, options.batch)
    settings = options.run_settings("judge", budget)
    result = judge_table(table, keys, judge, settings, max_verdict_attempts, rubric)
    write_table(output, result.columns, result.rows)
    assert result.report is not None
    summary = run_summary(result.report, options.price_in, options.price_out)
    summary["verdicts"] = dict(result.status_counts)
    summary["unjudged_cells"] = result.problems
    write_json(summary, summary_path(output))
    print_usage_line(summary)
    counts = result.status_counts
    console.print(
        f"wrote {output}: {counts['judged']} judged, {counts['unparsed']} unparsed, "
        f"{counts['call_failed']} failed calls, {counts['empty_response']} empty responses "
        f"(empty cells listed in {summary_path(output)})",
        highlight=False,
    )
    fail_if_incomplete(counts["call_failed"], sum(counts.values()), summary, output)
    fail_if_nothing_judged(counts, summary_path(output))


def judge_rubric(judge_prompts: str, data_dir: Path | None) -> Rubric:
    """The rubric ``--judge-prompts`` names (upstream's is read from the pinned file, hash-checked)."""
    from trustmh.dialogue.mentalbench_upstream import upstream_rubric
    from trustmh.mentalalign.rubric import MENTALALIGN_RUBRIC

    if judge_prompts == "trustmh":
        return MENTALALIGN_RUBRIC
    if judge_prompts == "upstream":
        return upstream_rubric(str(data_dir) if data_dir else None)[0]
    raise UserError(f"--judge-prompts must be trustmh or upstream, not {judge_prompts!r}", argument="judge-prompts")


def register(app: typer.Typer) -> None:
    app.command("generate", help=GENERATE_HELP)(generate_command)
    app.command("judge", help=JUDGE_HELP)(judge_command)


def standalone_app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True)
    register(app)
    return app


if __name__ == "__main__":
    standalone_app()()
