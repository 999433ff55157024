"""Mental-health dialogue evaluation (MentalBench / MentalAlign)."""
