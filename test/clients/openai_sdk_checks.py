"""Valve's OpenAI door through the official `openai` Python SDK, as a product's backend uses it.

Run by test/node/clients/python-openai.test.ts against a local Valve:
    python openai_sdk_checks.py BASE_URL API_KEY
Prints one JSON line per check: {"check": name, "ok": bool, "detail": str}. Exits 0 either way: the
test reads the lines and asserts each check.
"""

import json
import sys
import time

import openai


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


def main():
    base_url, api_key = sys.argv[1], sys.argv[2]
    client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0)
    for run in (model_dump_round_trip, to_dict_round_trip, retrieve_model, max_tokens, circuit_status, circuit_retry):
        run(client)


if __name__ == "__main__":
    main()
