"""Ethics pillar: choosing the most defensible action in mental-health ethical dilemmas."""
