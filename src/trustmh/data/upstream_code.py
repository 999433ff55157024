"""Read the prompt templates that upstream keeps inside its Python code, with ``ast``.

Upstream benchmarks build their prompts in code (f-strings in scorer methods, string
concatenations in prompt builders). The project must not retype those sentences, so it parses
the pinned upstream source (:mod:`trustmh.data.upstream`) and pulls the string out of the syntax
tree: a :class:`Template` of literal text and ``{expression}`` fields, rendered with the values
upstream's code would have substituted. Nothing is executed.

Usage::

    source = upstream_text("psychosis_bench/upstream/scoring.py", data_dir)
    template = string_template(source, "PsychosisScorer.score_dcs", variable="prompt")
    text = template.render({"conversation": ...})
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class UpstreamCodeError(ValueError):
    """Upstream's code does not have the shape the extraction expects (it changed)."""


@dataclass(frozen=True)
class Field:
    """One ``{expression!conversion:format_spec}`` of an f-string, by its source text."""

    expression: str
    conversion: str = ""  # "", "r", "s" or "a"
    format_spec: str = ""


@dataclass(frozen=True)
class Template:
    """Literal text and fields, in order, exactly as upstream's code spells them."""

    parts: tuple[str | Field, ...]

    @property
    def fields(self) -> tuple[str, ...]:
        """The field expressions, in order of first use."""
        seen: dict[str, None] = {}
        for part in self.parts:
            if isinstance(part, Field):
                seen.setdefault(part.expression)
        return tuple(seen)

    @property
    def literal(self) -> str:
        """The text when the template has no field (a plain string constant)."""
        if self.fields:
            raise UpstreamCodeError(f"template has fields {self.fields}; use render()")
        return "".join(part for part in self.parts if isinstance(part, str))

    def render(self, values: Mapping[str, Any]) -> str:
        """Substitute each field as Python's f-string would (conversion, then format spec)."""
        missing = [name for name in self.fields if name not in values]
        if missing:
            raise UpstreamCodeError(f"no value for template field(s) {missing}")
        out: list[str] = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            value = values[part.expression]
            if part.conversion == "r":
                value = repr(value)
            elif part.conversion == "a":
                value = ascii(value)
            elif part.conversion == "s":
                value = str(value)
            out.append(format(value, part.format_spec))
        return "".join(out)


def template_text(template: Template) -> str:
    """A template as text, each field written ``{expression}`` (for logs and hashes of the protocol)."""
    return "".join(part if isinstance(part, str) else "{" + part.expression + "}" for part in template.parts)


@functools.lru_cache(maxsize=16)
def parsed(source: str) -> ast.Module:
    """``ast.parse(source)``, once per source text: a task reads several templates and settings
    from the same upstream file (callers only read the tree, never change it)."""
    return ast.parse(source)


