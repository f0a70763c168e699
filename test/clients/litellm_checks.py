"""Valve's OpenAI door through litellm (`litellm.completion`), as its documentation uses it.

Run by test/node/clients/python-litellm.test.ts against a local Valve:
    python litellm_checks.py BASE_URL API_KEY
Prints one JSON line per check: {"check": name, "ok": bool, "detail": str}. Exits 0 either way: the
test reads the lines and asserts each check. Models are "openai/<Valve model>", litellm's prefix for
any OpenAI-compatible server at `api_base`.
"""

import asyncio
import json
import os
import sys

# litellm fetches its model price list from the network at import unless told to use its bundled copy.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("LITELLM_TELEMETRY", "False")

import litellm  # noqa: E402
import openai  # noqa: E402
from pydantic import BaseModel  # noqa: E402

MODEL = "openai/sim/fast"

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The current weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]


class Person(BaseModel):
    name: str
    age: int


class Address(BaseModel):
    city: str


class Resident(BaseModel):
    """Nested models: Pydantic's schema reaches Address through `$defs` and `$ref`."""

    name: str
    home: Address
    past: list[Address]


def report(name, ok, detail=""):
    print(json.dumps({"check": name, "ok": bool(ok), "detail": str(detail)}), flush=True)


CHECKS = []


def check(name):
    """Registers a check: it returns (ok, detail); an exception is a failed check naming it."""

    def wrap(fn):
        def run(conn):
            try:
                ok, detail = fn(conn)
                report(name, ok, detail)
            except Exception as error:  # noqa: BLE001 - every failure is a failed check
                report(name, False, f"{type(error).__name__}: {error}"[:2000])

        CHECKS.append(run)
        return run

    return wrap


def complete(conn, **kwargs):
    kwargs.setdefault("model", MODEL)
    return litellm.completion(api_base=conn["base"], api_key=conn["key"], num_retries=0, **kwargs)


def user(text):
    return [{"role": "user", "content": text}]


@check("completion answers in text")
def text_answer(conn):
    answer = complete(conn, messages=user("Say hello."))
    content = answer.choices[0].message.content
    ok = isinstance(content, str) and content != "" and answer.choices[0].finish_reason == "stop"
    return ok, content


@check("the id is chatcmpl-<receiptId>")
def completion_id(conn):
    answer = complete(conn, messages=user("Say hello."))
    return answer.id.startswith("chatcmpl-"), answer.id


@check("usage is counted")
def usage(conn):
    answer = complete(conn, messages=user("Say hello."))
    u = answer.usage
    ok = u.prompt_tokens > 0 and u.completion_tokens > 0 and u.total_tokens == u.prompt_tokens + u.completion_tokens
    return ok, u


@check("system message and an alias model")
def system_and_alias(conn):
    answer = complete(
        conn,
        model="openai/valve/cost",
        messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Say hello."}],
    )
    return answer.choices[0].message.content, answer.model


@check("sampling parameters are accepted")
def sampling(conn):
    answer = complete(
        conn, messages=user("Say hello."), temperature=0.2, top_p=0.9, seed=7, stop=["\n\n"], user="u-1"
    )
    return answer.choices[0].message.content, answer.choices[0].finish_reason


@check("max_tokens truncates")
def max_tokens(conn):
    answer = complete(conn, messages=user("Say hello."), max_tokens=3)
    choice = answer.choices[0]
    return choice.finish_reason == "length" and answer.usage.completion_tokens <= 3, choice.finish_reason


@check("an assistant message read back is sent again")
def message_round_trip(conn):
    messages = user("Say hello.")
    first = complete(conn, messages=messages)
    messages.append(first.choices[0].message)
    messages.append({"role": "user", "content": "Again."})
    second = complete(conn, messages=messages)
    return second.choices[0].message.content, second.id


