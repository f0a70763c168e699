"""Valve's Anthropic door through the official `anthropic` Python SDK, as a product's backend uses it.

Run by test/node/clients/python-anthropic.test.ts against a local Valve:
    python anthropic_sdk_checks.py BASE_URL API_KEY
BASE_URL is the door's base, as ANTHROPIC_BASE_URL is (http://127.0.0.1:8787/anthropic). Prints one
JSON line per check: {"check": name, "ok": bool, "detail": str}. Exits 0 either way: the test reads
the lines and asserts each check.
"""

import json
import sys

import anthropic

from media_samples import b64, pdf, png


def report(name, ok, detail=""):
    print(json.dumps({"check": name, "ok": bool(ok), "detail": str(detail)}), flush=True)


def check(name):
    def wrap(fn):
        def run(client):
            try:
                fn(client)
            except Exception as error:  # noqa: BLE001 - every failure is a failed check
                report(name, False, f"{type(error).__name__}: {error}")
        return run
    return wrap


hello = [{"role": "user", "content": "Say hello."}]
weather = {
    "name": "get_weather",
    "description": "The weather in a city.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


@check("create answers text with a msg_ id and the receipt in valve")
def create(client):
    message = client.messages.create(model="auto", max_tokens=256, system="Be brief.", messages=hello)
    valve = message.model_extra["valve"]
    ok = (
        message.content[0].type == "text"
        and message.stop_reason == "end_turn"
        and message.id == f"msg_{valve['receiptId']}"
        and valve["receipt"]["jws"]
    )
    report("create answers text with a msg_ id and the receipt in valve", ok, message.id)


@check("stream with text_stream gives the final message's text")
def stream(client):
    with client.messages.stream(model="auto", max_tokens=256, messages=hello) as events:
        text = "".join(events.text_stream)
        final = events.get_final_message()
    ok = text and final.content[0].text == text and final.stop_reason == "end_turn"
    report("stream with text_stream gives the final message's text", ok, final.stop_reason)


@check("a tool loop of three turns ends in text")
def tool_loop(client):
    ask = [{"role": "user", "content": "What is the weather in Oslo?"}]
    first = client.messages.create(
        model="auto", max_tokens=256, messages=ask, tools=[weather], tool_choice={"type": "tool", "name": "get_weather"}
    )
    use = next(block for block in first.content if block.type == "tool_use")
    history = ask + [
        {"role": "assistant", "content": [block.model_dump(exclude_none=True) for block in first.content]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "Sunny, 21 C"}]},
    ]
    second = client.messages.create(model="auto", max_tokens=256, messages=history, tools=[weather])
    ok = first.stop_reason == "tool_use" and second.stop_reason == "end_turn" and second.content[0].type == "text"
    report("a tool loop of three turns ends in text", ok, f"{first.stop_reason} {second.stop_reason}")


@check("stream events: text deltas with their snapshot, a tool_use assembled from input_json")
def stream_events(client):
    name = "stream events: text deltas with their snapshot, a tool_use assembled from input_json"
    with client.messages.stream(model="auto", max_tokens=256, messages=hello) as events:
        texts = [event for event in events if event.type == "text"]
        final = events.get_final_message()
    text_ok = len(texts) > 1 and texts[-1].snapshot == final.content[0].text == "".join(e.text for e in texts)
    with client.messages.stream(
        model="auto", max_tokens=256, messages=hello, tools=[weather], tool_choice={"type": "any"}
    ) as events:
        seen = [event for event in events]
        final = events.get_final_message()
    json_events = [event for event in seen if event.type == "input_json"]
    stops = [event.content_block for event in seen if event.type == "content_block_stop"]
    use = next(block for block in final.content if block.type == "tool_use")
    tool_ok = (
        json_events
        and json_events[-1].snapshot == use.input
        and isinstance(use.input.get("city"), str)
        and [block.type for block in stops] == ["tool_use"]
        and final.stop_reason == "tool_use"
    )
    report(name, text_ok and tool_ok, f"{len(texts)} text events, {len(json_events)} input_json, {final.stop_reason}")


@check("an overloaded model is an OverloadedError (529) after the SDK's own retry")
def overloaded(client):
    name = "an overloaded model is an OverloadedError (529) after the SDK's own retry"
    sent = []
    counting = anthropic.Anthropic(
        base_url=str(client.base_url),
        api_key=client.api_key,
        max_retries=1,
        http_client=anthropic.DefaultHttpxClient(event_hooks={"request": [lambda request: sent.append(request.url.path)]}),
    )
    try:
        counting.messages.create(model="sim/busy", max_tokens=16, messages=hello)
        report(name, False, "answered")
    except anthropic.OverloadedError as error:
        ok = error.status_code == 529 and error.body["error"]["type"] == "overloaded_error" and len(sent) == 2
        report(name, ok, f"{error.status_code} after {len(sent)} requests")


@check("count_tokens and models")
def count_and_models(client):
    count = client.messages.count_tokens(model="auto", messages=hello)
    ids = [model.id for model in client.models.list()]
    one = client.models.retrieve("sim/fast")
    ok = count.input_tokens > 0 and "auto" in ids and one.id == "sim/fast"
    report("count_tokens and models", ok, f"{count.input_tokens} {ids[:3]}")


@check("an image and a PDF are read by a model that reads them")
def media(client):
    content = [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64(png())}},
        {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": b64(pdf())}},
        {"type": "text", "text": "Describe both."},
    ]
    message = client.messages.create(model="auto", max_tokens=256, messages=[{"role": "user", "content": content}])
    types = [part["type"] for part in message.model_extra["valve"]["decision"]["media"]]
    report("an image and a PDF are read by a model that reads them", types == ["image", "file"], types)


@check("a bad key is an AuthenticationError, an unknown model a NotFoundError, a server tool a BadRequestError")
def errors(client):
    name = "a bad key is an AuthenticationError, an unknown model a NotFoundError, a server tool a BadRequestError"
    bad = anthropic.Anthropic(base_url=str(client.base_url), api_key="vk_wrong", max_retries=0)
    caught = []
    for call, kind in (
        (lambda: bad.messages.create(model="auto", max_tokens=16, messages=hello), anthropic.AuthenticationError),
        (lambda: client.messages.create(model="claude-nope", max_tokens=16, messages=hello), anthropic.NotFoundError),
        (
            lambda: client.messages.create(
                model="auto", max_tokens=16, messages=hello, tools=[{"type": "web_search_20250305", "name": "web_search"}]
            ),
            anthropic.BadRequestError,
        ),
    ):
        try:
            call()
            caught.append("answered")
        except kind as error:
            caught.append(error.body["error"]["type"])
    ok = caught == ["authentication_error", "not_found_error", "invalid_request_error"]
    report(name, ok, caught)


def main():
    base_url, api_key = sys.argv[1], sys.argv[2]
    client = anthropic.Anthropic(base_url=base_url, api_key=api_key, max_retries=0)
    for run in (create, stream, stream_events, tool_loop, count_and_models, media, errors, overloaded):
        run(client)


if __name__ == "__main__":
    main()
