#!/usr/bin/env bash
# A project's build-and-release script, as an agent might be asked to run it: the kind of
# 10 KB script the shield is timed on (benchmarks/shield.py). It is only parsed, never run.
set -euo pipefail

PROJECT="toolpipe-demo"
VERSION="${VERSION:-0.0.0-dev}"
BUILD_DIR="build"
DIST_DIR="dist"
LOG_FILE="$BUILD_DIR/release.log"
PYTHON="${PYTHON:-python3}"
JOBS="$(nproc 2>/dev/null || echo 2)"

log() {
    local level="$1"
    shift
    printf '%s [%s] %s\n' "$(date +%H:%M:%S)" "$level" "$*" | tee -a "$LOG_FILE"
}

die() {
    log ERROR "$*"
    exit 1
}

need() {
    command -v "$1" >/dev/null 2>&1 || die "missing tool: $1"
}

usage() {
    cat <<EOF
Usage: $0 [--skip-tests] [--skip-docs] [--clean] [--version X.Y.Z]

Builds $PROJECT into $DIST_DIR, runs the test suite and the linters, builds the docs,
and writes checksums. Nothing is uploaded: publishing is a separate, manual step.
EOF
}

SKIP_TESTS=0
SKIP_DOCS=0
CLEAN=0
while [ "$#" -gt 0 ]; do
    case "$1" in
        --skip-tests) SKIP_TESTS=1 ;;
        --skip-docs) SKIP_DOCS=1 ;;
        --clean) CLEAN=1 ;;
        --version) VERSION="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage; die "unknown option: $1" ;;
    esac
    shift
done

need git
need "$PYTHON"
need tar
need sha256sum

mkdir -p "$BUILD_DIR" "$DIST_DIR"
: > "$LOG_FILE"
log INFO "building $PROJECT $VERSION with $JOBS jobs"

