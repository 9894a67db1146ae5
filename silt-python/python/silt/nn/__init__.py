"""PyTorch's ``torch.nn`` namespace as far as silt has it: ``silt.nn.functional``,
the functions of ``torch.nn.functional`` (forward only) on silt tensors.

>>> import silt.nn.functional as F
"""

from . import functional

__all__ = ["functional"]
