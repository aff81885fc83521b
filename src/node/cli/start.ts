// `npm start`: builds the app when dist/ is stale, then runs the local stack (relay, local chain with the
// SwarmCoordinator, app server) until Ctrl-C. Open the printed URL in a few tabs and they form a swarm.
import { DEFAULT_LEARNING } from '../../core/learning/learning-config.ts'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PortInUseError } from '../relay/listen-http.ts'
import { RelayKeyError } from '../relay/relay-key.ts'
import { AnvilNotInstalledError } from './anvil.ts'
import { BuildError, buildApp, buildIsStale } from './app-build.ts'
import { readOptions, UsageError, usageText } from './read-options.ts'
import type { OptionSpec } from './read-options.ts'
import { startStack } from './stack.ts'
import { stopOnSignal } from './stop-on-signal.ts'

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url))

const DEFAULTS = {
  /** Loopback: the local stack is for this machine; --host 0.0.0.0 shares it on the LAN. */
  host: '127.0.0.1',
  relayPort: 9090,
  /** Vite's usual port, so the URL people know from `npm run dev` keeps working. */
  appPort: 5173,
  /** Inside the git-ignored .tabswarm/: the relay keeps its peer id across restarts. */
  keyFile: join(projectRoot, '.tabswarm', 'relay.key'),
  /** anvil's usual port */
  chainPort: 8545,
  /** Also in .tabswarm/: anvil dumps the chain here on Ctrl-C and loads it on the next start. */
  chainStateFile: join(projectRoot, '.tabswarm', 'anvil-state.json'),
  /** an empty block this often keeps the chain's clock (and the coordinator's round) moving */
  chainTickMs: 2_000,
  dist: join(projectRoot, 'dist'),
}

const SPECS = {
  host: {
    kind: 'string',
    env: 'TABSWARM_HOST',
    help: `interface for the relay and the app (default ${DEFAULTS.host})`,
  },
  relayPort: {
    kind: 'port',
    env: 'TABSWARM_RELAY_PORT',
    help: `relay WebSocket port (default ${DEFAULTS.relayPort})`,
  },
  relayHttpPort: {
    kind: 'port',
    env: 'TABSWARM_RELAY_HTTP_PORT',
    help: 'relay /health and /metrics port (default relay port + 1, 0 = off)',
  },
  appPort: { kind: 'port', env: 'TABSWARM_APP_PORT', help: `app port (default ${DEFAULTS.appPort})` },
  keyFile: {
    kind: 'string',
    env: 'TABSWARM_RELAY_KEY_FILE',
    help: 'relay key file (default .tabswarm/relay.key)',
  },
  chainPort: {
    kind: 'port',
    env: 'TABSWARM_CHAIN_PORT',
    help: `local chain (anvil) JSON-RPC port (default ${DEFAULTS.chainPort})`,
  },
  noChain: { kind: 'flag', env: 'TABSWARM_NO_CHAIN', help: 'run without the local chain' },
  rebuild: { kind: 'flag', env: 'TABSWARM_REBUILD', help: 'build the app even if dist/ looks up to date' },
} satisfies Record<string, OptionSpec>

/** Which flag moves each server to another port. */
const PORT_FLAG: Record<string, string> = {
  relay: '--relay-port',
  'relay HTTP': '--relay-http-port',
  'app server': '--app-port',
  anvil: '--chain-port (or --no-chain)',
}

async function main(): Promise<void> {
  const { options, help } = readOptions(SPECS, process.argv.slice(2), process.env)
  if (help)
    return console.log(
      usageText('npm start --', 'Builds the app if needed and runs relay + local chain + app.', SPECS),
    )

  if (options.rebuild === true || (await buildIsStale(projectRoot, DEFAULTS.dist))) {
    console.log('building the app (vite build)…')
    await buildApp(projectRoot, DEFAULTS.dist)
  }
  const stack = await startStack({
    host: options.host ?? DEFAULTS.host,
    relayPort: options.relayPort ?? DEFAULTS.relayPort,
    relayHttpPort: options.relayHttpPort,
    appPort: options.appPort ?? DEFAULTS.appPort,
    dist: DEFAULTS.dist,
    keyFile: options.keyFile ?? DEFAULTS.keyFile,
    // a learning swarm on the shipped model: every tab samples, shares, trains and reports its rounds
    config: { learning: DEFAULT_LEARNING },
    chain:
      options.noChain === true
        ? undefined
        : {
            port: options.chainPort ?? DEFAULTS.chainPort,
            stateFile: DEFAULTS.chainStateFile,
            tickMs: DEFAULTS.chainTickMs,
          },
  })
  stopOnSignal(() => stack.stop())

  const rows: [string, string][] = [
    ['open', stack.url],
    ['relay', stack.relay.multiaddrs.join('\n')],
    ...(stack.relay.httpUrl ? [['metrics', `${stack.relay.httpUrl}/metrics`] as [string, string]] : []),
    ['swarm id', stack.swarmId],
    [
      'rounds',
      `${stack.config.roundLengthMs / 1000} s from ${new Date(stack.config.genesisTime).toISOString()}`,
    ],
    ...(stack.deployment
      ? ([
          ['chain', `${stack.deployment.rpcUrl} (chain id ${stack.deployment.chainId})`],
          ['coordinator', stack.deployment.coordinator],
          ...(stack.deployment.collateral
            ? [
                [
                  'collateral',
                  `${stack.deployment.collateral.address} (${stack.deployment.collateral.symbol}, faucet)`,
                ],
              ]
            : []),
          ...(stack.deployment.markets
            ? [
                ['DPM gateway', stack.deployment.markets.dpmGateway],
                ['LMSR gateway', stack.deployment.markets.lmsrGateway],
              ]
            : []),
        ] as [string, string][])
      : []),
  ]
  const width = Math.max(...rows.map(([k]) => k.length))
  // a value of several lines (the relay's addresses) continues under its first line
  const row = ([k, v]: [string, string]) =>
    `  ${k.padEnd(width)}  ${v.replaceAll('\n', '\n' + ' '.repeat(width + 4))}`
  console.log(['', 'tabswarm is running', '', ...rows.map(row), '', 'Ctrl-C to stop'].join('\n'))
}

main().catch((err: Error) => {
  if (err instanceof PortInUseError) {
    console.error(
      `${err.message}: stop the program using it (is another \`npm start\` running?), or choose another port with ${PORT_FLAG[err.what]}`,
    )
  } else if (err instanceof BuildError) {
    console.error(
      `the app did not build: ${err.message}\nfix the error above and run npm start again (npm run build shows the full output)`,
    )
  } else if (err instanceof UsageError) {
    console.error(`${err.message}\nsee npm start -- --help`)
  } else if (err instanceof RelayKeyError || err instanceof AnvilNotInstalledError) {
    console.error(err.message)
  } else {
    console.error(err)
  }
  process.exit(1)
})