if [ "$CLEAN" -eq 1 ]; then
    log INFO "cleaning previous build outputs"
    rm -rf "$BUILD_DIR"/lib "$BUILD_DIR"/docs "$DIST_DIR"/*
    find . -name '__pycache__' -type d -prune -exec rm -rf {} +
    find . -name '*.pyc' -delete
    rm -rf .pytest_cache .mypy_cache .ruff_cache
    mkdir -p "$BUILD_DIR"
fi

# --- checks on the working tree ---------------------------------------------------------

if ! git diff --quiet; then
    log WARN "the working tree has uncommitted changes"
    git status --short | head -20 | tee -a "$LOG_FILE"
fi

BRANCH="$(git rev-parse --abbrev-ref HEAD)"
COMMIT="$(git rev-parse --short HEAD)"
log INFO "on branch $BRANCH at $COMMIT"

if [ "$BRANCH" != "main" ] && [ "$BRANCH" != "release" ]; then
    log WARN "releasing from $BRANCH, not main"
fi

for file in pyproject.toml README.md LICENSE; do
    [ -f "$file" ] || die "missing $file"
done

if grep -q 'version = "0.0.0"' pyproject.toml; then
    log WARN "pyproject.toml still has the placeholder version"
fi

# --- environment ------------------------------------------------------------------------

VENV="$BUILD_DIR/venv"
if [ ! -d "$VENV" ]; then
    log INFO "creating a virtual environment in $VENV"
    "$PYTHON" -m venv "$VENV"
fi
# shellcheck disable=SC1091
. "$VENV/bin/activate"
python -m pip install --quiet --upgrade pip wheel build
python -m pip install --quiet -e '.[test]'
python -m pip freeze > "$BUILD_DIR/requirements.lock"
log INFO "installed $(wc -l < "$BUILD_DIR/requirements.lock") packages"

# --- lint and types ---------------------------------------------------------------------

log INFO "running the linters"
ruff check src tests 2>&1 | tee "$BUILD_DIR/ruff.txt" || die "ruff found problems"
ruff format --check src tests >> "$BUILD_DIR/ruff.txt" 2>&1 || log WARN "formatting differs"
mypy --strict src 2>&1 | tee "$BUILD_DIR/mypy.txt" | tail -1
if grep -q "error:" "$BUILD_DIR/mypy.txt"; then
    die "mypy reported errors (see $BUILD_DIR/mypy.txt)"
fi

TODO_COUNT="$(grep -rn 'TODO\|FIXME' src | wc -l)"
log INFO "$TODO_COUNT TODO or FIXME markers in src"

# --- tests ------------------------------------------------------------------------------

run_tests() {
    local kind="$1"
    local report="$BUILD_DIR/tests-$kind.xml"
    log INFO "running the $kind tests"
    case "$kind" in
        unit) python -m pytest -q tests/unit --junitxml="$report" -p no:cacheprovider ;;
        integration) python -m pytest -q tests/integration --junitxml="$report" -x ;;
        docs) python -m pytest -q --doctest-glob='*.md' docs ;;
    esac
}

if [ "$SKIP_TESTS" -eq 0 ]; then
    for kind in unit integration docs; do
        if ! run_tests "$kind" > "$BUILD_DIR/tests-$kind.log" 2>&1; then
            tail -30 "$BUILD_DIR/tests-$kind.log"
            die "the $kind tests failed"
        fi
        passed="$(grep -c 'passed' "$BUILD_DIR/tests-$kind.log" || true)"
        log INFO "$kind tests: $passed summary line(s)"
    done
    python -m coverage run -m pytest -q tests/unit > /dev/null 2>&1 || true
    python -m coverage report --skip-covered | tail -5 | tee -a "$LOG_FILE"
    python -m coverage html -d "$BUILD_DIR/coverage" > /dev/null
else
    log WARN "tests skipped"
fi

# --- documentation ----------------------------------------------------------------------

if [ "$SKIP_DOCS" -eq 0 ]; then
    log INFO "building the documentation"
    mkdir -p "$BUILD_DIR/docs"
    for page in docs/*.md; do
        name="$(basename "$page" .md)"
        sed -e "s/@VERSION@/$VERSION/g" -e "s/@COMMIT@/$COMMIT/g" "$page" \
            > "$BUILD_DIR/docs/$name.md"
    done
    cp -r docs/images "$BUILD_DIR/docs/" 2>/dev/null || true
    ls "$BUILD_DIR/docs" | sort > "$BUILD_DIR/docs/index.txt"
    log INFO "$(wc -l < "$BUILD_DIR/docs/index.txt") documentation pages"
fi

# --- build ------------------------------------------------------------------------------

log INFO "building the source and wheel distributions"
python -m build --sdist --wheel --outdir "$DIST_DIR" . > "$BUILD_DIR/build.log" 2>&1 ||
    die "the build failed (see $BUILD_DIR/build.log)"

WHEEL="$(ls "$DIST_DIR"/*.whl | head -1)"
SDIST="$(ls "$DIST_DIR"/*.tar.gz | head -1)"
[ -n "$WHEEL" ] || die "no wheel was built"
[ -n "$SDIST" ] || die "no sdist was built"

log INFO "checking the wheel's contents"
python -m zipfile -l "$WHEEL" > "$BUILD_DIR/wheel-contents.txt"
if grep -q "tests/" "$BUILD_DIR/wheel-contents.txt"; then
    log WARN "the wheel contains tests"
fi
if ! grep -q "py.typed" "$BUILD_DIR/wheel-contents.txt"; then
    die "the wheel does not ship py.typed"
fi

log INFO "checking the sdist's contents"
tar -tzf "$SDIST" > "$BUILD_DIR/sdist-contents.txt"
for required in pyproject.toml README.md LICENSE; do
    grep -q "/$required\$" "$BUILD_DIR/sdist-contents.txt" || die "sdist lacks $required"
done

# --- smoke test of the built wheel ------------------------------------------------------

SMOKE="$BUILD_DIR/smoke"
rm -rf "$SMOKE"
"$PYTHON" -m venv "$SMOKE"
"$SMOKE/bin/pip" install --quiet "$WHEEL"
"$SMOKE/bin/python" -c "import toolpipe; print(toolpipe.__version__)" > "$BUILD_DIR/smoke.txt"
if [ "$(cat "$BUILD_DIR/smoke.txt")" != "$VERSION" ]; then
    log WARN "the installed version is $(cat "$BUILD_DIR/smoke.txt"), expected $VERSION"
fi
"$SMOKE/bin/python" -m toolpipe --help > /dev/null || die "the CLI does not start"
rm -rf "$SMOKE"

# --- checksums and manifest -------------------------------------------------------------

log INFO "writing checksums"
(cd "$DIST_DIR" && sha256sum ./*.whl ./*.tar.gz > SHA256SUMS)
cat "$DIST_DIR/SHA256SUMS" | tee -a "$LOG_FILE"

MANIFEST="$DIST_DIR/manifest.json"
{
    echo "{"
    echo "  \"project\": \"$PROJECT\","
    echo "  \"version\": \"$VERSION\","
    echo "  \"commit\": \"$COMMIT\","
    echo "  \"branch\": \"$BRANCH\","
    echo "  \"built\": \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\","
    echo "  \"python\": \"$(python -c 'import sys; print(sys.version.split()[0])')\","
    echo "  \"files\": ["
    first=1
    for f in "$DIST_DIR"/*.whl "$DIST_DIR"/*.tar.gz; do
        size="$(stat -c %s "$f")"
        if [ "$first" -eq 1 ]; then first=0; else echo ","; fi
        printf '    {"name": "%s", "size": %s}' "$(basename "$f")" "$size"
    done
    echo ""
    echo "  ]"
    echo "}"
} > "$MANIFEST"
python -m json.tool "$MANIFEST" > /dev/null || die "the manifest is not valid JSON"

# --- changelog --------------------------------------------------------------------------

LAST_TAG="$(git describe --tags --abbrev=0 2>/dev/null || echo '')"
if [ -n "$LAST_TAG" ]; then
    log INFO "changes since $LAST_TAG"
    git log --oneline "$LAST_TAG"..HEAD | tee "$BUILD_DIR/changes.txt" | head -40
    git shortlog -sn "$LAST_TAG"..HEAD | tee -a "$BUILD_DIR/changes.txt"
else
    log INFO "no earlier tag: the whole history goes into the changelog"
    git log --oneline | head -100 > "$BUILD_DIR/changes.txt"
fi
CHANGES="$(wc -l < "$BUILD_DIR/changes.txt")"
log INFO "$CHANGES lines of changes"

# --- archive of the build logs ----------------------------------------------------------

ARCHIVE="$DIST_DIR/$PROJECT-$VERSION-logs.tar.gz"
tar -czf "$ARCHIVE" -C "$BUILD_DIR" release.log build.log ruff.txt mypy.txt changes.txt
du -sh "$DIST_DIR" | tee -a "$LOG_FILE"

# --- licence headers --------------------------------------------------------------------

MISSING=0
while IFS= read -r source; do
    if ! head -5 "$source" | grep -q "SPDX-License-Identifier"; then
        log WARN "no licence header: $source"
        MISSING=$((MISSING + 1))
    fi
done < <(git ls-files '*.py')
log INFO "$MISSING file(s) without a licence header"

# --- size report ------------------------------------------------------------------------

for f in "$WHEEL" "$SDIST"; do
    kib=$(( $(stat -c %s "$f") / 1024 ))
    log INFO "$(basename "$f"): $kib KiB"
done

# --- summary ----------------------------------------------------------------------------

log INFO "release candidate ready"
printf '\n%-12s %s\n' "project:" "$PROJECT" "version:" "$VERSION" "commit:" "$COMMIT"
printf '%-12s %s\n' "wheel:" "$(basename "$WHEEL")" "sdist:" "$(basename "$SDIST")"
printf '%-12s %s\n' "checksums:" "$DIST_DIR/SHA256SUMS" "manifest:" "$MANIFEST"
echo
echo "To publish, review $DIST_DIR and run: twine upload $DIST_DIR/*.whl $DIST_DIR/*.tar.gz"
