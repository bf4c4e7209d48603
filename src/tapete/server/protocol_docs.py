"""The protocol's written forms, generated from its models: the field tables of
``docs/protocol.md`` and the JSON Schema the pages may read (``web/common/protocol.schema.json``).

The models (:mod:`tapete.server.protocol`, :mod:`tapete.server.replay_protocol`) say each
field's type and, in its ``msgspec.Meta`` description, what it means; a model's section in the
document (``### `Name```) gets its table from them, the prose around the tables stays as it is
written. ``python -m tapete.server.protocol_docs`` writes both files; ``--check`` only says
whether they differ from what the models make now (a test runs it: they never drift).
"""

from __future__ import annotations

import difflib
import json
import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec

from tapete.server import protocol, replay_protocol

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "protocol.md"
SCHEMA = Path(__file__).resolve().parents[1] / "web" / "common" / "protocol.schema.json"
HEADER = ("| field | type | meaning |", "|---|---|---|")
_HEADING = re.compile(r"### `(\w+)`")


def models() -> list[type[msgspec.Struct]]:
    """Every model of the protocol, in the order its modules define them: the page's
    messages and every part of the server's, then the replayer's HTTP answers."""
    out: list[type[msgspec.Struct]] = []
    for module in (protocol, replay_protocol):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, msgspec.Struct) \
                    and value.__module__ == module.__name__ \
                    and not value.__name__.startswith("_"):
                out.append(value)
    return out


def _unwrap(tp: Any) -> tuple[Any, str]:
    """A field's type without its ``Annotated`` description, and the description."""
    if get_origin(tp) is Annotated:
        base, *extra = get_args(tp)
        for meta in extra:
            if isinstance(meta, msgspec.Meta) and meta.description:
                return base, meta.description
        return base, ""
    return tp, ""


def type_text(tp: Any) -> str:
    """A field's type as the document writes it: ``integer or null``, ``list of `Seat```,
    ```"nl"`, `"pl"` or `"fl"```."""
    return _either(_alternatives(tp))


def _alternatives(tp: Any) -> list[str]:
    """A type's alternatives, each in words (a union's and a ``Literal``'s, flattened)."""
    tp, _ = _unwrap(tp)
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        return [text for a in get_args(tp) if a is not msgspec.UnsetType
                for text in _alternatives(a)]
    if origin is Literal:
        return [f"`{json.dumps(a)}`" for a in get_args(tp)]
    if origin is list:
        return ["list of " + _plural(type_text(get_args(tp)[0]))]
    if origin is tuple:
        return ["`[" + ", ".join(type_text(a) for a in get_args(tp)) + "]`"]
    if origin is dict:
        value = get_args(tp)[1]
        return ["object" if value is Any else "object of " + _plural(type_text(value))]
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return [f"`{tp.__name__}`"]
    simple = {int: "integer", str: "string", bool: "boolean", float: "number",
              type(None): "null"}
    if tp in simple:
        return [simple[tp]]
    raise TypeError(f"no words for the type {tp!r}")


def _either(texts: list[str]) -> str:
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]


def _plural(text: str) -> str:
    if " or " in text:
        return f"({text})"
    if text.startswith("`"):
        return text
    if text.startswith(("list of ", "object")):
        return text.replace("list", "lists", 1).replace("object", "objects", 1)
    return text + "s"


def rows(model: type[msgspec.Struct]) -> list[str]:
    """The model's table: a row per field (its name on the wire, its type, what it means)."""
    hints = msgspec.structs.fields(model)
    out = list(HEADER)
    for f in hints:
        _, meaning = _unwrap(f.type)
        kind = type_text(f.type) + ("" if f.required else ", optional")
        out.append(f"| `{f.encode_name}` | {kind} | {meaning} |".replace("|  |", "| |"))
    return out


def document(text: str) -> str:
    """``docs/protocol.md`` with each model's table as the models make it now: the table
    after a model's heading (and its prose) is replaced, a model without fields has none."""
    tables = {m.__name__: rows(m) for m in models() if msgspec.structs.fields(m)}
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    current: str | None = None
    while i < len(lines):
        line = lines[i]
        head = _HEADING.match(line)
        if head or line.startswith("## "):
            current = head.group(1) if head else None
        if current in tables and line == HEADER[0]:
            out += tables.pop(current)
            while i < len(lines) and lines[i].startswith("|"):
                i += 1
            current = None
            continue
        out.append(line)
        i += 1
    if tables:
        raise ValueError(f"docs/protocol.md has no table for {', '.join(sorted(tables))}")
    return "\n".join(out)


def schema() -> str:
    """The JSON Schema of every model (``$defs``, one per model, with each field's
    description), and the messages each side sends (``server``, ``client``, ``room``)."""
    every = models()
    _, defs = msgspec.json.schema_components(every, ref_template="#/$defs/{name}")
    refs = {name: [{"$ref": f"#/$defs/{m.__name__}"} for m in group] for name, group in (
        ("server", protocol.SERVER_MESSAGES),
        ("client", list(protocol.CLIENT_MESSAGES.values())),
        ("room", list(protocol.ROOM_MESSAGES.values())))}
    out = {"$schema": "https://json-schema.org/draft/2020-12/schema",
           "title": "tapete's browser protocol",
           "description": "Generated from tapete.server.protocol and replay_protocol by "
                          "`python -m tapete.server.protocol_docs`; docs/protocol.md "
                          "describes it.",
           "messages": {name: {"anyOf": r} for name, r in refs.items()},
           "$defs": defs}
    return json.dumps(out, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def outputs() -> Iterator[tuple[Path, str]]:
    """Each generated file and what it should hold now."""
    yield DOC, document(DOC.read_text(encoding="utf-8"))
    yield SCHEMA, schema()


def drift() -> list[str]:
    """What differs between the files and what the models make (a unified diff per file);
    [] when nothing does."""
    out: list[str] = []
    for path, text in outputs():
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if old != text:
            name = str(path.relative_to(ROOT))
            out.append("".join(difflib.unified_diff(
                old.splitlines(keepends=True), text.splitlines(keepends=True),
                name, name + " (generated)", n=1)))
    return out


def main(argv: list[str]) -> int:
    if "--check" in argv:
        problems = drift()
        for p in problems:
            print(p)
        return 1 if problems else 0
    for path, text in outputs():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
