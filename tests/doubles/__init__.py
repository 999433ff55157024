"""Test doubles shared by tests and benchmarks."""
