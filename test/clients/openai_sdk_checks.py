"""Valve's OpenAI door through the official `openai` Python SDK, as a product's backend uses it.

Run by test/node/clients/python-openai.test.ts against a local Valve:
    python openai_sdk_checks.py BASE_URL API_KEY
and by python-openai-reasoning.test.ts against one whose model is Claude with extended thinking:
    python openai_sdk_checks.py BASE_URL API_KEY reasoning
Prints one JSON line per check: {"check": name, "ok": bool, "detail": str}. Exits 0 either way: the
test reads the lines and asserts each check.
"""

import json
import sys
import time

import openai

from media_samples import b64, data_url, pdf, png, wav


def report(name, ok, detail=""):
    print(json.dumps({"check": name, "ok": bool(ok), "detail": str(detail)}), flush=True)


def check(name):
    def wrap(fn):
        def run(client):
            try:
                fn(client)
            except Exception as error:  # noqa: BLE001 - every failure is a failed check
                report(name, False, f"{type(error).__name__}: {error}")
        run.check_name = name
        return run
    return wrap


def round_trip(name, dump):
    """A completion's message, serialized by the SDK's `dump`, sent back as the next turn's history."""

    @check(name)
    def run(client):
        messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Say hello."}]
        first = client.chat.completions.create(model="auto", messages=messages)
        messages.append(dump(first.choices[0].message))
        messages.append({"role": "user", "content": "Again."})
        second = client.chat.completions.create(model="auto", messages=messages)
        report(name, second.choices[0].message.content, second.id)

    return run


model_dump_round_trip = round_trip("model_dump round trip", lambda message: message.model_dump())
to_dict_round_trip = round_trip("to_dict round trip", lambda message: message.to_dict())


def reasoning_round_trip(name, dump):
    """A Claude-with-thinking tool loop: the assistant message, dumped, carries its reasoning back."""

    @check(name)
    def run(client):
        tools = [{"type": "function", "function": {"name": "checkSandboxErrors", "parameters": {"type": "object"}}}]
        messages = [{"role": "user", "content": "Check the sandbox for errors."}]
        ask = lambda: client.chat.completions.create(  # noqa: E731
            model="claude/claude-sonnet-4-6", messages=messages, tools=tools, reasoning_effort="low"
        )
        first = ask().choices[0].message
        messages.append(dump(first))
        messages.append({"role": "tool", "tool_call_id": first.tool_calls[0].id, "content": "No errors."})
        second = ask()
        report(name, second.choices[0].message.content, second.id)

    return run


reasoning_model_dump = reasoning_round_trip("model_dump round trip with reasoning", lambda m: m.model_dump())
reasoning_to_dict = reasoning_round_trip("to_dict round trip with reasoning", lambda m: m.to_dict())


@check("models.retrieve with a slash")
def retrieve_model(client):
    model = client.models.retrieve("sim/fast")
    report("models.retrieve with a slash", model.id == "sim/fast", model.id)


@check("max_tokens truncates")
def max_tokens(client):
    answer = client.chat.completions.create(
        model="sim/fast", messages=[{"role": "user", "content": "Say hello."}], max_tokens=3
    )
    choice = answer.choices[0]
    ok = choice.finish_reason == "length" and answer.usage.completion_tokens <= 3
    report("max_tokens truncates", ok, f"{choice.finish_reason} {answer.usage.completion_tokens}")


@check("a circuit-open 503 is retried until the probe answers")
def circuit_retry(client):
    started = time.monotonic()
    answer = client.with_options(max_retries=4).chat.completions.create(
        model="sim/flaky", messages=[{"role": "user", "content": "Say hello."}]
    )
    took = time.monotonic() - started
    report(
        "a circuit-open 503 is retried until the probe answers",
        answer.choices[0].message.content,
        f"answered after {took:.1f} s",
    )


