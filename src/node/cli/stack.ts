// The local stack behind `npm start` and the e2e tests: relay → swarm config → app server, with a local
// chain (anvil → SwarmCoordinator deployment) before the app server when `chain` is given.
import { basename, dirname, join } from 'node:path'
import { deployLocalChain } from '../../host/chain/deploy-local-chain.ts'
import type { ChainDeployment } from '../../host/chain/deployment.ts'
import { swarmIdOf } from '../../core/config/swarm-config.ts'
import type { SwarmConfig } from '../../core/config/swarm-config.ts'
import { createRelay } from '../relay/create-relay.ts'
import type { Relay } from '../relay/create-relay.ts'
import { startAnvil } from './anvil.ts'
import type { Anvil } from './anvil.ts'
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
  /**
   * a local chain with the tabswarm contracts deployed; none without this. anvil listens on loopback
   * whatever `host` is: the LAN reaches it through the app server's /rpc only.
   */
  chain?: ChainOptions
}

export interface ChainOptions {
  /** anvil's JSON-RPC port */
  port: number
  /** anvil state, kept across restarts; without one the chain starts empty every time */
  stateFile?: string
  /** where the deployment is recorded for reuse; default next to the state file (…-deployment.json) */
  deploymentFile?: string
  /**
   * Mine an empty block every tickMs (off when absent). anvil mines only on a transaction, and the
   * coordinator's round follows block.timestamp: on a quiet chain it would refuse a finished round's
   * reward as "not open" until something else is sent.
   */
  tickMs?: number
}

export interface Stack {
  /** the app, e.g. http://127.0.0.1:5173/ */
  url: string
  config: SwarmConfig
  swarmId: string
  relay: Relay
  app: AppServer
  /** the local chain's deployment (served as /deployment.json, RPC behind the app's /rpc); only with `chain` */
  deployment?: ChainDeployment
  /** stops everything, in reverse order of starting */
  stop(): Promise<void>
}

interface StackContext {
  options: StackOptions
  relay?: Relay
  config?: SwarmConfig
  app?: AppServer
  anvil?: Anvil
  deployment?: ChainDeployment
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

const anvilService: Service<StackContext> = {
  name: 'anvil',
  async start(ctx) {
    const chain = need(ctx.options.chain, 'chain options')
    const anvil = await startAnvil({ port: chain.port, stateFile: chain.stateFile })
    ctx.anvil = anvil
    return () => anvil.stop()
  },
}

const contractsService: Service<StackContext> = {
  name: 'contracts deployment',
  async start(ctx) {
    const { stateFile, deploymentFile } = need(ctx.options.chain, 'chain options')
    const config = need(ctx.config, 'swarm config')
    if (config.roundLengthMs % 1000 !== 0)
      throw new Error(
        `the chain counts rounds in whole seconds: roundLengthMs ${config.roundLengthMs} is not`,
      )
    const { deployment, genesisTime } = await deployLocalChain({
      rpcUrl: need(ctx.anvil, 'anvil').rpcUrl,
      genesisTime: Math.floor(config.genesisTime / 1000),
      roundLength: config.roundLengthMs / 1000,
      recordFile: deploymentFile ?? (stateFile ? defaultDeploymentFile(stateFile) : undefined),
    })
    ctx.deployment = deployment
    // A reused coordinator keeps its genesis: the swarm's rounds follow the chain's.
    ctx.config = { ...config, genesisTime: genesisTime * 1000 }
  },
}

const chainTickService: Service<StackContext> = {
  name: 'chain clock',
  async start(ctx) {
    const tickMs = ctx.options.chain?.tickMs
    if (!tickMs) return
    const rpcUrl = need(ctx.anvil, 'anvil').rpcUrl
    const mine = () =>
      fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] }),
        // a chain that is stopping or busy: the next tick tries again
      }).catch(() => {})
    const timer = setInterval(() => void mine(), tickMs)
    return async () => clearInterval(timer)
  },
}

/** .tabswarm/anvil-state.json → .tabswarm/anvil-state-deployment.json */
const defaultDeploymentFile = (stateFile: string): string =>
  join(dirname(stateFile), `${basename(stateFile).replace(/\.json$/, '')}-deployment.json`)

const appService: Service<StackContext> = {
  name: 'app server',
  async start(ctx) {
    const { host, appPort, dist } = ctx.options
    const app = await startAppServer({
      root: dist,
      host,
      port: appPort,
      swarmConfig: need(ctx.config, 'swarm config'),
      deployment: ctx.deployment,
    })
    ctx.app = app
    return () => app.close()
  },
}

/** In start order. */
const STACK_SERVICES: readonly Service<StackContext>[] = [relayService, swarmConfigService, appService]
const CHAIN_STACK_SERVICES: readonly Service<StackContext>[] = [
  relayService,
  swarmConfigService,
  anvilService,
  contractsService,
  chainTickService,
  appService,
]

export async function startStack(options: StackOptions): Promise<Stack> {
  const ctx: StackContext = { options }
  const stop = await startServices(options.chain ? CHAIN_STACK_SERVICES : STACK_SERVICES, ctx)
  const config = need(ctx.config, 'swarm config')
  const app = need(ctx.app, 'app server')
  return {
    url: app.url,
    config,
    swarmId: swarmIdOf(config),
    relay: need(ctx.relay, 'relay'),
    app,
    deployment: ctx.deployment,
    stop,
  }
}
