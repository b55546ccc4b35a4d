"""jax-broadcast-to-rank-0-shape-accepted (conformance/known/jax.yaml)

jnp.broadcast_to and jnp.broadcast_shapes take a shape of rank 0 (a Python int, a numpy integer scalar or a 0-d
array) as the one-value shape (shape,), as numpy's broadcast_to does ("shape: tuple or int"): jax/_src/numpy/util.py
_broadcast_to and jax/_src/numpy/lax_numpy.py broadcast_shapes wrap any value with np.ndim 0. Data (1,) broadcast to
the rank-0 target 3 gives (3,). The spec (Broadcast-3) requires target_shape to be a 1-D tensor: the input is
rejected.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import jax
    import jax.numpy as jnp
    import numpy as np
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("jax", jax.__version__)
data = np.ones((1,), np.float32)
accepted = []
for name, target in (("the int 3", 3), ("np.array(3, np.uint8), a 0-d array", np.array(3, np.uint8))):
    try:
        out = jnp.broadcast_to(data, target)
        accepted.append(name)
        print(f"jnp.broadcast_to(data (1,), {name}): ACCEPTED, output {out.shape}; spec: rejected (target_shape "
              "is not 1-D)")
    except Exception as e:
        print(f"jnp.broadcast_to(data (1,), {name}): rejected: {e}")
try:
    shape = jnp.broadcast_shapes((2, 1), np.array(3, np.int64))
    accepted.append("broadcast_shapes")
    print(f"jnp.broadcast_shapes((2, 1), 0-d array 3): ACCEPTED, {shape}; spec (bidirectional): rejected")
except Exception as e:
    print(f"jnp.broadcast_shapes((2, 1), 0-d array 3): rejected: {e}")
sys.exit(0 if accepted else 1)
