"""``--where``: a row filter for warehouse exports, parsed into an Arrow expression (never SQL).

The text comes from a command line or a config file that may not be the user's own, so it is
parsed by a small grammar into a :class:`pyarrow.compute.Expression` and handed to
``pyarrow.dataset`` (which pushes it down to partition pruning and row-group statistics). Nothing
is string-concatenated into a query engine: a function call, a subquery or a second statement is
a syntax error, not something executed.

Grammar (case-insensitive keywords)::

    expr       := term ("OR" term)*
    term       := factor ("AND" factor)*
    factor     := "NOT" factor | "(" expr ")" | comparison
    comparison := column op literal | column ["NOT"] "IN" "(" literal ("," literal)* ")"
                | column "BETWEEN" literal "AND" literal | column "IS" ["NOT"] "NULL"
    op         := "=" | "==" | "!=" | "<>" | "<" | "<=" | ">" | ">="
    literal    := 'text' ('' inside for a quote) | number | TRUE | FALSE
    column     := name | "quoted name"

A literal compared with a date or timestamp column is cast to the column's type
(``date >= '2026-11-01'`` works whether the partition column was read as text or as a date).
"""

from __future__ import annotations

import re
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from trustmh.core.errors import UserError

_TOKEN = re.compile(
    r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<number>-?\d+(?:\.\d+)?)|(?P<quoted>\"[^\"]+\")"
    r"|(?P<op><=|>=|<>|!=|==|=|<|>|\(|\)|,)|(?P<word>[A-Za-z_][A-Za-z0-9_.]*))"
)
_KEYWORDS = {"and", "or", "not", "in", "between", "is", "null", "true", "false"}
_COMPARE = {
    "=": pc.equal,
    "==": pc.equal,
    "!=": pc.not_equal,
    "<>": pc.not_equal,
    "<": pc.less,
    "<=": pc.less_equal,
    ">": pc.greater,
    ">=": pc.greater_equal,
}
MAX_WHERE_CHARS = 2_000


def _tokens(text: str) -> list[tuple[str, str, int]]:
    tokens: list[tuple[str, str, int]] = []
    position = 0
    while position < len(text):
        if not text[position:].strip():
            break
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise _error(text, position, "expected a column, a comparison or a quoted value")
        group = match.lastgroup or ""
        kind, value = group, match.group(group)
        if kind == "word" and value.lower() in _KEYWORDS:
            kind, value = "keyword", value.lower()
        tokens.append((kind, value, match.start(group)))
        position = match.end()
    return tokens


def _error(text: str, position: int, expected: str) -> UserError:
    return UserError(f"{text!r} at character {position + 1}: {expected}", argument="where")


class _Parser:
    def __init__(self, text: str, schema: pa.Schema) -> None:
        self.text, self.schema = text, schema
        self.tokens = _tokens(text)
        self.index = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def accept(self, kind: str, value: str | None = None) -> bool:
        token = self.peek()
        if token is not None and token[0] == kind and (value is None or token[1] == value):
            self.index += 1
            return True
        return False

    def expect(self, kind: str, value: str, expected: str) -> None:
        if not self.accept(kind, value):
            raise self.fail(expected)

    def fail(self, expected: str) -> UserError:
        token = self.peek()
        return _error(self.text, token[2] if token else len(self.text), expected)

    def expr(self) -> pc.Expression:
        result = self.term()
        while self.accept("keyword", "or"):
            result = result | self.term()
        return result

    def term(self) -> pc.Expression:
        result = self.factor()
        while self.accept("keyword", "and"):
            result = result & self.factor()
        return result

    def factor(self) -> pc.Expression:
        if self.accept("keyword", "not"):
            return ~self.factor()
        if self.accept("op", "("):
            inner = self.expr()
            self.expect("op", ")", "expected ')'")
            return inner
        return self.comparison()

    def column(self) -> tuple[pc.Expression, pa.DataType]:
        token = self.peek()
        if token is None or token[0] not in ("word", "quoted"):
            raise self.fail("expected a column name")
        self.index += 1
        name = token[1].strip('"')
        if name not in self.schema.names:
            raise _error(
                self.text, token[2], f"no column {name!r} in the export (it has {', '.join(self.schema.names)})"
            )
        return pc.field(name), self.schema.field(name).type

    def literal(self, type_: pa.DataType) -> pa.Scalar:
        token = self.peek()
        if token is None or not (token[0] in ("string", "number") or token[1] in ("true", "false")):
            raise self.fail("expected a value: 'text', a number, true or false")
        self.index += 1
        kind, raw, position = token
        value: Any = raw[1:-1].replace("''", "'") if kind == "string" else raw
        if kind == "number":
            value = float(raw) if "." in raw else int(raw)
        elif kind == "keyword":
            value = raw == "true"
        if pa.types.is_string(type_) or pa.types.is_large_string(type_) or pa.types.is_dictionary(type_):
            return pa.scalar(value if kind == "string" else raw)  # text compared as text
        scalar = pa.scalar(value)
        try:
            return scalar.cast(type_)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            raise _error(self.text, position, f"expected a value of the column's type {type_}, found {raw}") from None

    def comparison(self) -> pc.Expression:
        field, type_ = self.column()
        if self.accept("keyword", "is"):
            negated = self.accept("keyword", "not")
            self.expect("keyword", "null", "expected NULL after IS")
            return ~field.is_null() if negated else field.is_null()
        negated = self.accept("keyword", "not")
        if self.accept("keyword", "in"):
            self.expect("op", "(", "expected '(' after IN")
            values = [self.literal(type_)]
            while self.accept("op", ","):
                values.append(self.literal(type_))
            self.expect("op", ")", "expected ')' closing the IN list")
            inside = field.isin(pa.array([v.as_py() for v in values], type=values[0].type))
            return ~inside if negated else inside
        if negated:
            raise self.fail("expected IN after NOT")
        if self.accept("keyword", "between"):
            low = self.literal(type_)
            self.expect("keyword", "and", "expected AND in BETWEEN")
            return (field >= low) & (field <= self.literal(type_))
        token = self.peek()
        if token is None or token[0] != "op" or token[1] not in _COMPARE:
            raise self.fail("expected a comparison (=, !=, <, <=, >, >=, IN, BETWEEN, IS NULL)")
        self.index += 1
        return _COMPARE[token[1]](field, self.literal(type_))


def parse_where(text: str, schema: pa.Schema) -> pc.Expression:
    """The filter ``text`` as an Arrow expression over ``schema``'s columns (grammar above)."""
    if not text.strip():
        raise UserError("expected a condition such as \"date >= '2026-11-01'\"", argument="where")
    if len(text) > MAX_WHERE_CHARS:
        raise UserError(f"expected at most {MAX_WHERE_CHARS} characters", argument="where")
    parser = _Parser(text, schema)
    result = parser.expr()
    if parser.peek() is not None:
        raise parser.fail("expected AND, OR or the end of the condition")
    return result
