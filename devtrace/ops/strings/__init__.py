"""``tf.strings``: the string ops and the fingerprint hash they use (farmhash)."""
