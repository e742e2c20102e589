# The probe programs import TensorFlow and are run by tests/test_tf221.py, never collected.
collect_ignore_glob = ["*"]
