"""jax-broadcast-in-dim-unsorted-axes-accepted (conformance/known/jax.yaml)

lax.broadcast_in_dim accepts broadcast_dimensions in any order and transposes (_broadcast_in_dim_shape_rule in
jax/_src/lax/lax.py checks no order): data (2, 3) with shape (3, 2) and broadcast_dimensions (1, 0) gives the
transpose. The spec (Broadcast-3, explicit mode) requires axes_mapping sorted: the input is rejected.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import jax
    import numpy as np
    from jax import lax
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("jax", jax.__version__)
data = np.arange(6, dtype=np.float32).reshape(2, 3)
try:
    out = np.asarray(lax.broadcast_in_dim(data, (3, 2), (1, 0)))
    print(f"lax.broadcast_in_dim(data (2, 3), (3, 2), (1, 0)): ACCEPTED, output {out.shape} {out.tolist()}; "
          "spec: rejected (axes_mapping [1, 0] is not sorted)")
    sys.exit(0)
except Exception as e:
    print(f"rejected: {e}")
    sys.exit(1)
