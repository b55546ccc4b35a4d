"""jax-x64-off-64-bit-made-32-bit (conformance/known/jax.yaml)

With jax's default configuration (jax_enable_x64 off), int64, uint64 and float64 data become int32, uint32 and
float32 when they enter jax (jax/_src/dtypes.py _canonicalize_dtype): jnp.broadcast_to of int64 data returns int32,
values beyond int32 cut. The spec's output has the data's type.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys
import warnings

try:
    import jax
    import jax.numpy as jnp
    import numpy as np
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("jax", jax.__version__)
warnings.simplefilter("ignore")  # jax warns that it truncates
data = np.array([2**40 + 1, -1, 7], np.int64)
with jax.enable_x64(False):  # jax as installed: 64-bit mode off
    eager = np.asarray(jnp.broadcast_to(data, (2, 3)))
    jitted = np.asarray(jax.jit(lambda x: jnp.broadcast_to(x, (2, 3)))(data))
for name, out in (("eager", eager), ("jit", jitted)):
    print(f"{name}: jnp.broadcast_to(int64 {data.tolist()}, (2, 3)) gives {out.dtype} {out[0].tolist()}; "
          "spec: int64, the data's values")
bug = eager.dtype != np.int64 or jitted.dtype != np.int64
print("the bug shows: 64-bit data made 32-bit" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
