# model.summary() of a compiled Sequential whose layers were never called nor built (an unadapted
# Normalization first): every Output Shape is "?", every Param # "0 (unbuilt)".
import tensorflow as tf
from tensorflow.keras import layers
norm = layers.Normalization(axis=-1)
model = tf.keras.Sequential([norm, layers.Dense(64, activation="relu"), layers.Dense(1)])
model.compile(loss="mean_absolute_error", optimizer=tf.keras.optimizers.Adam(0.001))
model.summary()
print(model.built, norm.built)
