"""Why a kernel is slow: the Details, Roofline and Headroom panes and the idle read-ahead."""
