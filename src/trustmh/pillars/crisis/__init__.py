"""Crisis identification & escalation pillar."""
