# Sourced by the setup scripts: what the project venv pins, and where it lives.
# The venv sits outside the clone, keyed by its pins, so fresh clones and CI runs reuse it.
KFORGE_TORCH_VERSION="2.11.0"
KFORGE_VENV="${XDG_CACHE_HOME:-$HOME/.cache}/kforge/venv-torch-${KFORGE_TORCH_VERSION}"
