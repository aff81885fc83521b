#!/usr/bin/env bash
# One shot on a machine with a real GPU: the kernels bench (reproducible WGSL vs fast f32 WGSL vs TS
# twin) in headless Chromium with WebGPU on the GPU through Vulkan, sizes 64…4096. The TS twin stops
# at 1024 (one CPU thread, O(n³) for matmul). Writes bench/results/kernels-gpu.json and prints the
# table; exits non-zero when Chromium falls back to its CPU adapter (SwiftShader) instead of the GPU.
#   bash bench/gpu-kernels.sh            # from the repository root; MAX_SIZE=2048 for a quicker run
set -euo pipefail
cd "$(dirname "$0")/.."

MAX_SIZE="${MAX_SIZE:-4096}"

# what the bench needs and what to install when it is missing, as sentences rather than stack traces
command -v node >/dev/null || { echo "node (>= 20.19) is not installed: install Node 20, then rerun" >&2; exit 1; }
command -v vulkaninfo >/dev/null && vulkaninfo --summary 2>/dev/null | grep -iE 'deviceName|driverName' || \
  echo "warning: no vulkaninfo (apt install vulkan-tools): cannot confirm the GPU's Vulkan driver" >&2
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
[ -d node_modules ] || npm ci
# e2e/browser.ts takes the system Chromium (or $CHROMIUM_PATH), else Playwright's own
if [ -z "${CHROMIUM_PATH:-}" ] && ! [ -x /usr/lib/chromium/chromium ] && ! [ -x /usr/bin/chromium ]; then
  npx playwright install chromium
fi

nice -n 5 node --import ./src/polyfills/register.js bench/kernels.ts \
  --gpu --max-size "$MAX_SIZE" --twin-max-size 1024 \
  --out bench/results/kernels-gpu.json
