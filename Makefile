# crewgate developer recipes. `make demo` and `make test` are the README's two commands.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
REQUEST ?= A hiker is missing in the search zone x from -5.5 to 5.5, y from -5.5 to 5.5. Fly the drone over the zone and send the ground rover to the victim once located.

# Create the virtual environment and install crewgate with the test tools.
$(BIN)/crewgate: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	@touch $@

.PHONY: install demo test lint typecheck unit bench clean

# Install (or refresh) the development environment.
install: $(BIN)/crewgate

# Run a search-and-dispatch mission on the built-in simulator (embedded defaults).
demo: install
	$(BIN)/crewgate run sar "$(REQUEST)" --plan examples/sar_search_and_dispatch.json

# Lint, type-check and run the whole test suite (what CI runs).
test: install lint typecheck unit

# ruff over library, tests and benchmarks.
lint: install
	$(BIN)/ruff check src tests benchmarks

# mypy --strict over library, tests and benchmarks.
typecheck: install
	$(BIN)/mypy

# pytest; exit status 5 (no test collected) counts as a failure.
unit: install
	$(BIN)/python -m pytest -q

# Speed and memory benchmarks; they print their figures.
bench: install
	$(BIN)/python benchmarks/run_all.py

# Remove the environment and caches.
clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
