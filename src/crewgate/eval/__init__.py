"""The evaluation harness: scenario suites, conditions, runner, metrics, statistics, reports."""
