#!/usr/bin/env bash
# The README's test command: every test of the workspace (ci profile), then a summary
# of the suites skipped because the shared data (`../shared`, or PORF_SHARED) is
# absent. Each such test prints one line `skipped: ../shared/X is absent (TEST)`.
# Extra arguments go to the test binaries (after `--`). PORF_REQUIRE_SHARED=1 (set
# by .ci/run) makes an absent ../shared a failure instead.
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp "${TMPDIR:-/tmp}/porf-test.XXXXXX")
trap 'rm -f "$log"' EXIT
cargo test --workspace --profile ci --no-fail-fast -- --show-output "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
skipped=$(grep -E '^skipped: ' "$log" | sort -u)
echo
if [ -n "$skipped" ]; then
    echo "Skipped for want of the shared data ($(printf '%s\n' "$skipped" | wc -l) tests; CI runs them):"
    printf '%s\n' "$skipped" | sed 's/^skipped: /  /'
else
    echo "No test skipped: the shared data was present."
fi
if [ "$status" -eq 0 ]; then echo "All tests passed."; else echo "Some tests FAILED (exit $status)."; fi
exit "$status"
