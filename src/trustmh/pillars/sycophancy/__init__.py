"""Anti-sycophancy pillar: does the model tell people what they want to hear?"""
