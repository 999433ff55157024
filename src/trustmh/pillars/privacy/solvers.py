"""How ConfAIde ratings are asked for under ``-T parser=upstream``: again, while upstream cannot read one."""

from __future__ import annotations

from inspect_ai.solver import Generate, Solver, TaskState, solver

from trustmh.pillars.privacy.upstream_parsing import upstream_rating
from trustmh.scoring.output import output_text, replayed

# TrustMH-Bench's privacy1.py/privacy2.py (``model_inference``, as ConfAIde's eval.py) ask again,
# with no limit, until ``parse_response`` reads a rating. We stop after this many answers: an
# endpoint that never gives a readable rating must not hold a run forever. The answer then stays
# unparsed (counted in the summary), never scored 0. Declared in the task's protocol.
MAX_ANSWERS = 10


@solver
def ask_until_rated(scale_name: str, max_answers: int = MAX_ANSWERS) -> Solver:
    """Generate; while upstream's parser reads no rating, ask the same prompt again (a fresh call,
    not a follow-up turn), up to ``max_answers`` answers in all. A recorded answer (replay) is
    asked once: a recording gives the same text every time.

    The number of answers asked is kept in ``state.metadata["trustmh_answers_asked"]``."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        prompt = list(state.messages)
        asked = 0
        while asked < max_answers:
            state.messages = list(prompt)
            state = await generate(state)
            asked += 1
            if replayed(state) or upstream_rating(output_text(state), scale_name) is not None:
                break
        state.metadata["trustmh_answers_asked"] = asked
        return state

    return solve
