"""kernel_db."""
