"""Fairness pillar: does support quality change with the seeker's stated demographics?"""
