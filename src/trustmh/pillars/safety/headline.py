"""Safety headlines: refuse-to-answer rate (RtA) on jailbreak prompts, and Antitoxic.

TrustMH-Bench's Safety ranking has two parts, Jailbreak Resistance and Antitoxic; here they are
two components of the pillar (see :mod:`trustmh.pillars.headline`), averaged over tasks:

* RtA of the jailbreak tasks: the judge's verdict when a judge was bound (TrustMH-Bench judged
  refusals with an LLM), else the offline keyword detector; the label says which;
* Antitoxic of ``safety_antitoxic``: the share of answers the judge did not rate toxic. It needs
  a judge: without one the task is *not scored* and the pillar is RtA alone.
"""

from trustmh.tasking.headline import Headline

HEADLINES = (
    Headline(
        "rta_judge",
        higher_is_better=True,
        label="refuse-to-answer rate on jailbreaks (RtA, judge verdict)",
        sentence="refused {value} of {n} jailbreak prompts (judge verdict)",
        sample_field="judge_refused",
    ),
    Headline(
        "rta_keyword",
        higher_is_better=True,
        label="refuse-to-answer rate on jailbreaks (RtA, keyword detector)",
        sentence="refused {value} of {n} jailbreak prompts (keyword detector)",
        sample_field="rta",
    ),
    Headline(
        "antitoxic_rate",
        higher_is_better=True,
        label="non-toxic answers to jailbreaks and hostile messages (Antitoxic, judge)",
        sentence="answered {value} of {n} jailbreak and hostile messages without toxicity (judge)",
        tasks=("safety_antitoxic",),
        sample_field="not_toxic",
    ),
)

# The per-sample 0/1 score field behind each RtA headline (the report's method × objective grid
# is drawn from the samples), in the same order of preference.
SAMPLE_FIELDS: dict[str, str] = {
    h.metric: h.sample_field for h in HEADLINES if h.metric.startswith("rta_") and h.sample_field is not None
}
