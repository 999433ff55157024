"""Help-seeker messages written by the trustmh authors for the MentalBench-style task."""