def find_function(source: str, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
    """The function ``name`` (``"func"`` or ``"Class.method"``) of a module's source text."""
    tree = parsed(source)
    wanted = name.split(".")
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and len(wanted) == 2 and node.name == wanted[0]:
            for child in node.body:
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and child.name == wanted[1]:
                    return child
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and len(wanted) == 1 and node.name == name:
            return node
    raise UpstreamCodeError(f"upstream code has no function {name!r}")


def _assignments(scope: ast.AST) -> dict[str, list[ast.expr]]:
    """Every ``name = <expr>`` (and ``name += <expr>``) in a scope, in source order."""
    found: dict[str, list[ast.expr]] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found.setdefault(target.id, []).append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            found.setdefault(node.target.id, []).append(node.value)
    return found


def _to_parts(node: ast.expr, local: dict[str, list[ast.expr]], depth: int = 0) -> list[str | Field]:
    """Literal text and fields of a string expression (constants, f-strings, ``+``, local names)."""
    if depth > 20:
        raise UpstreamCodeError("string expression nests too deeply")
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        parts: list[str | Field] = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(value.value)
            elif isinstance(value, ast.FormattedValue):
                spec = ""
                if value.format_spec is not None:
                    spec_parts = _to_parts(value.format_spec, local, depth + 1)
                    if any(isinstance(p, Field) for p in spec_parts):
                        raise UpstreamCodeError("nested fields in a format spec are not supported")
                    spec = "".join(p for p in spec_parts if isinstance(p, str))
                conversion = "" if value.conversion == -1 else chr(value.conversion)
                parts.append(Field(ast.unparse(value.value), conversion, spec))
            else:  # pragma: no cover - the grammar allows nothing else
                raise UpstreamCodeError(f"unexpected f-string part {ast.dump(value)}")
        return parts
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _to_parts(node.left, local, depth + 1) + _to_parts(node.right, local, depth + 1)
    if isinstance(node, ast.Name) and len(local.get(node.id, [])) == 1:
        return _to_parts(local[node.id][0], local, depth + 1)
    raise UpstreamCodeError(f"not a string template: {ast.unparse(node)[:80]!r}")


def _merge(parts: list[str | Field]) -> tuple[str | Field, ...]:
    merged: list[str | Field] = []
    for part in parts:
        if isinstance(part, str) and merged and isinstance(merged[-1], str):
            merged[-1] = merged[-1] + part
        elif part != "":
            merged.append(part)
    return tuple(merged)


def expression_template(node: ast.expr) -> Template:
    """A string expression node (constant, f-string, ``+`` of these) as a :class:`Template`."""
    return Template(_merge(_to_parts(node, {})))


def string_template(source: str, function: str | None, variable: str | None = None, index: int = 0) -> Template:
    """The string built in ``function`` (``None``: module level) as a :class:`Template`.

    ``variable``: the name the string is assigned to (its only assignment in that scope); without
    it, the ``index``-th string expression that is returned or assigned, in source order.
    Names of other strings assigned once in the same scope are followed (``a + b``).
    """
    scope: ast.AST = parsed(source) if function is None else find_function(source, function)
    local = _assignments(scope)
    if variable is not None:
        values = local.get(variable, [])
        if len(values) != 1:
            where = function or "module level"
            raise UpstreamCodeError(f"{where}: expected one assignment to {variable!r}, found {len(values)}")
        return Template(_merge(_to_parts(values[0], local)))
    candidates: list[Template] = []
    nodes = [n for n in ast.walk(scope) if isinstance(n, (ast.Assign, ast.Return))]
    for node in sorted(nodes, key=lambda n: (n.lineno, n.col_offset)):
        value = node.value
        if value is None:
            continue
        try:
            candidates.append(Template(_merge(_to_parts(value, local))))
        except UpstreamCodeError:
            continue
    if index >= len(candidates):
        raise UpstreamCodeError(f"{function or 'module level'}: no string template number {index}")
    return candidates[index]


def literal_value(source: str, function: str | None, variable: str) -> Any:
    """A literal (number, string, tuple, dict…) assigned once to ``variable``, e.g. a temperature."""
    scope: ast.AST = parsed(source) if function is None else find_function(source, function)
    values = _assignments(scope).get(variable, [])
    if len(values) != 1:
        raise UpstreamCodeError(f"{function or 'module level'}: expected one assignment to {variable!r}")
    try:
        return ast.literal_eval(values[0])
    except ValueError:
        raise UpstreamCodeError(f"{variable!r} is not a literal: {ast.unparse(values[0])[:80]!r}") from None


def call_keyword(source: str, function: str | None, callee: str, keyword: str) -> Any:
    """The literal value of ``keyword=`` in the first call to ``callee`` (dotted name's last part)."""
    scope: ast.AST = parsed(source) if function is None else find_function(source, function)
    for node in ast.walk(scope):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if name != callee:
            continue
        for kw in node.keywords:
            if kw.arg == keyword:
                try:
                    return ast.literal_eval(kw.value)
                except ValueError:
                    raise UpstreamCodeError(f"{callee}({keyword}=...) is not a literal") from None
    raise UpstreamCodeError(f"{function or 'module level'}: no call {callee}(..., {keyword}=...)")


def _scope(source: str, function: str | None) -> ast.AST:
    return parsed(source) if function is None else find_function(source, function)


def assigned_strings(source: str, function: str | None, variable: str) -> list[str]:
    """Every plain string literal assigned to ``variable`` in the scope, in source order."""
    found = []
    for node in ast.walk(_scope(source, function)):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == variable for t in node.targets):
            try:
                found.append((node.lineno, Template(_merge(_to_parts(node.value, {}))).literal))
            except UpstreamCodeError:
                continue
    return [text for _, text in sorted(found)]


