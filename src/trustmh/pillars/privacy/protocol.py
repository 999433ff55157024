"""How the Privacy pillar's benchmark mode follows TrustMH-Bench (and ConfAIde), and where not.

Read by ``trustmh tasks --protocol TASK``, written into each log's task metadata and used by
``trustmh reproduce`` to explain a difference from a published figure.
"""

from __future__ import annotations

from trustmh.pillars.privacy.solvers import MAX_ANSWERS
from trustmh.tasking.protocol import Deviation, TaskProtocol, declare_protocol

PRIVACY_ZIP = "trustmh/release/privacy.zip"
CONFAIDE_EVAL = "confaide/upstream/eval.py"

_RATING_PARSER = Deviation(
    what="default parser: the rating the answer states (trustmh.pillars.privacy.ratings.parse_rating); "
    "-T parser=upstream reads it as TrustMH-Bench's parse_response does",
    why="upstream reads the number before the first ')' and, failing that, the first scale label found anywhere "
    "in the answer in the scale's order, so '**3) Somewhat sensitive** ... very sensitive' counts as 4",
    effect="pearson_r differs where a model wraps its rating in markdown or mentions another level; "
    "an answer stating no single rating is unparsed (unparsed_rate) instead of re-asked until one parses",
    metrics=("pearson_r",),
)
_REASK_CAP = Deviation(
    what=f"-T parser=upstream asks again while upstream's parser reads no rating, as model_inference does, but "
    f"at most {MAX_ANSWERS} answers per item (upstream: without limit); greedy decoding (-T greedy=true, the "
    "starter suite) is asked once, as a repeat would give the same answer",
    why="an endpoint that never gives a readable rating must not hold a run forever",
    effect="an item still unreadable after the last answer is unparsed (unparsed_rate), never scored; "
    "upstream would have asked until it read one",
    metrics=("pearson_r", "unparsed_rate"),
)
_SAMPLES = Deviation(
    what="1 sample per item at temperature 1 by default (TrustMH-Bench's n_samples); -T confaide_samples=true "
    "samples 10 per item as ConfAIde's eval.py does",
    why="TrustMH-Bench's release is the figure reproduced; ConfAIde's original averages 10 samples",
    effect="with 1 sample, pearson_r varies between runs at temperature 1",
)
_TIER_VERBATIM = (
    "first message: the benchmark line as upstream reads it (stripped, literal '\\n' kept) with upstream's "
    "answer suffix, read from the pinned privacy code",
    "generation: temperature 1, top_p 1, max_tokens 365, as upstream's EvalAgent.load_model",
)

for _tier, _file in (("1", "privacy1.py"), ("2a", "privacy2.py"), ("2b", "privacy2.py")):
    declare_protocol(
        TaskProtocol(
            task=f"privacy_confaide_tier{_tier}",
            upstream=(PRIVACY_ZIP, CONFAIDE_EVAL),
            verbatim=_TIER_VERBATIM,
            deviations=(_RATING_PARSER, _REASK_CAP, _SAMPLES),
            parsers={
                "corrected": "the rating the answer states; none or several stated -> unparsed (default)",
                "upstream": f"TrustMH-Bench {_file} parse_response: leading number before ')', else label scan; "
                f"unreadable -> asked again (at most {MAX_ANSWERS} answers), then unparsed",
            },
        )
    )

_CONTROL_PARSER = Deviation(
    what="default control-question reader (trustmh.pillars.privacy.scorers.parse_yes_no); -T parser=upstream "
    "uses TrustMH-Bench's map_binary_answer_to_int",
    why="upstream only reads a 'no' at the very start or between spaces/punctuation, so '**No** - ...' "
    "(markdown) is neither yes nor no and counts as an error",
    effect="control error is lower with the corrected reader for models that bold their answer",
    metrics=("control error",),
)
_PROXY_READER = Deviation(
    what="default proxy-judge reply reader (parser=corrected, trustmh.pillars.privacy.proxy_upstream): an empty "
    "answer is unparsed, the client's name must occur as whole words, an answer naming the client while saying "
    "nobody is identified is unparsed; -T parser=upstream reads the reply as privacy3.py's check_info_leak",
    why="upstream counts an empty reply as no leak and matches the name as a substring, so a "
    "reply saying the text does not mention the client counts as a leak",
    effect="proxy_leak_rate differs on empty, denying or ambiguous judge replies (a judge run only: upstream "
    "released no proxy verdicts, so trustmh reproduce cannot re-score that figure)",
)

declare_protocol(
    TaskProtocol(
        task="privacy_psyleak",
        upstream=(PRIVACY_ZIP,),
        verbatim=(
            "first message of all four question types: upstream's instruction, the story as privacy3.py rebuilds "
            "it (lines joined by spaces, the last sentence split off), the question and the 'Answer: ' suffix where "
            "upstream adds it, all read from the pinned privacy3.py",
            "generation: temperature 0, max_tokens 256 (privacy3.py APIAgent defaults)",
            "each generated answer is scored as privacy3.py records it: stripped, the text after its first 'Answer:' "
            "(a replayed answer as recorded: upstream's release holds answers so taken)",
            "string-match, info-accessibility and privacy-sharing metrics (same substring tests)",
            "proxy judge (with --judge; -T judge_prompts=upstream, the benchmark default): the request "
            "run_evaluator builds from the pinned privacy3.py (its instruction, the recorded answer and its question "
            "on the scenario's secret), one user message at APIAgent's defaults (temperature 0, top_p 1, "
            "max_tokens 256, penalties 0), asked once; free-response proxy-model = mean over scenarios of the leak "
            "as make_report computes it. Upstream's run used gpt-4 as the judge (--judge openai/gpt-4 to follow it)",
        ),
        deviations=(_CONTROL_PARSER, _PROXY_READER),
        parsers={
            "corrected": "control answers read by parse_yes_no (markup stripped); neither -> unparsed, "
            "counted as an error like upstream; proxy judge replies read as described above (default)",
            "upstream": "TrustMH-Bench privacy3.py map_binary_answer_to_int for control answers and "
            "check_info_leak for proxy judge replies",
        },
    )
)
