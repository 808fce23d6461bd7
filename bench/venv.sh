# Sourced by the benchmark scripts: makes (once) and activates a Python
# virtual environment outside the checkout with the packages given as
# arguments. Override the location with ARCADE_BENCH_VENV.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${ARCADE_BENCH_VENV:-$ROOT/../venvs/arcade-bench}"
if [ ! -x "$VENV/bin/python" ]; then
    echo "creating virtual environment $VENV" >&2
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import $(IFS=,; echo "$*" | sed 's/pillow/PIL/g')" 2>/dev/null; then
    "$VENV/bin/pip" install --quiet "$@"
fi
PYTHON="$VENV/bin/python"
