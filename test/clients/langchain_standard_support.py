"""What the LangChain standard suites of both doors share (test_langchain_standard.py for ChatOpenAI,
test_langchain_anthropic_standard.py for ChatAnthropic): the xfail mark for a standard test that needs a
real model's judgement, and the offline stand-ins for the media the suite downloads.
"""

import functools
import inspect

import pytest
from media_samples import pdf, png, wav


def needs_judgement(test, reason, raises=AssertionError):
    """The standard test, expected to fail (strictly, and only with `raises`) for `reason`."""
    if inspect.iscoroutinefunction(test):

        @functools.wraps(test)
        async def run(self, *args, **kwargs):
            await test(self, *args, **kwargs)

    else:

        @functools.wraps(test)
        def run(self, *args, **kwargs):
            test(self, *args, **kwargs)

    # functools.wraps copied the test's own marks (its parametrize); the xfail is added beside them.
    return pytest.mark.xfail(reason=f"needs a real model: {reason}", raises=raises, strict=True)(run)


# Why each standard test that needs a judgement cannot pass on the simulator, and which Valve test
# runs the same client path instead (both suites name their Valve tests alike).
READS_THE_NUMBER = (
    "asserts the argument is 3, read from 'What is the value of magic_function(3)?'; the simulator "
    "fills arguments from the tool's schema (-999, its lowest valid value). "
    "test_valve_tool_call_arguments_follow_the_schema checks the rest"
)
READS_THE_KEYS = (
    "json_object mode sends no schema, the keys 'setup' and 'punchline' are only in the prompt's words; "
    "the simulator answers {}. test_structured_output (json_schema) carries the keys in the schema"
)
DECIDES_TO_CALL = (
    "asks about the weather without naming get_weather, so calling it is the model's decision; the "
    "simulator calls a tool only when the prompt names it or tool_choice forces it. "
    "test_valve_agent_loop_naming_the_tool runs the same loop"
)
COPIES_THE_NAME = (
    "asserts the customer name '你好啊集团' was copied from the prompt into the arguments; the "
    "simulator fills them from the schema. test_valve_unicode_tool_call_arguments sends a schema "
    "whose only value is that name"
)


# The standard media tests download their samples (a PNG, a PDF, a WAV) from the web; the test machines
# have no network, so the suite's module is given a stand-in for httpx that answers each of those URLs
# with a local file of the same kind (media_samples.py), and refuses any other. The client path under
# test, from the message to Valve's answer, is unchanged.
SAMPLES = {".png": png(320, 200), ".pdf": pdf(1), ".wav": wav(1.0)}


class Downloaded:
    def __init__(self, content):
        self.content = content


class OfflineHttpx:
    @staticmethod
    def get(url, **_):
        for suffix, content in SAMPLES.items():
            if url.endswith(suffix):
                return Downloaded(content)
        raise AssertionError(f"the standard suite fetched {url}, which has no local stand-in")

