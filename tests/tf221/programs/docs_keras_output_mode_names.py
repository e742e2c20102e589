# Keras 3 takes the older output_mode names: "binary" (multi_hot) for TextVectorization, StringLookup,
# IntegerLookup and CategoryEncoding, "tf-idf" (tf_idf) for the lookups.
import tensorflow as tf
from tensorflow.keras import layers
text = tf.constant(["the cat sat", "the dog", "a cat and a dog"])
tv = layers.TextVectorization(max_tokens=8, output_mode="binary")
tv.adapt(text)
print(tv.get_config()["output_mode"], tv(text))
tfidf = layers.TextVectorization(max_tokens=6, output_mode="tf-idf")
tfidf.adapt(text)
print(tfidf.get_config()["output_mode"], tfidf(text))
sl = layers.StringLookup(vocabulary=["a", "b", "c"], output_mode="binary")
print(sl.get_config()["output_mode"], sl(tf.constant([["a", "c"], ["b", "z"]])))
il = layers.IntegerLookup(vocabulary=[10, 20], output_mode="tf-idf", idf_weights=[0.5, 2.0])
print(il.get_config()["output_mode"], il(tf.constant([[10, 20, 20], [30, 10, 10]])))
ce = layers.CategoryEncoding(num_tokens=4, output_mode="binary")
print(ce.get_config()["output_mode"], ce(tf.constant([[0, 1], [3, 3]])))
