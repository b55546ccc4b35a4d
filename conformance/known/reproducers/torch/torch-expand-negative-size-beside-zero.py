"""torch-expand-negative-size-beside-zero (conformance/known/torch.yaml)

Eager torch.broadcast_to and Tensor.expand take a negative size other than -1 as the output's dimension when a 0
elsewhere in the shape keeps the element count from overflowing (the only later check): data (1,) expanded to
[-2, 0] is a tensor of shape (-2, 0) (pytorch/pytorch#76362: inferExpandGeometry does not check targetSize < 0).
The spec (Broadcast-3, numpy mode) requires every target_shape value to be non-negative: the input is rejected.

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
accepted = []
for name, call in (("torch.broadcast_to(data, (-2, 0))", lambda: torch.broadcast_to(data, (-2, 0))),
                   ("data.expand(0, -2)", lambda: data.expand(0, -2))):
    try:
        out = call()
        accepted.append(name)
        print(f"{name} of data (1,): ACCEPTED, a tensor of shape {tuple(out.shape)}, numel {out.numel()}; spec: "
              "rejected (target_shape_negative)")
    except Exception as e:
        print(f"{name} of data (1,): rejected: {type(e).__name__}: {e}")
sys.exit(0 if accepted else 1)
