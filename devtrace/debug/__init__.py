"""TensorFlow's debugger (``tensorflow/python/debug``): tfdbg2's dump of a program's execution
(``tf.debugging.experimental.enable_dump_debug_info``) and ``tf.debugging.enable_check_numerics``,
both op callbacks (``Context.op_callbacks``) that see every op the runtime runs."""
