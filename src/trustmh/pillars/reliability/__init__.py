"""Reliability pillar: clinical knowledge (Psy-Eval), emotional understanding (EmoBench),
mental-health classification (SWMH, D4) and support-dialogue quality (ESConv, CPsyCounE)."""
