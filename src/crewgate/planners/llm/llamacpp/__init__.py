"""The ``llamacpp`` backend: ``loader`` (llama.cpp, the GGUF model, the chat format),
``grammar`` (the plan schema compiled into a GBNF grammar) and ``planner``."""

from crewgate.planners.llm.llamacpp.grammar import check_grammar, number_rule, plan_grammar
from crewgate.planners.llm.llamacpp.loader import CHAT_FORMAT_ENV, default_model_path
from crewgate.planners.llm.llamacpp.planner import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_N_CTX,
    LlamaCppOptions,
    LlamaCppPlanner,
)

__all__ = ["CHAT_FORMAT_ENV", "DEFAULT_MAX_TOKENS", "DEFAULT_N_CTX", "LlamaCppOptions",
           "LlamaCppPlanner", "check_grammar", "default_model_path", "number_rule",
           "plan_grammar"]
