# keras.metrics.AUC(curve="PR"): Keras's interpolated area under the precision-recall curve, next to
# the ROC one; weighted; a name; in compile's metrics (the metric list of an imbalanced-data model).
import numpy as np
import tensorflow as tf
y_true = [0, 0, 1, 1, 0, 1, 0, 1, 1, 0]
y_pred = [0.1, 0.4, 0.35, 0.8, 0.65, 0.9, 0.2, 0.55, 0.3, 0.05]
for curve in ("ROC", "PR"):
    m = tf.keras.metrics.AUC(curve=curve, name=curve.lower())
    m.update_state(y_true, y_pred)
    print(curve, m.name, round(float(m.result().numpy()), 5))
m = tf.keras.metrics.AUC(name="prc", curve="PR", num_thresholds=7)
m.update_state(y_true, y_pred, sample_weight=[1, 2, 1, 0.5, 1, 1, 3, 1, 2, 1])
print(m.name, round(float(m.result().numpy()), 5))
m = tf.keras.metrics.AUC(curve="PR", name="empty")
print("empty", m.result().numpy())
m.update_state([0, 0], [0.3, 0.6])
print("no positives", m.result().numpy())
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer="ones")])
model.compile(loss="binary_crossentropy", optimizer="sgd",
              metrics=[tf.keras.metrics.AUC(name="auc"), tf.keras.metrics.AUC(name="prc", curve="PR")])
x = np.array([[1.0, 1.0], [0.2, 0.1], [-1.0, 0.5], [0.3, -0.2]], np.float32)
print([round(v, 5) for v in model.evaluate(x, np.array([1, 0, 0, 1], np.float32), verbose=0)])
