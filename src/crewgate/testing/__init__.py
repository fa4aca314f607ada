"""Test doubles that ship with crewgate, for testing your own planner setups without a model.

``FakeOpenAIServer`` and ``FakeAnthropicServer`` are real HTTP servers on 127.0.0.1 that speak
just enough of each protocol for the official clients, answering from a queue of scripted
``Reply`` objects and recording every request they receive.
"""

from crewgate.testing.llm_servers import (
    FakeAnthropicServer,
    FakeLLMServer,
    FakeOpenAIServer,
    Injection,
    Received,
    Reply,
    unused_local_port,
)

__all__ = ["FakeAnthropicServer", "FakeLLMServer", "FakeOpenAIServer", "Injection", "Received",
           "Reply", "unused_local_port"]
