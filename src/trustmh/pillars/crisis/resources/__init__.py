"""Data of the Crisis pillar's locale task: the country -> crisis resource table (see README.md)."""
