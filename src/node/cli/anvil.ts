// A local chain for the stack and the tests: the platform anvil binary from npm
// (@foundry-rs/anvil-<os>-<arch>), spawned directly so its PID is anvil's own (`.bin/anvil` is a Node
// wrapper that would stand between us and the signal). With a state file the chain survives restarts:
// anvil loads it on start and dumps it again when it gets SIGTERM. anvil always listens on loopback:
// its JSON-RPC has unlocked accounts (#0 owns the coordinator and is every market's oracle) and
// cheat codes (anvil_setCode, anvil_reset…), so what the LAN may call goes through the app server's
// /rpc allowlist (rpc-proxy.ts), whatever `--host` says.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PortInUseError } from '../relay/listen-http.ts'

/** Same as contracts/build.ts EVM_VERSION and contracts/foundry.toml evm_version. */
export const ANVIL_HARDFORK = 'cancun'
export const LOCAL_CHAIN_ID = 31337

/** The only interface anvil listens on. */
const ANVIL_HOST = '127.0.0.1'

export interface AnvilOptions {
  port: number
  /** loaded on start if it exists, written on stop: the chain survives restarts */
  stateFile?: string
  /** default 31337 */
  chainId?: number
  /** how long to wait for the JSON-RPC to answer; default 15 s */
  readyTimeoutMs?: number
}

export interface Anvil {
  /** e.g. http://127.0.0.1:8545 */
  rpcUrl: string
  chainId: number
  pid: number
  /** SIGTERM, then waits for exit (so the state file is written) */
  stop(): Promise<void>
}

export class AnvilNotInstalledError extends Error {
  override name = 'AnvilNotInstalledError'
}

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url))

/** node_modules/@foundry-rs/anvil-<os>-<arch>/bin/anvil for this platform. */
export function anvilBinary(root = projectRoot): string {
  const os = ({ linux: 'linux', darwin: 'darwin', win32: 'win32' } as Record<string, string>)[
    process.platform
  ]
  const arch = ({ x64: 'amd64', arm64: 'arm64' } as Record<string, string>)[process.arch]
  const pkg = `@foundry-rs/anvil-${os ?? process.platform}-${arch ?? process.arch}`
  const binary = join(root, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
  if (!os || !arch || !existsSync(binary)) {
    throw new AnvilNotInstalledError(
      `anvil not found at ${binary}: run npm install (@foundry-rs/anvil ships ${pkg} for this platform)`,
    )
  }
  return binary
}

export async function startAnvil(options: AnvilOptions): Promise<Anvil> {
  const chainId = options.chainId ?? LOCAL_CHAIN_ID
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535)
    throw new Error(`anvil needs a fixed port from 1 to 65535, not ${options.port}`)
  const binary = anvilBinary()
  const args = ['--host', ANVIL_HOST, '--port', String(options.port), '--chain-id', String(chainId)]
  args.push('--hardfork', ANVIL_HARDFORK)
  if (options.stateFile) {
    await mkdir(dirname(options.stateFile), { recursive: true })
    args.push('--state', options.stateFile)
  }
  const child = spawn(binary, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  })
  const rpcUrl = `http://${ANVIL_HOST}:${options.port}`
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  let output = ''
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-8000)
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)

  try {
    await waitReady(child, exited, () => output, rpcUrl, chainId, options.readyTimeoutMs ?? 15_000)
  } catch (err) {
    await kill(child, exited)
    if (/address already in use|os error 98|os error 48|AddrInUse/i.test(output))
      throw new PortInUseError('anvil', ANVIL_HOST, options.port)
    throw err
  }
  // Keep draining output so anvil never blocks on a full pipe.
  return {
    rpcUrl,
    chainId,
    pid: child.pid ?? -1,
    stop: () => kill(child, exited),
  }
}

async function waitReady(
  child: ChildProcess,
  exited: Promise<number | null>,
  output: () => string,
  rpcUrl: string,
  chainId: number,
  timeoutMs: number,
): Promise<void> {
  let gone = false
  let code: number | null = null
  void exited.then((c) => {
    gone = true
    code = c
  })
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve))
  let error: Error | undefined
  void spawnError.then((e) => (error = e))
  const deadline = Date.now() + timeoutMs
  // Ready = our process says it listens (so an anvil already on the port is never mistaken for ours)
  // and the JSON-RPC answers with the chain id asked for.
  while (Date.now() < deadline) {
    if (error) throw new Error(`anvil did not start: ${error.message}`)
    if (gone) throw new Error(`anvil exited (code ${code}) before it was ready:\n${output().trim()}`)
    if (output().includes('Listening on')) {
      const answered = await rpcChainId(rpcUrl).catch(() => undefined)
      if (answered === chainId) return
      if (answered !== undefined)
        throw new Error(`anvil at ${rpcUrl} answered chain id ${answered}, expected ${chainId}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`anvil did not answer at ${rpcUrl} within ${timeoutMs} ms:\n${output().trim()}`)
}

async function rpcChainId(rpcUrl: string): Promise<number> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(1000),
  })
  const body = (await res.json()) as { result?: string }
  if (typeof body.result !== 'string') throw new Error('no chain id')
  return Number(BigInt(body.result))
}

/** SIGTERM (anvil dumps its state), SIGKILL after 10 s; resolves once the process is gone. */
async function kill(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}
