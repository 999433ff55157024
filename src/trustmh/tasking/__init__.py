"""Declaring trustmh tasks: the ``@trustmh_task`` decorator, what each task declares
(:class:`~trustmh.tasking.declare.TaskInfo`) and its generation settings.

Looking tasks up by name needs every task imported (through :mod:`trustmh._registry`), so the
lookup lives in the run pipeline (:mod:`trustmh.run.task_catalog`), above the pillars."""
