"""The shipped layers, one module each."""
