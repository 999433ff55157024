"""Personas of crisis_simulated_risk, written by the trustmh authors (see ../README.md)."""
