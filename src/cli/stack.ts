// The local stack behind `npm start` and the e2e tests: relay → swarm config → app server.
import { swarmIdOf } from '../config/swarm-config.ts'
import type { SwarmConfig } from '../config/swarm-config.ts'
import { createRelay } from '../relay/create-relay.ts'
import type { Relay } from '../relay/create-relay.ts'
import { startAppServer } from './app-server.ts'
import type { AppServer } from './app-server.ts'
import { localSwarmConfig } from './local-swarm-config.ts'
import { need, startServices } from './services.ts'
import type { Service } from './services.ts'

export interface StackOptions {
  /** interface for the relay and the app server; default 127.0.0.1 */
  host?: string
  relayPort: number
  /** relay /health and /metrics; default relayPort + 1, 0 = off */
  relayHttpPort?: number
  appPort: number
  /** the production build; default 'dist' */
  dist?: string
  /** relay key file; without one the relay (and so the swarm id) changes on every start */
  keyFile?: string
  /** overrides of the generated swarm config (relays default to this stack's relay) */
  config?: Partial<SwarmConfig>
}

export interface Stack {
  /** the app, e.g. http://127.0.0.1:5173/ */
  url: string
  config: SwarmConfig
  swarmId: string
  relay: Relay
  app: AppServer
  /** stops everything, in reverse order of starting */
  stop(): Promise<void>
}

interface StackContext {
  options: StackOptions
  relay?: Relay
  config?: SwarmConfig
  app?: AppServer
}

const relayService: Service<StackContext> = {
  name: 'relay',
  async start(ctx) {
    const { host, relayPort, relayHttpPort, keyFile } = ctx.options
    const relay = await createRelay({ host, port: relayPort, httpPort: relayHttpPort, keyFile })
    ctx.relay = relay
    return () => relay.close()
  },
}

const swarmConfigService: Service<StackContext> = {
  name: 'swarm config',
  async start(ctx) {
    ctx.config = localSwarmConfig(need(ctx.relay, 'relay').multiaddrs, ctx.options.config)
  },
}

const appService: Service<StackContext> = {
  name: 'app server',
  async start(ctx) {
    const { host, appPort, dist } = ctx.options
    const app = await startAppServer({
      root: dist,
      host,
      port: appPort,
      swarmConfig: need(ctx.config, 'swarm config'),
    })
    ctx.app = app
    return () => app.close()
  },
}

/** In start order. */
const STACK_SERVICES: readonly Service<StackContext>[] = [relayService, swarmConfigService, appService]

export async function startStack(options: StackOptions): Promise<Stack> {
  const ctx: StackContext = { options }
  const stop = await startServices(STACK_SERVICES, ctx)
  const config = need(ctx.config, 'swarm config')
  const app = need(ctx.app, 'app server')
  return { url: app.url, config, swarmId: swarmIdOf(config), relay: need(ctx.relay, 'relay'), app, stop }
}
