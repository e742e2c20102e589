"""The one build step pyproject.toml cannot declare stably: the runtime's C module.

``devtrace/runtime/_fastpath.c`` is the per-op hot path (see ``devtrace/runtime/native.py``). It is
optional: without a C compiler the install goes on, and the Python references run instead.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("devtrace.runtime._fastpath", ["devtrace/runtime/_fastpath.c", "devtrace/runtime/_fastpath_bfc.c",
                                                                    "devtrace/runtime/_fastpath_nn.c"],
                           depends=["devtrace/runtime/_fastpath.h"], optional=True)])
