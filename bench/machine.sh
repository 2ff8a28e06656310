# Sourced by the benchmark scripts: `machine_lines` prints, as comment lines, what a result
# was measured on, so that a figure can be compared with another only where these agree:
# the commit, the CPU and the cores this process may really use (affinity, and a cgroup
# quota, which nproc does not see), the load, lavapipe's thread setting and Mesa's version,
# and the GPU where nvidia-smi exists.
# the checkout, found when sourced: the scripts cd into scratch folders before they print
bv_machine_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
machine_lines() {
  local root=$bv_machine_root commit quota mesa
  commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "not a git checkout")
  if git -C "$root" diff --quiet HEAD -- 2>/dev/null; then :; else commit="$commit (modified)"; fi
  quota=$(cat /sys/fs/cgroup/cpu.max 2>/dev/null || echo "no cgroup v2 quota file")
  mesa=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || echo "not installed")
  echo "# commit $commit, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(nproc) usable cores" \
       "of $(nproc --all); cgroup cpu.max: $quota"
  echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg); LP_NUM_THREADS=${LP_NUM_THREADS:-unset}" \
       "(lavapipe's threads; unset: one per core it sees); Mesa $mesa"
  if command -v nvidia-smi > /dev/null; then
    echo "# gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tr '\n' ';')"
  fi
}
# the load at the end, to tell a run disturbed by other work
machine_end_line() { echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"; }
