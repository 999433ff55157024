"""Turn collected logs (and alignment results) into the page's view model and HTML."""

from __future__ import annotations

import datetime as dt
from typing import Any

import jinja2
from markupsafe import Markup

from trustmh import PILLARS, __version__
from trustmh.core.plotting import FONT_FAMILY
from trustmh.pillars.headline import pillar_beside, pillar_components
from trustmh.report import figures as figs
from trustmh.report.alignment import Alignment, alignment_charts, table
from trustmh.report.audit import audit_views
from trustmh.report.bundle import packed, plotly_js, trace_types
from trustmh.report.collect import Collection
from trustmh.report.conversations import trajectory_figures, transcripts_html
from trustmh.report.escalation_tradeoff import escalation_points, escalation_sentences, escalation_tradeoff_figure
from trustmh.report.figure_store import Figures
from trustmh.report.gate_verdict import Verdict
from trustmh.report.headline import PillarScore, beside_texts, ci_text, fmt, pillar_scores
from trustmh.report.judge_fingerprint import fingerprint_label, fingerprint_notes, fingerprint_title
from trustmh.report.log_result import LogResult
from trustmh.report.matrices import confusion_tables, rta_grid_table
from trustmh.report.plain import group_tests, not_drawn_note, pillar_sentences
from trustmh.report.plants import suspected_plant_views
from trustmh.report.radar import radar
from trustmh.report.ranking import MIN_RANKED_MODELS, Leaderboard, leaderboards
from trustmh.report.safety_tradeoff import safety_tradeoff_figure
from trustmh.scoring.results import MetricRow

STARTER_WARNING = "Starter suite: items written by the trustmh authors. Not comparable with the published benchmark."


def _metric_cell(row: MetricRow, result: LogResult) -> dict[str, Any]:
    corrected = result.judge_corrections.get(row.metric)  # PPI++: the judge-only value stays in the note
    return {
        "value": fmt(corrected.value) if corrected else fmt(row.value),
        "ci": f"corrected [{fmt(corrected.ci[0])}, {fmt(corrected.ci[1])}]"
        if corrected
        else ci_text(row)
        if row.value is not None
        else "",
        "n": "—" if row.n is None else row.n,
        "unparsed": row.unparsed or 0,
        # the strict twin (unparsed counted wrong) the ranking and the prose use, beside the parsed-only value
        "strict": None
        if row.strict is None
        else f"{row.metric}_strict {fmt(row.strict)} [{fmt(row.strict_ci_low)}, {fmt(row.strict_ci_high)}] n={row.strict_n}",
        "judge": row.judge or "",
        "validation": result.judge_notes.get(row.metric),
        "scored": row.value is not None,
        "samples": f"samples-{result.key}",
        "path": result.path,
    }


def _metric_table(results: list[LogResult]) -> dict[str, Any]:
    """Rows (task, metric) × one column per model, so models compare side by side."""
    models = list(dict.fromkeys(res.model for res in sorted(results, key=lambda r: r.model)))
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for res in results:
        for row in res.rows:
            if figs.CONFUSION.match(row.metric):
                continue  # drawn as a matrix instead
            entry = rows.setdefault(
                (row.task, row.metric),
                {"task": row.task, "metric": row.metric, "sources": set(), "cells": {}, "protocols": {}},
            )
            entry["modified"] = entry.get("modified", False) or bool(res.modified_data)
            entry["sources"].add(row.source)
            if res.protocol:
                entry["protocols"][res.protocol] = res.protocol_details
            entry["cells"][row.model] = _metric_cell(row, res)
    view = []
    # Metrics no model scored (and none had unparsed answers): one line per task, not a row each.
    unscored: dict[str, list[str]] = {}
    for entry in rows.values():
        if all(not c["scored"] and not c["unparsed"] for c in entry["cells"].values()):
            unscored.setdefault(entry["task"], []).append(entry["metric"])
            continue
        entry["starter"] = "starter" in entry["sources"]
        entry["protocol"] = " | ".join(entry["protocols"])
        entry["protocol_details"] = " | ".join(dict.fromkeys(entry["protocols"].values()))
        entry["cells"] = [entry["cells"].get(m) for m in models]
        view.append(entry)
    view.sort(key=lambda e: e["task"])  # stable: metric order within a task is the scorer's
    return {"models": models, "rows": view, "unscored": unscored, "judges": _judge_cells(results, models)}


