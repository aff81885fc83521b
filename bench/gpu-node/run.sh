#!/usr/bin/env bash
# On a machine with a GPU but no Node (the GPU machine this project is lent), from the repository root
# with .gpu-pack/ beside it (made by bench/gpu-node/pack.ts): unpacks Node and the packages, installs
# the Vulkan loader, finds NVIDIA's Vulkan driver, then runs the solver-speed and kernels benches on
# Dawn (bench/gpu-node/main.ts). Results go to $OUT (default bench/results); extra arguments go to the
# bench (e.g. --max-size 2048). Leaves node on PATH and node_modules/ in place for later commands.
#   source bench/gpu-node/run.sh --setup-only    # just the setup, for other commands on that machine
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
OUT="${OUT:-bench/results}"
PACK=.gpu-pack
[ -f "$PACK/node.xz" ] || { echo "no $PACK/node.xz: run bench/gpu-node/pack.ts where npm ci ran, and bring .gpu-pack" >&2; exit 1; }

# xz, or Python's lzma where the machine has no xz
unxz_to_stdout() { if command -v xz >/dev/null; then xz -dc "$1"; else python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$1"; fi; }

for deb in "$PACK"/gl/*.deb; do dpkg -x "$deb" /; done
ldconfig
mkdir -p /tmp/gpu-node-bin
[ -x /tmp/gpu-node-bin/node ] || { unxz_to_stdout "$PACK/node.xz" >/tmp/gpu-node-bin/node && chmod +x /tmp/gpu-node-bin/node; }
export PATH="/tmp/gpu-node-bin:$PATH"
[ -d node_modules ] || unxz_to_stdout "$PACK/modules.tar.xz" | tar -x

# Dawn reads the Vulkan driver from the environment at start: NVIDIA's ICD, where the driver put it
if [ -z "${VK_DRIVER_FILES:-}" ]; then
  for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
    /etc/vulkan/icd.d/nvidia_icd.json; do
    if [ -f "$icd" ]; then export VK_DRIVER_FILES="$icd"; break; fi
  done
fi
# the ICD names libGLX_nvidia.so.0; where the driver's libraries sit outside the loader's path, add them
for lib in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
  # once only: the script may be sourced again (--setup-only) in the same shell
  case ":${LD_LIBRARY_PATH:-}:" in *":$lib:"*) continue ;; esac
  if [ -d "$lib" ]; then export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi
done
echo "node $(node --version); VK_DRIVER_FILES=${VK_DRIVER_FILES:-unset}"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

if [ "${1:-}" = "--setup-only" ]; then return 0 2>/dev/null || exit 0; fi
mkdir -p "$OUT"
node "$PACK/bench.mjs" --gpu --out-dir "$OUT" "$@"
