"""torch-broadcast-shapes-rank-0-shape-accepted (conformance/known/torch.yaml)

torch.broadcast_shapes takes an int as the one-dimension shape (torch/_refs/__init__.py _broadcast_shapes turns
every int x into (x,)): the shapes (2, 1) and 3 broadcast to (2, 3), and broadcast_to gives data (2, 1) that shape.
The spec (Broadcast-3, bidirectional mode) requires target_shape to be a 1-D tensor: the input is rejected.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import torch
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("torch", torch.__version__)
data = torch.ones(2, 1)
try:
    shape = torch.broadcast_shapes(data.shape, 3)
    out = torch.broadcast_to(data, shape)
    print(f"torch.broadcast_shapes((2, 1), 3): ACCEPTED, {tuple(shape)}; broadcast_to gives {tuple(out.shape)}; "
          "spec: rejected (target_shape is not 1-D)")
    sys.exit(0)
except Exception as e:
    print(f"torch.broadcast_shapes((2, 1), 3): rejected: {type(e).__name__}: {e}")
    sys.exit(1)
