"""What one party may cost a server: the limits, the counts and the allowances."""