def format_receivers(source: str, function: str | None) -> list[str]:
    """The literal strings ``"...".format(...)`` is called on in the scope, in source order."""
    found = []
    for node in ast.walk(_scope(source, function)):
        text = _format_literal(node)
        if text is not None:
            found.append((getattr(node, "lineno", 0), getattr(node, "col_offset", 0), text))
    return [text for _, _, text in sorted(found)]


def _format_literal(node: ast.AST) -> str | None:
    """The string literal ``"..."`` of a ``"...".format(...)`` call, else None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
    ):
        return node.func.value.value
    return None


def dict_entry(source: str, function: str | None, key: str, where: Mapping[str, str]) -> ast.expr:
    """The value of ``key`` in the one dict literal of the scope whose constant entries include ``where``."""
    matches = []
    for node in ast.walk(_scope(source, function)):
        if not isinstance(node, ast.Dict):
            continue
        entries = {k.value: v for k, v in zip(node.keys, node.values, strict=True) if isinstance(k, ast.Constant)}
        constants = {k: v.value for k, v in entries.items() if isinstance(v, ast.Constant)}
        if key in entries and all(constants.get(k) == v for k, v in where.items()):
            matches.append(entries[key])
    if len(matches) != 1:
        raise UpstreamCodeError(f"{function or 'module level'}: expected one dict with {dict(where)} and {key!r}")
    return matches[0]


def format_receiver(node: ast.expr) -> str:
    """The literal of ``"...".format(...)``, the shape of a ``.format`` template."""
    text = _format_literal(node)
    if text is not None:
        return text
    raise UpstreamCodeError(f"not a '...'.format(...) call: {ast.unparse(node)[:80]!r}")


def format_arguments(node: ast.expr) -> tuple[str, ...]:
    """The arguments of a ``"...".format(...)`` call, as source text (to check what upstream fills in)."""
    format_receiver(node)
    assert isinstance(node, ast.Call)  # format_receiver raised otherwise
    return tuple(ast.unparse(argument) for argument in node.args)


def assigned_expression(source: str, function: str | None, variable: str) -> ast.expr:
    """The expression assigned once to ``variable`` in the scope (e.g. a ``"...".format(...)`` call)."""
    values = _assignments(_scope(source, function)).get(variable, [])
    if len(values) != 1:
        raise UpstreamCodeError(f"{function or 'module level'}: expected one assignment to {variable!r}")
    return values[0]


def dict_literals(source: str, function: str | None, required_key: str) -> list[dict[str, Any]]:
    """Literal dicts (``{"temperature": 1, ...}``) of the scope holding ``required_key``, constants only."""
    found: list[tuple[int, dict[str, Any]]] = []
    for node in ast.walk(_scope(source, function)):
        if isinstance(node, ast.Dict):
            entries: dict[str, Any] = {}
            for k, v in zip(node.keys, node.values, strict=True):
                if isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Constant):
                    entries[k.value] = v.value
            if required_key in entries:
                found.append((node.lineno, entries))
    return [entries for _, entries in sorted(found, key=lambda item: item[0])]


def attribute_defaults(source: str, function: str | None) -> dict[str, Any]:
    """``self.x.name = <literal>`` assignments of the scope: ``{"name": value}`` (e.g. default settings)."""
    found: dict[str, Any] = {}
    for node in ast.walk(_scope(source, function)):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute):
                    try:
                        found[target.attr] = ast.literal_eval(node.value)
                    except ValueError:
                        continue
    return found
