"""The run pipeline behind ``trustmh run``: build the tasks (look them up, apply ``-T``) and the
models (roles, judges, replay), set budgets and stops, run inspect's eval-set, and summarise.

A run is described once by :class:`trustmh.run.config.RunConfig`; :func:`trustmh.run.runner.run_tasks`
takes it. This package sits above the tasks and the report: nothing below it imports it."""
