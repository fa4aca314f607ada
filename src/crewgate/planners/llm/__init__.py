"""The language-model backends: ``common`` (what all of them share: the conversation, the tool
schema, token usage, API keys, the wording of errors), ``hosted`` (the base of the hosted
chat-API backends: options, constructor checks, the SDK client, error translation), ``openai``,
``anthropic``, and ``llamacpp`` (a local GGUF model; loader, grammar compiler, planner).

Each backend's module is imported only when its entry point is loaded: ``openai`` and
``anthropic`` need their SDK (an extra), ``llamacpp`` needs llama-cpp-python at construction.
"""
