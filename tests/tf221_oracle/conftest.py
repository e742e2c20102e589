# Nothing under tests/tf221 is a test: the probe programs and capture.py need real TensorFlow,
# which is never installed with devtrace. The comparing tests (issues 10 and 13) live elsewhere
# and read these files as data.
collect_ignore_glob = ["*"]
