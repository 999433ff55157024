"""``trustmh report --profile``: statutory evidence documents (``docs/regulatory.md``).

:mod:`.profiles` maps each statute item to what trustmh measures; :mod:`.evidence` aggregates the
audit's statutory findings; :mod:`.document` builds the versioned JSON document and its HTML view.
"""