def _judge_cells(results: list[LogResult], models: list[str]) -> dict[str, list[dict[str, str]]]:
    """Per judged task, one cell per model: the judge fingerprint shown above its metrics."""
    cells: dict[str, dict[str, dict[str, str]]] = {}
    for res in results:
        label = fingerprint_label(res.judge_fingerprints)
        if label:
            title = fingerprint_title(res.judge_fingerprints)
            cells.setdefault(res.task, {})[res.model] = {"label": label, "title": title}
    return {task: [by_model.get(m, {"label": "", "title": ""}) for m in models] for task, by_model in cells.items()}


def _pillar_section(
    pillar: str,
    results: list[LogResult],
    scores: dict[tuple[str, str, str], PillarScore],
    style: dict[str, figs.Style],
    store: Figures,
) -> dict[str, Any]:
    rows = [r for res in results for r in res.rows]
    mine = [s for (_, _, p), s in scores.items() if p == pillar]
    notes: list[str] = []
    charts: list[dict[str, str] | None] = []
    for source in dict.fromkeys(s.source for s in mine):
        theirs = [s for s in mine if s.source == source]
        figure = figs.headline_figure(pillar, theirs, style)
        if figure is None:
            needs = list(dict.fromkeys(s.not_scored for s in theirs if s.not_scored))
            why = (
                f"not scored — {'; '.join(needs)}"
                if all(s.not_scored for s in theirs)
                else "no value to draw: each is left out of the ranking (reasons above) or 0"
            )
            notes.append(f"{pillar} ({source}): no headline chart — {why}.")
        charts.append(store.add(f"{pillar}-{source}-headline", figure))
    notes += figs.left_out_points(rows)
    for name, figure in [*figs.grouped_figures(rows, style), *figs.principle_figures(rows, style)]:
        if figure is None:
            notes.append(not_drawn_note(name, rows))
        else:
            charts.append(store.add(name, figure))
    matrices = []
    for res in results:
        for matrix in confusion_tables(res):
            if matrix["empty"]:
                notes.append(f"{res.task} · {res.model}: no {matrix['name']} matrix — no answer was counted.")
            else:
                matrices.append(matrix)
        grid = rta_grid_table(res)
        if grid:
            matrices.append(grid)
    charts += [store.add(name, f) for name, f in trajectory_figures(results)]
    notes += fingerprint_notes(results)
    sentences = pillar_sentences(mine, rows)
    if pillar == "safety":
        charts.append(store.add("safety-tradeoff", safety_tradeoff_figure(rows, style)))
    if pillar == "crisis":  # the crisis counterpart of the refusal/over-refusal chart, and its verdict per model
        charts.append(store.add("crisis-escalation-tradeoff", escalation_tradeoff_figure(rows, style)))
        sentences += escalation_sentences(escalation_points(rows))
    return {
        "name": pillar,
        "headlines": pillar_components(pillar),
        "beside": pillar_beside(pillar),
        "sentences": sentences,
        "charts": [c for c in charts if c],
        "matrices": matrices,
        "notes": notes,
        "group_tests": group_tests(rows),
        "table": _metric_table(results),
        "unparsed": [
            {
                "task": res.task,
                "model": res.model,
                "metric": r.metric,
                "unparsed": r.unparsed,
                "n": r.n,
                "judge": r.judge or "",
            }
            for res in results
            for r in res.rows
            if r.unparsed
        ],
        "starter": any(res.source == "starter" for res in results),
    }


SOURCE_TITLES = {
    "benchmark": "Benchmark leaderboard (published datasets)",
    "starter": "Starter-suite leaderboard (items written by the trustmh authors; not comparable with the benchmark)",
}
TIE_METHOD_WORDS = {
    "paired_bootstrap": "paired bootstrap over shared items",
    "ci_overlap": "CI overlap",
    "mixed": "paired bootstrap where items were shared, else CI overlap",
}


