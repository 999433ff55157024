"""One self-contained, offline HTML page for ``trustmh align --html``.

plotly.js is inlined once (no CDN), so the page opens without network access.
"""

from __future__ import annotations

import math

from jinja2 import Environment
from markupsafe import Markup

from trustmh.align.result import GR_MAX_WIDTH, MR_MAX_WIDTH, AlignmentResult

_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>MentalAlign: judge-human reliability</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px}
table{border-collapse:collapse;font-size:13px;margin:1em 0}
td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}
td:first-child,td:nth-child(2),th{text-align:left}
.GR{background:#d9f2d9}.MR{background:#fff3c4}.PR{background:#f8d0d0}
</style>
<script>{{ plotly_js }}</script></head><body>
<h1>MentalAlign: how far do LLM judges agree with human experts?</h1>
<p>{{ n_conversations }} conversations; human ratings: <code>{{ human }}</code>;
{{ n_boot }} bootstrap replicates (seed {{ seed }}). Category from the width of the 95% CI of the ICC
shown (the tables' category: ICC(C,1)): GR &le; {{ gr }} &lt; MR &le; {{ mr }} &lt; PR. Hover a heatmap cell for its CI.</p>
<ul>{% for j in judges %}<li><b>{{ j.name }}</b>: <code>{{ j.path }}</code>;
excluded response models: {{ j.excluded|join(", ") or "none" }}</li>{% endfor %}</ul>
{% for fig in figures %}<div>{{ fig }}</div>{% endfor %}
{% for level, rows in tables %}
<h2>{{ level }} level</h2>
<table><tr><th>judge</th><th>attribute</th><th>n</th><th>human mean</th><th>judge mean</th><th>bias</th>
<th>MSE</th><th>ICC(C,1)</th><th>95% CI</th><th>ICC(A,1)</th><th>95% CI</th><th>CI width</th><th>CI-width category</th>
<th>Pearson r</th><th>CCC</th><th>BA limits</th><th>unparsed</th><th>missing</th></tr>
{% for r in rows %}<tr class="{{ r.category or '' }}"><td>{{ r.judge }}</td><td>{{ r.attribute }}</td><td>{{ r.n }}</td>
<td>{{ f(r.human_mean) }}</td><td>{{ f(r.judge_mean) }}</td><td>{{ f(r.bias) }}</td><td>{{ f(r.mse) }}</td>
<td>{{ f(r.icc_c1) }}</td><td>[{{ f(r.icc_c1_ci[0]) }}, {{ f(r.icc_c1_ci[1]) }}]</td>
<td>{{ f(r.icc_a1) }}</td><td>[{{ f(r.icc_a1_ci[0]) }}, {{ f(r.icc_a1_ci[1]) }}]</td>
<td>{{ f(r.ci_width) }}</td><td>{{ r.category or "–" }}</td><td>{{ f(r.pearson_r) }}</td><td>{{ f(r.ccc) }}</td>
<td>[{{ f(r.ba_loa[0]) }}, {{ f(r.ba_loa[1]) }}]</td><td>{{ r.unparsed }}</td><td>{{ r.missing }}</td></tr>
{% endfor %}</table>{% endfor %}
<h2>Krippendorff's alpha (interval), human and all judges, all responses</h2>
<table><tr>{% for a in alpha %}<th>{{ a }}</th>{% endfor %}</tr>
<tr>{% for v in alpha.values() %}<td>{{ f(v) }}</td>{% endfor %}</tr></table>
</body></html>
"""


def _fmt(value: float) -> str:
    return "–" if value is None or not math.isfinite(value) else f"{value:.3f}"


def render_html(result: AlignmentResult) -> str:
    """The whole report page as a string (tables for each level, and the figures of
    :func:`trustmh.align.figures.alignment_figures`, which the trustmh report draws too)."""
    from plotly.offline import get_plotlyjs

    from trustmh.align import figures

    figs = [fig for _, fig in figures.alignment_figures(result, icc_forms=("icc_c1", "icc_a1"))]
    # Judge names, attributes and paths come from the user's files: everything is escaped
    # except the two pieces of markup we build (plotly.js and plotly's figure divs, whose JSON
    # plotly itself makes safe inside <script>).
    env = Environment(autoescape=True)
    html_figs = [Markup(fig.to_html(full_html=False, include_plotlyjs=False)) for fig in figs]
    return env.from_string(_TEMPLATE).render(
        plotly_js=Markup(get_plotlyjs()),
        figures=html_figs,
        f=_fmt,
        human=result.human_path,
        n_boot=result.n_boot,
        seed=result.seed,
        n_conversations=result.n_conversations,
        gr=GR_MAX_WIDTH,
        mr=MR_MAX_WIDTH,
        judges=result.judges,
        tables=[(level, result.select(level=level)) for level in result.levels],
        alpha=result.krippendorff_alpha,
    )
