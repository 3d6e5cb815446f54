"""DiAgroDL model training pipeline (PyTorch 1.13 / torchvision 0.14, CPU)."""

__version__ = "1.0.0"
