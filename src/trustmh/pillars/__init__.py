"""The eight TrustMH-Bench pillars, one package each (tasks, dataset, scorers, prompts)."""
