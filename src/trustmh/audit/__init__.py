"""``trustmh audit``: score a deployed chatbot's own transcripts, not conversations we simulate.

A transcript export (JSONL in the OpenAI chat format, or a long CSV) is read as a stream
(:mod:`.readers`), optionally redacted (:mod:`.redaction`), spooled to a private temporary file
and replayed into an inspect task (:mod:`.task`) whose solver *replays* the recorded assistant
turns: no model is called for them. The scorer runs the existing detectors on every assistant
turn (:mod:`.detectors`) and, with a judge, psychosis-bench's DCS/HES/SIS rubrics. The result is
an ordinary inspect log, so ``inspect view``, ``trustmh report``, ``trustmh judge-check`` and
``--max-cost`` work on it unchanged. See ``docs/audit.md``.
"""