def _leaderboard_view(
    board: Leaderboard, scores: list[PillarScore], style: dict[str, figs.Style], store: Figures
) -> dict[str, Any]:
    """One source's ranking table, its radar (or dot plot) and what was left out and why. A
    pillar no model is scored on still gets a column when a ranked model ran it: its cell says
    what the model needs, with the values shown beside the headline."""
    by_key = {(s.model, s.pillar): s for s in scores}
    ranked_models = {entry.model for entry in board.rows}
    columns = [
        p for p in PILLARS if p in board.pillars or any(m in ranked_models for m, q in board.not_scored if q == p)
    ]
    rows = []
    for entry in board.rows:
        cells: list[dict[str, Any]] = []
        for pillar in columns:
            score = by_key.get((entry.model, pillar))
            if score is None:
                cells.append({"kind": "missing"})
            elif score.not_scored:
                cells.append({"kind": "not_scored", "needs": score.not_scored, "beside": beside_texts(score)})
            elif score.value is None:
                cells.append({"kind": "excluded", "title": score.excluded, "beside": beside_texts(score)})
            else:
                ci = score.ci
                cells.append(
                    {
                        "kind": "ranked",
                        "rank": entry.pillar_ranks[pillar],
                        "value": fmt(score.value),
                        "ci": "" if ci is None else f"[{fmt(ci[0])}, {fmt(ci[1])}]",
                        "strict": score.strict,
                        "title": score.hover().replace("<br>", "\n"),
                        "beside": beside_texts(score),
                    }
                )
        rows.append(
            {
                "tie_group": entry.tie_group,
                "model": entry.model,
                "mean_rank": f"{entry.mean_rank:.2f}",
                "pillars": len(entry.pillar_ranks),
                "cells": cells,
            }
        )
    figure = radar(board, scores, style) if board.radar else figs.pillar_dots(board, scores, style)
    return {
        # A ranking needs two models: one model alone is shown with its scores, never "rank 1".
        "ranked": len(board.rows) >= MIN_RANKED_MODELS,
        "pillars_total": len(PILLARS),
        "source": board.source,
        "title": SOURCE_TITLES.get(board.source, f"{board.source or 'unlabelled'} results"),
        "pillars": columns,
        "rows": rows,
        "excluded": [{"model": m, "pillar": p, "reason": why} for (m, p), why in board.excluded.items()],
        "not_scored": [
            {"model": m, "pillar": p, "needs": why, "beside": beside_texts(by_key[(m, p)])}
            for (m, p), why in board.not_scored.items()
        ],
        "unranked": board.unranked,
        "tie_methods": [
            f"{pillar} {TIE_METHOD_WORDS.get(method, method)}" for pillar, method in board.tie_methods.items() if method
        ],
        "figure": store.add(f"overview-{board.source}", figure) if board.rows else None,
        "radar": board.radar,
    }


def _alignment_view(alignment: Alignment | None, store: Figures) -> dict[str, Any] | None:
    if alignment is None:
        return None
    charts = [store.add(name, figure) for name, figure in alignment_charts(alignment)]
    columns, rows = table(alignment.result.rows)
    alpha = [(name, fmt(value)) for name, value in alignment.result.krippendorff_alpha.items()]
    return {
        "path": alignment.path,
        "charts": [c for c in charts if c],
        "columns": columns,
        "rows": rows,
        "alpha": alpha,
    }


# Items per task in the side-by-side view (the log has them all).
ITEMS_COMPARED = 50


