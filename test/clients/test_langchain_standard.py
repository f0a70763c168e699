"""LangChain's standard chat model suite (langchain-tests) on ChatOpenAI pointed at Valve's door.

Run by test/node/clients/python-langchain.test.ts against a local Valve with the simulator models:
    VALVE_BASE_URL=http://127.0.0.1:8787/openai/v1 VALVE_API_KEY=vk_… python -m pytest THIS_FILE
once over Chat Completions and once over the Responses API (`use_responses_api=True`).

The simulator answers deterministically from the request's schemas, never from the prompt's meaning.
The few standard tests that check what a model understood (the number in "magic_function(3)", the keys
a prompt asks for in plain JSON mode) are marked xfail with that reason, strictly (a pass would fail
the run, so a mark cannot outlive its reason), and only for an AssertionError about the answer: any
other error, such as a refused request, still fails. Each is followed by a Valve test that runs the
same client path with what the simulator can honour.
"""

import os
from typing import Literal

import openai
import pytest
from langchain_core.exceptions import ContextOverflowError, OutputParserException
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langchain_tests.integration_tests import ChatModelIntegrationTests
from langchain_tests.integration_tests import chat_models as standard
from langchain_tests.integration_tests.chat_models import _MagicFunctionSchema, magic_function
from langchain_standard_support import (
    COPIES_THE_NAME,
    DECIDES_TO_CALL,
    READS_THE_KEYS,
    READS_THE_NUMBER,
    OfflineHttpx,
    needs_judgement,
)
from media_samples import b64, data_url, pdf, png, wav
from pydantic import BaseModel


@pytest.fixture(autouse=True)
def offline_samples(monkeypatch):
    monkeypatch.setattr(standard, "httpx", OfflineHttpx)


# The suite's model is sim/fast, which reads text only. The media tests get valve/cost instead (the
# `model` fixture below), which plans each call onto the cheapest simulator model that reads what the
# message carries: sim/balanced reads images and PDFs, sim/deep audio too (the default catalog).
READS_MEDIA = {"model": "valve/cost"}
MEDIA_TESTS = {
    "test_image_inputs",
    "test_pdf_inputs",
    "test_audio_inputs",
    "test_valve_media_reach_a_model_that_reads_them",
}


@tool
def get_weather(location: str) -> str:
    """Get the weather at a location."""
    return "It's sunny."


@tool
def unicode_customer(customer_name: Literal["你好啊集团"], description: str) -> str:
    """Create a customer with a Unicode name."""
    return f"Created customer: {customer_name} - {description}"


class Address(BaseModel):
    city: str


class Resident(BaseModel):
    """Nested models: Pydantic's schema reaches Address through `$defs` and `$ref`."""

    name: str
    home: Address
    past: list[Address]


