"""Model providers of trustmh: the embedded GGUF model and the replay of recorded outputs."""
