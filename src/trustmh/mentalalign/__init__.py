"""MentalBench / MentalAlign in one place: the schema of its files and its judge rubric.

* :mod:`trustmh.mentalalign.schema` — the seven attributes, the CSS/ARS composites, column and
  file names, the score range (pure constants and small functions; the data loader uses it);
* :mod:`trustmh.mentalalign.rubric` — MentalBench's judge rubric and response-generation prompt.

``dialogue/``, ``bulk/``, ``align/`` and ``data/loaders/mentalalign.py`` take these facts from
here and state none of them again.
"""
