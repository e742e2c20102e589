import tensorflow as tf
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
print(float(tf.nn.compute_average_loss([1.0, 2.0, 3.0, 4.0])))
print(float(tf.nn.scale_regularization_loss(4.0)))
def step():
    return tf.nn.compute_average_loss([1.0, 2.0, 3.0, 4.0]), tf.nn.scale_regularization_loss([4.0, 2.0])
avg, reg = strategy.run(step)
print([float(v) for v in strategy.experimental_local_results(avg)], [float(v) for v in strategy.experimental_local_results(reg)])
with strategy.scope():
    for f in (lambda: tf.nn.compute_average_loss([1.0]), lambda: tf.nn.scale_regularization_loss(1.0)):
        try:
            f()
        except RuntimeError as e:
            print("RuntimeError:", e)
