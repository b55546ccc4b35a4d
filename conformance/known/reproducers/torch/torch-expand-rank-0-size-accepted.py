"""torch-expand-rank-0-size-accepted (conformance/known/torch.yaml)

Tensor.expand takes its size as varargs ("*sizes (torch.Size or int...)"), so a lone int, the rank-0 target_shape
as a user writes it, is the size of one dimension: data (1,) expanded to 3 gives (3,). The spec (Broadcast-3)
requires target_shape to be a 1-D tensor: the input is rejected. torch.broadcast_to refuses the int (TypeError).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import torch
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("torch", torch.__version__)
data = torch.ones(1)
try:
    out = data.expand(3)
    print(f"data (1,).expand(3), a rank-0 size: ACCEPTED, output {tuple(out.shape)}; spec: rejected "
          "(target_shape is not 1-D)")
    sys.exit(0)
except Exception as e:
    print(f"data (1,).expand(3): rejected: {type(e).__name__}: {e}")
    sys.exit(1)
