// `npm run relay -- [options]`: runs a standalone relay, e.g. on a public server behind a TLS proxy.
// See docs/relay.md.
import { multiaddr } from '@multiformats/multiaddr'
import { createRelay, RELAY_DEFAULTS } from '../relay/create-relay.ts'
import { PortInUseError } from '../relay/listen-http.ts'
import { RelayKeyError } from '../relay/relay-key.ts'
import { readOptions, UsageError, usageText } from './read-options.ts'
import type { OptionSpec } from './read-options.ts'
import { stopOnSignal } from './stop-on-signal.ts'

const SPECS = {
  host: {
    kind: 'string',
    env: 'TABSWARM_RELAY_HOST',
    help: `interface to listen on (default ${RELAY_DEFAULTS.host})`,
  },
  port: { kind: 'port', env: 'TABSWARM_RELAY_PORT', help: `WebSocket port (default ${RELAY_DEFAULTS.port})` },
  httpPort: {
    kind: 'port',
    env: 'TABSWARM_RELAY_HTTP_PORT',
    help: '/health and /metrics port (default port + 1, 0 = off)',
  },
  keyFile: {
    kind: 'string',
    env: 'TABSWARM_RELAY_KEY_FILE',
    help: 'private key file, created if missing; keeps the peer id',
  },
  maxReservations: {
    kind: 'count',
    env: 'TABSWARM_RELAY_MAX_RESERVATIONS',
    help: `tabs reachable through the relay at once (default ${RELAY_DEFAULTS.maxReservations})`,
  },
  maxReservationsPerAddress: {
    kind: 'count',
    env: 'TABSWARM_RELAY_MAX_RESERVATIONS_PER_ADDRESS',
    help: `reservations one remote address may hold; loopback is not capped (default ${RELAY_DEFAULTS.maxReservationsPerAddress})`,
  },
  maxConnections: {
    kind: 'count',
    env: 'TABSWARM_RELAY_MAX_CONNECTIONS',
    help: `open connections before pruning (default ${RELAY_DEFAULTS.maxConnections})`,
  },
  announce: {
    kind: 'list',
    env: 'TABSWARM_RELAY_ANNOUNCE',
    help: 'public multiaddr(s) to advertise, e.g. /dns4/relay.example.com/tcp/443/wss (repeat or comma-separate)',
  },
} satisfies Record<string, OptionSpec>

/** Which flag moves each server to another port. */
const PORT_FLAG: Record<string, string> = { relay: '--port', 'relay HTTP': '--http-port' }

async function main(): Promise<void> {
  const { options, help } = readOptions(SPECS, process.argv.slice(2), process.env)
  if (help)
    return console.log(
      usageText('npm run relay --', 'Runs a tabswarm relay (libp2p circuit relay + WebSockets).', SPECS),
    )
  for (const addr of options.announce ?? []) {
    try {
      multiaddr(addr)
    } catch {
      throw new UsageError(
        `--announce "${addr}" is not a multiaddr (e.g. /dns4/relay.example.com/tcp/443/wss)`,
      )
    }
  }
  const relay = await createRelay(options)
  stopOnSignal(() => relay.close())
  console.log(`relay ${relay.peerId} listening; tabs dial:`)
  for (const addr of relay.multiaddrs) console.log(`  ${addr}`)
  if (relay.httpUrl) console.log(`health ${relay.httpUrl}/health  metrics ${relay.httpUrl}/metrics`)
  if (options.keyFile === undefined)
    console.log('no --key-file: this peer id is new and lasts until the relay stops')
  console.log('Ctrl-C to stop')
}

main().catch((err: Error) => {
  if (err instanceof PortInUseError) {
    console.error(
      `${err.message}: stop the program using it, or choose another port with ${PORT_FLAG[err.what] ?? '--port'}`,
    )
  } else if (err instanceof UsageError) {
    console.error(`${err.message}\nsee npm run relay -- --help`)
  } else if (err instanceof RelayKeyError) {
    console.error(err.message)
  } else {
    console.error(err)
  }
  process.exit(1)
})
