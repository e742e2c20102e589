"""``tf.function``: tracing into graphs (``function``), the trace cache (``function_cache``), the
variables a function creates on its first call (``function_variables``) and AutoGraph's error rewriting
(``autograph_errors``). Named after TensorFlow's ``python/eager/polymorphic_function``: ``function``
is taken by ``tf.function`` itself."""
