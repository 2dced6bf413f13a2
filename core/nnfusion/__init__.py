"""nnfusion."""
