"""What the detector pass's fork server imports (and only it): the workers' side, pandas included.

pyarrow imports pandas, when it is installed, the first time a process turns Python values into
an array (only to ask whether a value is a DataFrame): imported in each worker, that is 39 MB of
private memory per worker. Imported here, in the fork server the workers are forked from, the
workers share its pages instead.
"""

from __future__ import annotations

import gc

import pyarrow as pa

import trustmh.audit.pass_worker  # noqa: F401  (the detectors and the language model, loaded once)

pa.array([0])  # pyarrow's own first conversion: it imports pandas now, before the workers fork
# All of that lives as long as the process: keep it out of the garbage collector's passes, which
# would touch (and so copy) every page the forked workers share with the fork server.
gc.freeze()
