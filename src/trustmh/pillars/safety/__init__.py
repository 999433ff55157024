"""Safety pillar: refusal of harmful mental-health requests, plain and jailbroken."""
