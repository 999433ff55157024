"""The release gate: a run's logs against a versioned policy, pass / fail / insufficient evidence.

``trustmh gate LOG_DIR --policy gate.yaml`` and, from Python, :func:`check`; see docs/gate.md.
"""

from trustmh.gate.check import check
from trustmh.gate.policy import EXAMPLE, Policy, load_policy, policy_schema
from trustmh.report.gate_verdict import Case, Verdict

__all__ = ["EXAMPLE", "Case", "Policy", "Verdict", "check", "load_policy", "policy_schema"]
