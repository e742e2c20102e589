"""The tool side of a running program: the live placement log and TensorFlow's warnings on the
terminal (``console``), attached to every runtime context by ``devtrace/__init__``. With the CLI
and the trace's renderers, the only code that prints devtrace's own output."""
