// Runs the platform forge binary from npm (@foundry-rs/forge-<os>-<arch>) in contracts/, offline.
// Usage: node contracts/forge.mjs test [forge args...]
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const os = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform]
const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch]
const exe = process.platform === 'win32' ? 'forge.exe' : 'forge'
const binary = join(here, '..', 'node_modules', '@foundry-rs', `forge-${os}-${arch}`, 'bin', exe)
if (!os || !arch || !existsSync(binary)) {
  console.error(`forge binary not found at ${binary}; run npm install (@foundry-rs/forge)`)
  process.exit(1)
}
// git keeps the exec bit, but an archive or a copy might not: forge executes the shim directly.
chmodSync(join(here, 'solc-shim.mjs'), 0o755)
const result = spawnSync(binary, process.argv.slice(2), {
  cwd: here,
  stdio: 'inherit',
  env: { ...process.env, FOUNDRY_OFFLINE: 'true', NO_COLOR: process.env.NO_COLOR ?? '1' },
})
if (result.error) throw result.error
process.exit(result.status ?? 1)
