"""jax-cpu-bf16-broadcast-flushes-subnormals (conformance/known/jax.yaml)

On the CPU, jax returns a bfloat16 subnormal as a zero in some broadcasts: data (2, 1, 5) holding the smallest
subnormal (bits 0x0001) broadcast to (2, 6, 5) with jnp.broadcast_to (or lax.broadcast_in_dim), eagerly or under
jit, comes back 0x0000, while (2, 1, 5) to (2, 4, 5) keeps it. A broadcast only copies: the spec keeps every bit.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import jax
    import jax.numpy as jnp
    import ml_dtypes
    import numpy as np
    from jax import lax
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("jax", jax.__version__, jax.devices())
data = np.full((2, 1, 5), np.array([1], np.uint16).view(ml_dtypes.bfloat16)[0])  # the smallest bf16 subnormal
bug = False
for target in ((2, 4, 5), (2, 6, 5)):
    for name, out in (("jnp.broadcast_to", jnp.broadcast_to(data, target)),
                      ("jit lax.broadcast_in_dim", jax.jit(lambda x, t=target: lax.broadcast_in_dim(x, t, (0, 1, 2)))(
                          data))):
        bits = np.asarray(out).view(np.uint16)
        zeros = int((bits == 0).sum())
        bug = bug or zeros > 0
        print(f"{name}: bf16 (2, 1, 5) of 0x0001 to {target}: {zeros} of {bits.size} elements are 0x0000; "
              "spec: every element 0x0001")
print("the bug shows: subnormals flushed" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
