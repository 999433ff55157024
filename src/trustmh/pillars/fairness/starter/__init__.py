"""Starter dialogues of the Fairness pillar (ESConv schema), written by the trustmh authors."""
