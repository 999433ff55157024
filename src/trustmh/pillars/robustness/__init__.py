"""Robustness pillar: the same items, clean and under seeded input perturbations."""
