"""LangChain's standard chat model suite (langchain-tests) on ChatAnthropic pointed at Valve's Anthropic door.

Run by test/node/clients/python-langchain-anthropic.test.ts against a local Valve with the simulator models:
    VALVE_BASE_URL=http://127.0.0.1:8787/anthropic VALVE_API_KEY=vk_… python -m pytest THIS_FILE

ChatAnthropic is langchain-anthropic's client on the `anthropic` SDK, changed only in base_url and api_key:
it speaks the Messages API (/v1/messages, its SSE events, count_tokens), as it would to Anthropic.

The simulator answers deterministically from the request's schemas, never from the prompt's meaning.
The standard tests that check what a model understood are marked xfail with that reason, strictly (a
pass would fail the run) and only for an AssertionError about the answer, as in
test_langchain_standard.py; each is followed by a Valve test that runs the same client path with what
the simulator can honour.
"""

import os
from typing import Literal

import anthropic
import pytest
from langchain_anthropic import ChatAnthropic
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langchain_standard_support import (
    COPIES_THE_NAME,
    DECIDES_TO_CALL,
    READS_THE_NUMBER,
    OfflineHttpx,
    needs_judgement,
)
from langchain_tests.integration_tests import ChatModelIntegrationTests
from langchain_tests.integration_tests import chat_models as standard
from langchain_tests.integration_tests.chat_models import _MagicFunctionSchema, magic_function
from media_samples import b64, pdf, png
from pydantic import BaseModel


@pytest.fixture(autouse=True)
def offline_samples(monkeypatch):
    monkeypatch.setattr(standard, "httpx", OfflineHttpx)


# The suite's model is sim/fast, which reads text only; the media tests get valve/cost, which plans a
# call carrying an image or a PDF onto sim/balanced (the default catalog), as in test_langchain_standard.py.
READS_MEDIA = {"model": "valve/cost"}
MEDIA_TESTS = {
    "test_image_inputs",
    "test_pdf_inputs",
    "test_anthropic_inputs",
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


class TestValveChatAnthropic(ChatModelIntegrationTests):
    @property
    def chat_model_class(self) -> type[ChatAnthropic]:
        return ChatAnthropic

    @property
    def chat_model_params(self) -> dict:
        return {
            "model": "sim/fast",
            "base_url": os.environ["VALVE_BASE_URL"],
            "api_key": os.environ["VALVE_API_KEY"],
        }

    @property
    def model_override_value(self) -> str:
        return "sim/balanced"

    # Images and PDFs in user messages as base64, the standard blocks and Anthropic's own (the Anthropic
    # inputs test sends an image block and a tool_use/tool_result history). Not image URLs: Valve sends
    # a URL only with valve.mediaPolicy.allowUrls, and only to a provider that fetches it, which no
    # simulator model does. Not media inside a tool_result: the door leaves it out with a warning
    # (anthropic.content_dropped), so the standard test would pass without the model seeing it. Not
    # audio: the Messages API has no audio block.

    @property
    def supports_image_inputs(self) -> bool:
        return True

    @property
    def supports_pdf_inputs(self) -> bool:
        return True

    @property
    def supports_anthropic_inputs(self) -> bool:
        return True

    @pytest.fixture
    def model(self, request: pytest.FixtureRequest) -> ChatAnthropic:
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
    test_agent_loop = needs_judgement(ChatModelIntegrationTests.test_agent_loop, DECIDES_TO_CALL)
    test_unicode_tool_call_integration = needs_judgement(
        ChatModelIntegrationTests.test_unicode_tool_call_integration, COPIES_THE_NAME
    )

    # Valve's own tests: the same client paths, with what the simulator can honour.

    def test_valve_tool_call_arguments_follow_the_schema(self, model: ChatAnthropic) -> None:
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

    def test_valve_agent_loop_naming_the_tool(self, model: ChatAnthropic) -> None:
        bound = model.bind_tools([get_weather])
        question = HumanMessage("Use get_weather: what is the weather in San Francisco, CA?")
        call_message = bound.invoke([question])
        assert isinstance(call_message, AIMessage) and len(call_message.tool_calls) == 1
        assert call_message.response_metadata["stop_reason"] == "tool_use"
        tool_message = get_weather.invoke(call_message.tool_calls[0])
        assert isinstance(tool_message, ToolMessage)
        answer = bound.invoke([question, call_message, tool_message])
        assert isinstance(answer, AIMessage) and answer.text and not answer.tool_calls
        assert answer.response_metadata["stop_reason"] == "end_turn"

    def test_valve_unicode_tool_call_arguments(self, model: ChatAnthropic) -> None:
        bound = model.bind_tools([unicode_customer], tool_choice="any")
        message = bound.invoke("Create a customer named '你好啊集团' (Hello Group).")
        assert message.tool_calls[0]["args"]["customer_name"] == "你好啊集团"

    def test_valve_structured_output_nested_model(self, model: ChatAnthropic) -> None:
        for method in ("function_calling", "json_schema"):
            resident = model.with_structured_output(Resident, method=method).invoke("Invent a resident.")
            assert isinstance(resident, Resident) and isinstance(resident.past[0], Address)

    def test_valve_counts_tokens_at_the_door(self, model: ChatAnthropic) -> None:
        # ChatAnthropic counts with the Messages API's count_tokens endpoint: Valve's own estimate.
        short = model.get_num_tokens_from_messages([HumanMessage("Hi")])
        long = model.get_num_tokens_from_messages([HumanMessage("Hi " * 400)])
        assert 0 < short < long

    def test_valve_media_reach_a_model_that_reads_them(self, model: ChatAnthropic) -> None:
        # valve/cost answers text with sim/fast; an image or a PDF moves the call to sim/balanced, only if
        # the block reached Valve as media.
        def model_for(*blocks):
            message = HumanMessage([{"type": "text", "text": "What did I send?"}, *blocks])
            return model.invoke([message]).response_metadata["model"]

        assert model_for() == "sim/fast"
        assert model_for({"type": "image", "base64": b64(png()), "mime_type": "image/png"}) == "sim/balanced"
        source = {"type": "base64", "media_type": "image/png", "data": b64(png())}
        assert model_for({"type": "image", "source": source}) == "sim/balanced"
        pdf_block = {"type": "file", "base64": b64(pdf()), "mime_type": "application/pdf"}
        assert model_for(pdf_block) == "sim/balanced"

    def test_valve_media_url_refused_as_a_bad_request(self, model: ChatAnthropic) -> None:
        message = HumanMessage([{"type": "image", "url": "https://example.com/cat.png"}])
        with pytest.raises(anthropic.BadRequestError) as refused:
            model.invoke([message])
        assert refused.value.status_code == 400
        assert refused.value.body["error"]["type"] == "invalid_request_error"

    def test_valve_unknown_model_is_not_found(self) -> None:
        params = {**self.standard_chat_model_params, **self.chat_model_params, "model": "nobody/nothing"}
        with pytest.raises(anthropic.NotFoundError):
            ChatAnthropic(**params).invoke("Hi")
