"""Math ops: elementwise arithmetic, complex numbers, casts, reductions, segment reductions,
clipping, the C library's math functions, and their gradients."""
