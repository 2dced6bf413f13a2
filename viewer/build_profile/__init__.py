"""Build & Profile: the dialog that builds a model (TVM or torch.compile) and profiles it."""