def _item_views(results: list[LogResult]) -> list[dict[str, Any]]:
    """Per task run on several models: the same item's answers and scores side by side."""
    by_task: dict[str, list[LogResult]] = {}
    for res in results:
        by_task.setdefault(res.task, []).append(res)
    views = []
    for task, logs in sorted(by_task.items()):
        if len(logs) < 2 or not any(res.samples for res in logs):
            continue
        models = [res.model for res in logs]
        answers = [{x.id: x for x in res.samples} for res in logs]
        ids = list(dict.fromkeys(x.id for res in logs for x in res.samples))
        items = []
        for item in ids[:ITEMS_COMPARED]:
            found = [a.get(item) for a in answers]
            first = next(x for x in found if x is not None)
            items.append({"id": item, "input": first.input, "cells": found})
        views.append(
            {
                "task": task,
                "models": models,
                "entries": items,
                "more": len(ids) - len(items),
                "key": task.replace("_", "-"),
            }
        )
    return views


def _starter_tasks(results: list[LogResult]) -> list[str]:
    """``"task (model, model)"`` per starter task, one entry per task to keep the banner short."""
    by_task: dict[str, list[str]] = {}
    for res in results:
        if res.source == "starter":
            by_task.setdefault(res.task, []).append(res.model)
    return [f"{task} ({', '.join(sorted(models))})" for task, models in sorted(by_task.items())]


def _modified_tasks(results: list[LogResult]) -> list[str]:
    """``"task (model): file, file"`` per log run on modified data (``--allow-modified``)."""
    return [f"{r.task} ({r.model}): {', '.join(r.modified_data)}" for r in results if r.modified_data]


def page_context(
    collection: Collection, alignment: Alignment | None, redact: bool, gate: Verdict | None = None
) -> dict[str, Any]:
    results = collection.results
    rows = [r for res in results for r in res.rows]
    models = list(dict.fromkeys(res.model for res in sorted(results, key=lambda r: r.model)))
    style = figs.styles(models)
    scores = pillar_scores(rows)
    store = Figures()
    boards = [
        _leaderboard_view(board, [s for (src, _, _), s in scores.items() if src == board.source], style, store)
        for board in leaderboards(scores, collection.item_values())
    ]
    # The eight pillars in their usual order, then anything else (e.g. "dialogue", "other").
    found = list(dict.fromkeys(res.pillar for res in results))
    pillars_present = [p for p in PILLARS if p in found] + sorted(p for p in found if p not in PILLARS)
    sections = [
        _pillar_section(p, [res for res in results if res.pillar == p], scores, style, store) for p in pillars_present
    ]
    headlines = [{"pillar": p, "headlines": pillar_components(p), "beside": pillar_beside(p)} for p in PILLARS]
    return {
        "version": __version__,
        "generated": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "redact": redact,
        "models": models,
        "pillars": PILLARS,
        "headlines": headlines,
        "leaderboards": boards,
        "judge_notes": fingerprint_notes(results),
        "suspected_plants": suspected_plant_views(results),
        "sections": sections,
        "logs": results,
        "compare": [] if redact else _item_views(results),
        "skipped": collection.skipped,
        "starter_tasks": _starter_tasks(results),
        "modified_tasks": _modified_tasks(results),
        "starter_warning": STARTER_WARNING,
        "alignment": _alignment_view(alignment, store),
        "audits": audit_views(results, redact),
        "gate": gate,
        "figures_json": store.script_json(),
        "plotly_packed": packed(plotly_js(trace_types(store.items))),
    }


def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("trustmh.report", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"], default_for_string=True, default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.globals["conversation_transcripts"] = transcripts_html
    environment.globals["font_family"] = Markup(FONT_FAMILY)  # our constant, CSS quotes kept
    return environment


def render_html(
    collection: Collection,
    alignment: Alignment | None,
    redact: bool,
    gate: Verdict | None = None,
    evidence: dict[str, Any] | None = None,
    audit_passes: list[dict[str, Any]] | None = None,
) -> str:
    """The page; ``gate``: a ``trustmh gate`` verdict shown in its own section, first; ``evidence``:
    the statutory evidence section (``trustmh report --profile``); ``audit_passes``: detector passes."""
    context = {**page_context(collection, alignment, redact, gate), "evidence": evidence}
    context["audit_passes"] = audit_passes or []
    return _environment().get_template("report.html.j2").render(**context)
