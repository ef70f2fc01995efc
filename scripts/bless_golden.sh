#!/bin/sh
# Rewrites the golden outputs (crates/porf-cli/tests/golden/*.txt) and the README's
# sample outputs (its ```console blocks) from the current porf; review the result with
# `git diff` before committing. Extra arguments go to cargo (e.g. --profile ci).
set -e
cd "$(dirname "$0")/.."
PORF_BLESS=1 cargo test -p porf-cli --test golden --test readme "$@"
