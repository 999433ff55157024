"""Privacy pillar: ConfAIde tiers 1-2 (sensitivity and privacy-expectation ratings) and PsyLeak."""
