"""Trace events and what turns them into text: renderers, JSON Lines, diff, TensorFlow-log import.

``FORMATS`` names the renderers a trace can be shown in (``devtrace run --format``, ``import``).
"""

FORMATS = ("tf2", "tf1", "tf1-legacy", "table", "jsonl", "dot", "summary", "timeline")
