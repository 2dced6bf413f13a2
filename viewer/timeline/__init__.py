"""The Timeline feature: a model's kernel calls in time order, measured or opened."""
