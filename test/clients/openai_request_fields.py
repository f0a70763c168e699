"""The top-level request fields of the installed openai-python, as JSON for test/openai/field-table.test.ts.

Run from the repository root, after `npm run clients:setup`:

    .cache/clients/venv/bin/python test/clients/openai_request_fields.py > test/fixtures/openai/request-fields.json
    npx biome format --write test/fixtures/openai/request-fields.json

For each field: whether the SDK's type lets it be null (`Optional[...]`, or a union with `None`), and, where
the type is a set of string literals (or a list of them), those strings.
"""

import json
import sys
import types
import typing

import openai
from openai.types.chat import completion_create_params as chat
from openai.types.responses import response_create_params as responses

COMMAND = (
    ".cache/clients/venv/bin/python test/clients/openai_request_fields.py > test/fixtures/openai/request-fields.json"
    " && npx biome format --write test/fixtures/openai/request-fields.json"
)

WRAPPERS = (typing.Required, typing.NotRequired, typing.Annotated)


def unwrap(tp):
    while typing.get_origin(tp) in WRAPPERS:
        tp = typing.get_args(tp)[0]
    return tp


def members(tp):
    """The alternatives of a union, or the type itself."""
    tp = unwrap(tp)
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return [unwrap(a) for a in typing.get_args(tp)]
    return [tp]


def literal_strings(tp):
    """The strings of a Literal of strings, or of a list of them; None for any other type."""
    if typing.get_origin(tp) in (list, typing.List):
        (tp,) = typing.get_args(tp)
    if typing.get_origin(tp) is typing.Literal:
        values = typing.get_args(tp)
        if all(isinstance(v, str) for v in values):
            return list(values)
    return None


def fields(*variants):
    """Every field of the variants (streaming and not), nullable if any variant lets it be null."""
    out = {}
    for cls in variants:
        for name, tp in typing.get_type_hints(cls, include_extras=True).items():
            alternatives = members(tp)
            field = out.setdefault(name, {"name": name, "nullable": False})
            field["nullable"] = field["nullable"] or type(None) in alternatives
            strings = [s for a in alternatives if a is not type(None) for s in (literal_strings(a) or [])]
            if strings and all(literal_strings(a) is not None for a in alternatives if a is not type(None)):
                field["values"] = sorted(set(field.get("values", []) + strings))
    return sorted(out.values(), key=lambda f: f["name"])


json.dump(
    {
        "sdk": f"openai-python {openai.__version__}",
        "command": COMMAND,
        "chat": fields(chat.CompletionCreateParamsNonStreaming, chat.CompletionCreateParamsStreaming),
        "responses": fields(responses.ResponseCreateParamsNonStreaming, responses.ResponseCreateParamsStreaming),
    },
    sys.stdout,
    indent=2,
)
sys.stdout.write("\n")
