"""Report sections of the default workload (one module per mechanism family)."""