@check("streaming yields the text in chunks")
def stream_text(conn):
    chunks = list(complete(conn, messages=user("Say hello."), stream=True))
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    finish = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
    return len(chunks) > 2 and text.startswith("[simulated") and finish == ["stop"], f"{len(chunks)} {finish}"


@check("streaming with include_usage reports usage")
def stream_usage(conn):
    chunks = list(
        complete(conn, messages=user("Say hello."), stream=True, stream_options={"include_usage": True})
    )
    usages = [getattr(c, "usage", None) for c in chunks]
    usages = [u for u in usages if u is not None and u.total_tokens > 0]
    return len(usages) >= 1, usages[-1] if usages else "no usage"


@check("stream_chunk_builder rebuilds the completion")
def stream_builder(conn):
    messages = user("Say hello.")
    chunks = list(complete(conn, messages=messages, stream=True))
    rebuilt = litellm.stream_chunk_builder(chunks, messages=messages)
    return rebuilt.choices[0].message.content.startswith("[simulated"), rebuilt.choices[0].message.content


@check("tools: a call comes back")
def tool_call(conn):
    answer = complete(conn, messages=user("Use get_weather for Paris."), tools=TOOLS)
    choice = answer.choices[0]
    calls = choice.message.tool_calls or []
    ok = choice.finish_reason == "tool_calls" and calls and calls[0].function.name == "get_weather"
    return ok, calls and json.loads(calls[0].function.arguments)


def tool_loop(conn, assistant_of, **kwargs):
    """litellm's documented loop: the assistant message appended back, then a tool message per call."""
    messages = user("Use get_weather for Paris.")
    first = complete(conn, messages=messages, tools=TOOLS, **kwargs)
    message = first.choices[0].message
    messages.append(assistant_of(message))
    for call in message.tool_calls:
        messages.append(
            {
                "role": "tool",
                "tool_call_id": call.id,
                "name": call.function.name,
                "content": json.dumps({"city": "Paris", "celsius": 21}),
            }
        )
    second = complete(conn, messages=messages, tools=TOOLS)
    return second.choices[0].message.content and second.choices[0].finish_reason == "stop", second.choices[0]


@check("tool loop: the Message object appended back")
def tool_loop_object(conn):
    return tool_loop(conn, lambda message: message)


@check("tool loop: message.model_dump() appended back")
def tool_loop_dump(conn):
    return tool_loop(conn, lambda message: message.model_dump())


@check("tool loop: message.json() appended back")
def tool_loop_json(conn):
    return tool_loop(conn, lambda message: message.json())


@check("tool loop with parallel_tool_calls=False")
def tool_loop_serial(conn):
    return tool_loop(conn, lambda message: message, parallel_tool_calls=False)


@check("tool_choice required")
def tool_required(conn):
    answer = complete(conn, messages=user("Anything."), tools=TOOLS, tool_choice="required")
    calls = answer.choices[0].message.tool_calls or []
    return len(calls) == 1 and calls[0].function.name == "get_weather", calls


@check("tool_choice naming a function")
def tool_named(conn):
    choice = {"type": "function", "function": {"name": "get_weather"}}
    answer = complete(conn, messages=user("Anything."), tools=TOOLS, tool_choice=choice)
    calls = answer.choices[0].message.tool_calls or []
    return len(calls) == 1 and calls[0].function.name == "get_weather", calls


@check("streaming a tool call")
def stream_tool(conn):
    messages = user("Use get_weather for Paris.")
    chunks = list(complete(conn, messages=messages, tools=TOOLS, stream=True))
    rebuilt = litellm.stream_chunk_builder(chunks, messages=messages)
    calls = rebuilt.choices[0].message.tool_calls or []
    ok = len(calls) == 1 and json.loads(calls[0].function.arguments).get("city") is not None
    return ok, calls


@check("JSON mode: response_format json_object")
def json_object(conn):
    answer = complete(
        conn, messages=user("Reply with a JSON object."), response_format={"type": "json_object"}
    )
    return isinstance(json.loads(answer.choices[0].message.content), dict), answer.choices[0].message.content


