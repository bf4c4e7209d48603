"""docs/protocol.md's field tables and the pages' JSON Schema are generated from the protocol's
models (``python -m tapete.server.protocol_docs``): the committed files are what the models
make now, and a change to either side alone is caught."""

from __future__ import annotations

import json

import msgspec

from tapete.server import protocol, protocol_docs


def test_the_documents_are_what_the_models_make_now() -> None:
    """Run ``python -m tapete.server.protocol_docs`` after changing a model."""
    assert protocol_docs.drift() == []


def test_a_table_edited_by_hand_or_a_field_added_is_drift() -> None:
    text = protocol_docs.DOC.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `pot_after_call` |"))
    edited = text.replace(row, row.replace("the pot once", "the pot, once"))
    assert edited != text and protocol_docs.document(edited) == text
    dropped = text.replace(row + "\n", "")
    assert protocol_docs.document(dropped) == text

    class Extra(msgspec.Struct):
        hint: int

    assert protocol_docs.rows(Extra)[-1] == "| `hint` | integer | |"


def test_the_schema_describes_every_model_and_the_messages_of_each_side() -> None:
    schema = json.loads(protocol_docs.SCHEMA.read_text(encoding="utf-8"))
    assert {m.__name__ for m in protocol_docs.models()} <= set(schema["$defs"])
    legal = schema["$defs"]["LegalOptions"]
    assert legal["properties"]["pot_after_call"]["description"].startswith("the pot once")
    assert "fixed_limit" in legal["required"]
    sent = {ref["$ref"].rsplit("/", 1)[1] for ref in schema["messages"]["server"]["anyOf"]}
    assert sent == {m.__name__ for m in protocol.SERVER_MESSAGES}


def test_type_words() -> None:
    words = protocol_docs.type_text
    assert words(int | None) == "integer or null"
    assert words(list[list[str]]) == "list of lists of strings"
    assert words(msgspec.structs.fields(protocol.Pre)[0].type) == \
        '`"check_fold"`, `"call_any"` or null'
