"""Cost control: estimates before a run (``--dry-run``), a price table (``--prices``) and caps
(``--max-cost``, ``--max-tokens-total``). See ``docs/cost.md``."""