@check("structured output: response_format a pydantic model")
def json_pydantic(conn):
    answer = complete(conn, messages=user("Invent a person."), response_format=Person)
    person = Person.model_validate_json(answer.choices[0].message.content)
    return isinstance(person.age, int), person


@check("structured output: a nested pydantic model ($defs)")
def json_nested(conn):
    answer = complete(conn, messages=user("Invent a resident."), response_format=Resident)
    resident = Resident.model_validate_json(answer.choices[0].message.content)
    return isinstance(resident.home.city, str), resident


@check("structured output: response_format json_schema")
def json_schema(conn):
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
        "required": ["name", "age"],
        "additionalProperties": False,
    }
    answer = complete(
        conn,
        messages=user("Invent a person."),
        response_format={"type": "json_schema", "json_schema": {"name": "person", "schema": schema, "strict": True}},
    )
    value = json.loads(answer.choices[0].message.content)
    return set(value) == {"name", "age"}, value


@check("structured output streamed")
def json_stream(conn):
    chunks = list(complete(conn, messages=user("Invent a person."), response_format=Person, stream=True))
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    return isinstance(Person.model_validate_json(text).name, str), text


@check("acompletion (async)")
def async_completion(conn):
    async def run():
        return await litellm.acompletion(
            model=MODEL, messages=user("Say hello."), api_base=conn["base"], api_key=conn["key"]
        )

    answer = asyncio.run(run())
    return answer.choices[0].message.content, answer.id


@check("valve options ride in extra_body")
def valve_options(conn):
    answer = complete(
        conn,
        model="openai/auto",
        messages=user("Say hello."),
        extra_body={"valve": {"modelPolicy": {"regions": ["eu"]}}},
    )
    return answer.model in ("sim/fast", "sim/balanced"), answer.model


@check("a bad key raises AuthenticationError")
def bad_key(conn):
    try:
        litellm.completion(
            model=MODEL, messages=user("Hi"), api_base=conn["base"], api_key="vk_wrong", num_retries=0
        )
    except litellm.AuthenticationError as error:
        return error.status_code == 401, error.status_code
    return False, "answered"


@check("an unknown model raises NotFoundError")
def unknown_model(conn):
    try:
        complete(conn, model="openai/nobody/none", messages=user("Hi"))
    except litellm.NotFoundError as error:
        return error.status_code == 404, error.status_code
    return False, "answered"


@check("a refused parameter raises BadRequestError naming it")
def refused_param(conn):
    try:
        complete(conn, messages=user("Hi"), n=2)
    except litellm.BadRequestError as error:
        return error.status_code == 400 and "n" in str(error), str(error)[:300]
    return False, "answered"


@check("a prompt over the context window raises ContextWindowExceededError")
def context_window(conn):
    # sim/fast's window is 32,000 tokens; this prompt is about 60,000.
    try:
        complete(conn, messages=user("word " * 60_000))
    except litellm.ContextWindowExceededError as error:
        return error.status_code == 400, str(error)[:300]
    return False, "answered"


@check("a stream cut after its first chunks raises")
def stream_cut(conn):
    # sim/cut (the test's catalog) fails after two chunks: Valve ends the stream with an error chunk.
    received = []
    try:
        for chunk in complete(conn, model="openai/sim/cut", messages=user("Say hello."), stream=True):
            received.append(chunk.choices[0].delta.content if chunk.choices else None)
    except openai.APIError as error:  # every litellm exception is one of the openai SDK's
        return len(received) >= 1, f"{len(received)} chunks, then {type(error).__name__}: {error}"[:300]
    return False, f"{len(received)} chunks and no error"


def main():
    conn = {"base": sys.argv[1], "key": sys.argv[2]}
    for run in CHECKS:
        run(conn)


if __name__ == "__main__":
    main()