@check("a circuit-open 503 is what the SDK sees without retries")
def circuit_status(client):
    # The circuit of sim/flaky-hold is opened by the first call (three failures inside Valve); the SDK
    # without retries then sees Valve's answer to the second: a retryable 503.
    no_retry = client.with_options(max_retries=0)
    try:
        no_retry.chat.completions.create(model="sim/flaky-hold", messages=[{"role": "user", "content": "Hi"}])
    except openai.APIStatusError:
        pass
    time.sleep(0.5)
    try:
        no_retry.chat.completions.create(model="sim/flaky-hold", messages=[{"role": "user", "content": "Hi"}])
        report("a circuit-open 503 is what the SDK sees without retries", False, "answered")
    except openai.APIStatusError as error:
        ok = error.status_code == 503 and error.response.headers.get("retry-after") is not None
        detail = f"{error.status_code} retry-after={error.response.headers.get('retry-after')}"
        report("a circuit-open 503 is what the SDK sees without retries", ok, detail)


# Media: the default catalog's simulator has sim/fast read text only, sim/balanced images and PDFs,
# sim/deep audio too. Asked for the cheapest model (valve/cost, which is sim/fast for text), a call is
# planned onto another only because a part reached Valve as media that sim/fast does not read.


def ask(*parts):
    return [{"role": "user", "content": [{"type": "text", "text": "What did I send?"}, *parts]}]


@check("valve/cost answers text with sim/fast")
def text_baseline(client):
    answer = client.chat.completions.create(model="valve/cost", messages=ask())
    report("valve/cost answers text with sim/fast", answer.model == "sim/fast", answer.model)


@check("an image_url data URL is read by a model that reads images")
def image_part(client):
    part = {"type": "image_url", "image_url": {"url": data_url("image/png", png()), "detail": "auto"}}
    answer = client.chat.completions.create(model="valve/cost", messages=ask(part))
    report("an image_url data URL is read by a model that reads images", answer.model == "sim/balanced", answer.model)


@check("a file part with a PDF is read by a model that reads PDFs")
def pdf_part(client):
    part = {"type": "file", "file": {"file_data": data_url("application/pdf", pdf(2)), "filename": "invoice.pdf"}}
    answer = client.chat.completions.create(model="valve/cost", messages=ask(part))
    report("a file part with a PDF is read by a model that reads PDFs", answer.model == "sim/balanced", answer.model)


@check("input_audio is read by the model that reads audio")
def audio_part(client):
    part = {"type": "input_audio", "input_audio": {"data": b64(wav()), "format": "wav"}}
    answer = client.chat.completions.create(model="valve/cost", messages=ask(part))
    report("input_audio is read by the model that reads audio", answer.model == "sim/deep", answer.model)


@check("responses.create with input_image and input_file")
def responses_parts(client):
    response = client.responses.create(
        model="valve/cost",
        input=[
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Compare them."},
                    {"type": "input_image", "image_url": data_url("image/png", png()), "detail": "auto"},
                    {"type": "input_file", "file_data": data_url("application/pdf", pdf()), "filename": "a.pdf"},
                ],
            }
        ],
    )
    ok = response.model == "sim/balanced" and response.output_text
    report("responses.create with input_image and input_file", ok, response.model)


@check("an image URL without allowUrls is a BadRequestError naming the part")
def url_refused(client):
    part = {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}}
    try:
        client.chat.completions.create(model="valve/cost", messages=ask(part))
        report("an image URL without allowUrls is a BadRequestError naming the part", False, "answered")
    except openai.BadRequestError as error:
        ok = error.param == "messages[0].content[1].image_url.url" and error.code == "request.media_refused"
        report("an image URL without allowUrls is a BadRequestError naming the part", ok, f"{error.param} {error.code}")


def main():
    base_url, api_key = sys.argv[1], sys.argv[2]
    client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0)
    if sys.argv[3:] == ["reasoning"]:
        # A Valve whose one model is Claude with extended thinking, on a fake upstream.
        for run in (reasoning_model_dump, reasoning_to_dict):
            run(client)
        return
    checks = (model_dump_round_trip, to_dict_round_trip, retrieve_model, max_tokens, circuit_status, circuit_retry)
    media = (text_baseline, image_part, pdf_part, audio_part, responses_parts, url_refused)
    for run in checks + media:
        run(client)


if __name__ == "__main__":
    main()
