"""Small shared widgets and helpers: the busy indicator, number formatting, item roles."""
