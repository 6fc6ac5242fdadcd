"""Benchmarks: runnable scripts that print figures as ``name: value unit``, never timed unit tests."""
