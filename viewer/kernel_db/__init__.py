"""The Kernel DB feature: its dock (entries, the NNFusion command line and coverage), the
exports and their options."""
