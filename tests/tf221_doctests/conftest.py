# Nothing here is a test: the captures are data, read by tests/test_tf221_doctests.py; capture.py needs real TensorFlow.
collect_ignore_glob = ["*"]
