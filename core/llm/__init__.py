"""Model providers behind one interface: the offline assistant and OpenAI-compatible endpoints."""
