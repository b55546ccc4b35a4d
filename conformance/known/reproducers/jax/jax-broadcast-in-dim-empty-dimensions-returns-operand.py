"""jax-broadcast-in-dim-empty-dimensions-returns-operand (conformance/known/jax.yaml)

lax.broadcast_in_dim returns a jax-array operand unchanged, before any check, when its rank is the target's and
broadcast_dimensions is empty (jax/_src/lax/lax.py broadcast_in_dim): data (2, 3) with shape (3, 2) and no
broadcast_dimensions gives the (2, 3) data. The spec requires one axes_mapping value per data dimension.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("jax", jax.__version__)
bug = False
data = jnp.arange(6, dtype=jnp.float32).reshape(2, 3)
for name, call in (("eager, a jax array", lambda: lax.broadcast_in_dim(data, (3, 2), ())),
                   ("jit", lambda: jax.jit(lambda x: lax.broadcast_in_dim(x, (3, 2), ()))(data)),
                   ("eager, a numpy array", lambda: lax.broadcast_in_dim(np.asarray(data), (3, 2), ()))):
    try:
        out = call()
        bug = True
        print(f"{name}: broadcast_in_dim(data (2, 3), (3, 2), ()): ACCEPTED, output shape {out.shape}; "
              "spec: rejected (axes_mapping must have one value per data dimension)")
    except Exception as e:
        print(f"{name}: rejected: {str(e).splitlines()[0]}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
