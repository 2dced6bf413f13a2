"""The tuning feature: Tune (MetaSchedule) and Build & Profile Tuned, with their jobs."""