class ValveDoorTests(ChatModelIntegrationTests):
    use_responses_api = False

    @property
    def chat_model_class(self) -> type[ChatOpenAI]:
        return ChatOpenAI

    @property
    def chat_model_params(self) -> dict:
        return {
            "model": "sim/fast",
            "base_url": os.environ["VALVE_BASE_URL"],
            "api_key": os.environ["VALVE_API_KEY"],
            "stream_usage": True,
            "use_responses_api": self.use_responses_api,
        }

    @property
    def model_override_value(self) -> str:
        return "sim/balanced"

    @property
    def supports_json_mode(self) -> bool:
        return True

    # Images and PDFs in user messages, as base64 (the suite's standard blocks and OpenAI's own parts).
    # Not image URLs: Valve sends a URL only with valve.mediaPolicy.allowUrls, and only to a provider
    # that fetches it, which no simulator model does. Not media in tool messages: a Reason tool turn
    # carries text (the door answers 400 naming the part).

    @property
    def supports_image_inputs(self) -> bool:
        return True

    @property
    def supports_pdf_inputs(self) -> bool:
        return True

    @property
    def supports_audio_inputs(self) -> bool:
        # The Responses API's messages have no audio part: ChatOpenAI drops an audio block from the
        # request it sends there, so the standard test would pass without sending any audio.
        return not self.use_responses_api

    @pytest.fixture
    def model(self, request: pytest.FixtureRequest) -> ChatOpenAI:
        """The standard fixture's model (its params included), on valve/cost for the media tests."""
        extra = getattr(request, "param", None) or {}
        if request.node.originalname in MEDIA_TESTS:
            extra = {**READS_MEDIA, **extra}
        return self.chat_model_class(**{**self.standard_chat_model_params, **self.chat_model_params, **extra})

    # The standard tests that need a model's judgement.

    test_tool_calling = needs_judgement(ChatModelIntegrationTests.test_tool_calling, READS_THE_NUMBER)
    test_tool_calling_async = needs_judgement(
        ChatModelIntegrationTests.test_tool_calling_async, READS_THE_NUMBER
    )
    test_json_mode = needs_judgement(
        ChatModelIntegrationTests.test_json_mode, READS_THE_KEYS, raises=OutputParserException
    )
    test_agent_loop = needs_judgement(ChatModelIntegrationTests.test_agent_loop, DECIDES_TO_CALL)
    test_unicode_tool_call_integration = needs_judgement(
        ChatModelIntegrationTests.test_unicode_tool_call_integration, COPIES_THE_NAME
    )

    # Valve's own tests: the same client paths, with what the simulator can honour.

    def test_valve_tool_call_arguments_follow_the_schema(self, model: ChatOpenAI) -> None:
        bound = model.bind_tools([magic_function], tool_choice="any")
        query = "What is the value of magic_function(3)? Use the tool."
        full = None
        for chunk in bound.stream(query):
            full = chunk if full is None else full + chunk
        for message in (bound.invoke(query), full):
            assert isinstance(message, AIMessage)
            assert len(message.tool_calls) == 1
            call = message.tool_calls[0]
            assert call["name"] == "magic_function" and call["id"] and call.get("type") == "tool_call"
            _MagicFunctionSchema.model_validate(call["args"])
            blocks = [block for block in message.content_blocks if block["type"] == "tool_call"]
            assert [block["args"] for block in blocks] == [call["args"]]

    def test_valve_agent_loop_naming_the_tool(self, model: ChatOpenAI) -> None:
        bound = model.bind_tools([get_weather])
        question = HumanMessage("Use get_weather: what is the weather in San Francisco, CA?")
        call_message = bound.invoke([question])
        assert isinstance(call_message, AIMessage) and len(call_message.tool_calls) == 1
        tool_message = get_weather.invoke(call_message.tool_calls[0])
        assert isinstance(tool_message, ToolMessage)
        answer = bound.invoke([question, call_message, tool_message])
        assert isinstance(answer, AIMessage) and answer.text and not answer.tool_calls

    def test_valve_unicode_tool_call_arguments(self, model: ChatOpenAI) -> None:
        bound = model.bind_tools([unicode_customer], tool_choice="any")
        message = bound.invoke("Create a customer named '你好啊集团' (Hello Group).")
        assert message.tool_calls[0]["args"]["customer_name"] == "你好啊集团"
        raw = message.additional_kwargs.get("tool_calls") or []
        assert all("\\u" not in call["function"]["arguments"] for call in raw)

    def test_valve_structured_output_nested_model(self, model: ChatOpenAI) -> None:
        resident = model.with_structured_output(Resident).invoke("Invent a resident.")
        assert isinstance(resident, Resident) and isinstance(resident.past[0], Address)

    def test_valve_prompt_cache_options(self) -> None:
        params = {**self.standard_chat_model_params, **self.chat_model_params}
        cached = ChatOpenAI(**params, prompt_cache_options={"mode": "implicit", "ttl": "12h"})
        assert cached.invoke("Say hello.").text

    def test_valve_media_reach_a_model_that_reads_them(self, model: ChatOpenAI) -> None:
        # valve/cost answers text with sim/fast; an image or a PDF moves the call to sim/balanced, audio
        # to sim/deep, only if the part reached Valve as media.
        def model_for(*blocks):
            message = HumanMessage([{"type": "text", "text": "What did I send?"}, *blocks])
            return model.invoke([message]).response_metadata["model_name"]

        assert model_for() == "sim/fast"
        assert model_for({"type": "image", "base64": b64(png()), "mime_type": "image/png"}) == "sim/balanced"
        image_url = {"type": "image_url", "image_url": {"url": data_url("image/png", png())}}
        assert model_for(image_url) == "sim/balanced"
        pdf_block = {"type": "file", "base64": b64(pdf()), "mime_type": "application/pdf", "filename": "a.pdf"}
        assert model_for(pdf_block) == "sim/balanced"
        if not self.use_responses_api:
            assert model_for({"type": "audio", "base64": b64(wav()), "mime_type": "audio/wav"}) == "sim/deep"

    def test_valve_media_url_refused_naming_the_part(self, model: ChatOpenAI) -> None:
        message = HumanMessage([{"type": "image", "url": "https://example.com/cat.png"}])
        with pytest.raises(openai.BadRequestError) as refused:
            model.invoke([message])
        assert refused.value.code == "request.media_refused"
        assert refused.value.param in ("messages[0].content[0].image_url.url", "input[0].content[0].image_url")

    def test_valve_context_overflow(self, model: ChatOpenAI) -> None:
        # sim/fast's window is 32,000 tokens; this prompt is about 60,000.
        with pytest.raises(ContextOverflowError):
            model.invoke("word " * 60_000)


class TestValveChatCompletions(ValveDoorTests):
    use_responses_api = False


class TestValveResponses(ValveDoorTests):
    use_responses_api = True
