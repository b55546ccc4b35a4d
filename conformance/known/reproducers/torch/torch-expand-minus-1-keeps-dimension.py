"""torch-expand-minus-1-keeps-dimension (conformance/known/torch.yaml)

Tensor.expand and torch.broadcast_to take -1 in the target size as "keep this dimension" (PyTorch's documented
convention, https://docs.pytorch.org/docs/stable/generated/torch.Tensor.expand.html; aten/src/ATen/ExpandUtils.cpp
inferExpandGeometry): data (1,) broadcast to [2, -1] gives (2, 1), eagerly and under torch.compile. The spec
(Broadcast-3, numpy mode) requires every target_shape value to be non-negative: the input is rejected.

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
for name, call in (("torch.broadcast_to(data, (2, -1))", lambda: torch.broadcast_to(data, (2, -1))),
                   ("data.expand(2, -1)", lambda: data.expand(2, -1)),
                   ("torch.compile(broadcast_to)", lambda: torch.compile(
                       lambda x: torch.broadcast_to(x, (2, -1)).contiguous(), backend="aot_eager")(data))):
    try:
        out = call()
        accepted.append(name)
        print(f"{name} of data (1,): ACCEPTED, output {tuple(out.shape)}; spec: rejected (target_shape_negative)")
    except Exception as e:
        print(f"{name} of data (1,): rejected: {type(e).__name__}: {e}")
sys.exit(0 if accepted else 1)
