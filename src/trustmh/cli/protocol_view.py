"""``trustmh tasks --protocol TASK``: a task's declared relation to its upstream protocol."""

from __future__ import annotations

from trustmh.cli.common import console
from trustmh.core.errors import UserError
from trustmh.core.files import write_json


def show_protocol(task: str, json_destination: str | None) -> None:
    """``trustmh tasks --protocol TASK``: the task's one declaration of deviations from upstream."""
    from rich.markup import escape

    import trustmh._registry  # noqa: F401  (every task, so every protocol, is declared)
    from trustmh.data.upstream import upstream_spec
    from trustmh.tasking.protocol import all_protocols, protocol_of

    declared = protocol_of(task)
    if declared is None:
        known = ", ".join(p.task for p in all_protocols())
        raise UserError(f"task {task!r} declares no upstream protocol; tasks that do: {known}", argument="protocol")
    if json_destination is not None:
        write_json(declared.as_metadata(), json_destination)
        return
    lines = [f"[bold]{escape(declared.task)}[/bold]" + (f" — {escape(declared.label)}" if declared.label else "")]
    lines.append("upstream files followed in benchmark mode:")
    for key in declared.upstream:
        spec = upstream_spec(key)
        lines.append(
            f"  {escape(key)}  ({escape(spec.repo)}@{spec.commit}:{escape(spec.path)}, sha256 {spec.sha256[:12]}…)"
        )
    lines.append("verbatim (each claim has a test):")
    lines += [f"  - {escape(claim)}" for claim in declared.verbatim]
    lines.append("deviations:" if declared.deviations else "deviations: none")
    for deviation in declared.deviations:
        lines.append(f"  - {escape(deviation.what)}")
        lines.append(f"    why: {escape(deviation.why)}")
        lines.append(f"    effect: {escape(deviation.effect)}")
    if declared.parsers:
        lines.append("parsers (-T parser=NAME):")
        lines += [f"  {escape(name)}: {escape(text)}" for name, text in declared.parsers.items()]
    console.print("\n".join(lines), soft_wrap=True)
