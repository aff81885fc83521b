// The local chain end to end: anvil from npm, the SwarmCoordinator deployment (fresh and reused after a
// restart), a peer registration proven with a libp2p Ed25519 key, and the stack serving the deployment.
import { createServer } from 'node:net'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateKeyPair } from '@libp2p/crypto/keys'
import { createPublicClient, createWalletClient, http, keccak256, toHex } from 'viem'
import type { Address, Hash, PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil } from '../../node/cli/anvil.ts'
import type { Anvil } from '../../node/cli/anvil.ts'
import { startStack } from '../../node/cli/stack.ts'
import { PortInUseError } from '../../node/relay/listen-http.ts'
import { LOCAL_COLLATERAL } from './deploy-collateral.ts'
import { DEMO_MARKETS } from '../demo/seed-demo-markets.ts'
import { dynamicParimutuelGatewayAbi } from './generated/DynamicParimutuelGateway.ts'
import { deployLocalChain } from './deploy-local-chain.ts'
import type { DeployedLocalChain } from './deploy-local-chain.ts'
import { collateralTokenAbi } from './generated/CollateralToken.ts'
import { anvilAccount, localChain } from './local-clients.ts'
import { swarmCoordinatorAbi } from './generated/SwarmCoordinator.ts'
import { signRegistration, verifyRegistration } from '../rewards/registration-message.ts'
import { lanAddress } from '../../node/relay/lan-address.ts'

// Fixed ports for this file only (19600–19609), so parallel test files never collide.
const ANVIL_PORT = 19600
const BLOCKED_PORT = 19605
const STACK = { relayPort: 19601, relayHttpPort: 19602, appPort: 19603, chainPort: 19604 }

const ROUND_LENGTH = 30
const FIRST_COORDINATOR = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
/** account #0's second contract */
const FIRST_COLLATERAL = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'local-chain-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const portIsFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })

async function readClaim(client: PublicClient, coordinator: Address, peerId: string, wallet: Address) {
  const claim = await client.readContract({
    address: coordinator,
    abi: swarmCoordinatorAbi,
    functionName: 'getClaim',
    args: [peerId, wallet],
  })
  return { ...claim, chainId: await client.getChainId(), coordinator }
}

const flat = ({ deployment, ...rest }: DeployedLocalChain) => ({ ...deployment, ...rest })

describe('local chain', () => {
  const stateFile = () => join(dir, 'anvil-state.json')
  const recordFile = () => join(dir, 'deployment.json')
  let peerId: string
  let forgedPeerId: string
  let first: ReturnType<typeof flat>

  it('deploys the coordinator and a peer registers with a proof that verifies', async () => {
    const anvil: Anvil = await startAnvil({ port: ANVIL_PORT, stateFile: stateFile() })
    try {
      expect(anvil.rpcUrl).toBe(`http://127.0.0.1:${ANVIL_PORT}`)
      expect(anvil.chainId).toBe(31337)
      const genesisTime = Math.floor(Date.now() / 1000) - 5 * ROUND_LENGTH
      first = flat(
        await deployLocalChain({
          rpcUrl: anvil.rpcUrl,
          genesisTime,
          roundLength: ROUND_LENGTH,
          recordFile: recordFile(),
        }),
      )
      expect(first).toMatchObject({
        chainId: 31337,
        coordinator: FIRST_COORDINATOR,
        collateral: { address: FIRST_COLLATERAL, symbol: 'tUSD', decimals: 6 },
        reused: false,
        genesisTime,
      })
      // Demo markets: open, priced by the trades the seeder made (no two outcomes at the same price).
      expect(first.seeded.map((m) => m.kind)).toEqual(DEMO_MARKETS.map((m) => m.kind))
      for (const [i, m] of first.seeded.entries()) {
        // Both gateways share the trading views (marketStatus, spotPrices): one ABI reads either.
        const gateway = {
          address: m.kind === 'dpm' ? first.markets!.dpmGateway : first.markets!.lmsrGateway,
          abi: dynamicParimutuelGatewayAbi,
        }
        const viewer = createPublicClient({ transport: http(anvil.rpcUrl) })
        expect(
          await viewer.readContract({ ...gateway, functionName: 'marketStatus', args: [m.address] }),
        ).toBe(0)
        const outcomes = DEMO_MARKETS[i]!.metadata.outcomes.map((_, j) => BigInt(j))
        const prices = await viewer.readContract({
          ...gateway,
          functionName: 'spotPrices',
          args: [m.address, outcomes],
        })
        expect(new Set(prices).size, m.question).toBeGreaterThan(1)
      }
      expect(first.deployedAtBlock).toBeGreaterThan(0)

      const chain = localChain(anvil.chainId, anvil.rpcUrl)
      const client = createPublicClient({ chain, transport: http(anvil.rpcUrl) }) as PublicClient
      const sender = anvilAccount(1)
      const wallet = createWalletClient({ account: sender, chain, transport: http(anvil.rpcUrl) })
      const coordinator = { address: first.coordinator, abi: swarmCoordinatorAbi } as const
      const gas: Record<string, bigint> = {}
      const mined = async (name: string, hash: Hash): Promise<void> => {
        const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
        expect(receipt.status, name).toBe('success')
        gas[name] = receipt.gasUsed
      }

      const deployBlock = await client.getBlock({ blockNumber: BigInt(first.deployedAtBlock) })
      gas['deploy SwarmCoordinator'] = (
        await client.getTransactionReceipt({ hash: deployBlock.transactions[0]! })
      ).gasUsed

      // A proof for this wallet: stored and verified.
      const key = await generateKeyPair('Ed25519')
      const proof = await signRegistration(key, {
        chainId: anvil.chainId,
        coordinator: first.coordinator,
        wallet: sender.address,
      })
      peerId = proof.peerId
      await mined(
        'registerPeer',
        await wallet.writeContract({
          ...coordinator,
          functionName: 'registerPeer',
          args: [proof.peerId, proof.publicKey, proof.signature],
        }),
      )
      const claim = await readClaim(client, first.coordinator, peerId, sender.address)
      expect(claim).toMatchObject({ peerId, wallet: sender.address, publicKey: proof.publicKey })
      expect(await verifyRegistration(claim)).toBe(true)

      // A proof made for account #2, sent from account #1: the contract stores it, readers refuse it.
      const otherKey = await generateKeyPair('Ed25519')
      const forged = await signRegistration(otherKey, {
        chainId: anvil.chainId,
        coordinator: first.coordinator,
        wallet: anvilAccount(2).address,
      })
      forgedPeerId = forged.peerId
      await mined(
        'registerPeer (2nd claim)',
        await wallet.writeContract({
          ...coordinator,
          functionName: 'registerPeer',
          args: [forged.peerId, forged.publicKey, forged.signature],
        }),
      )
      const forgedClaim = await readClaim(client, first.coordinator, forgedPeerId, sender.address)
      expect(forgedClaim.signature).toBe(forged.signature)
      expect(await verifyRegistration(forgedClaim)).toBe(false)

      // Gas of the other per-round writes.
      const round = await client.readContract({ ...coordinator, functionName: 'currentRound' })
      expect(round).toBeGreaterThanOrEqual(4n)
      await mined(
        'submitReward',
        await wallet.writeContract({
          ...coordinator,
          functionName: 'submitReward',
          args: [round, peerId, 42n, keccak256(toHex('tip'))],
        }),
      )
      await mined(
        'submitWinners (1 winner)',
        await wallet.writeContract({
          ...coordinator,
          functionName: 'submitWinners',
          args: [round, [peerId], peerId],
        }),
      )
      await mined(
        'submitWinners (2 winners)',
        await wallet.writeContract({
          ...coordinator,
          functionName: 'submitWinners',
          args: [round, [peerId, forgedPeerId], forgedPeerId],
        }),
      )

      // The collateral faucet: once per period per address.
      const collateral = { address: first.collateral!.address, abi: collateralTokenAbi } as const
      await mined('requestToken', await wallet.writeContract({ ...collateral, functionName: 'requestToken' }))
      expect(
        await client.readContract({ ...collateral, functionName: 'balanceOf', args: [sender.address] }),
      ).toBe(LOCAL_COLLATERAL.faucetAmount)
      await expect(
        client.simulateContract({ ...collateral, functionName: 'requestToken', account: sender.address }),
      ).rejects.toThrow(/RequestTooOften/)
      console.log(
        [
          'SwarmCoordinator gas used (anvil, cancun):',
          ...Object.entries(gas).map(([k, v]) => `  ${k.padEnd(26)} ${v}`),
        ].join('\n'),
      )
    } finally {
      await anvil.stop()
    }
  })

  it('keeps claims and reuses the deployment after a restart with the same state file', async () => {
    expect(peerId).toBeDefined()
    const anvil = await startAnvil({ port: ANVIL_PORT, stateFile: stateFile() })
    try {
      const again = flat(
        await deployLocalChain({
          rpcUrl: anvil.rpcUrl,
          genesisTime: Math.floor(Date.now() / 1000),
          roundLength: ROUND_LENGTH,
          recordFile: recordFile(),
        }),
      )
      expect(again).toMatchObject({
        coordinator: first.coordinator,
        collateral: first.collateral,
        markets: first.markets,
        seeded: [], // the chain already has its markets
        deployedAtBlock: first.deployedAtBlock,
        genesisTime: first.genesisTime,
        reused: true,
      })
      const client = createPublicClient({
        chain: localChain(anvil.chainId, anvil.rpcUrl),
        transport: http(anvil.rpcUrl),
      }) as PublicClient
      const wallet = anvilAccount(1).address
      const claim = await readClaim(client, again.coordinator, peerId, wallet)
      expect(await verifyRegistration(claim)).toBe(true)
      expect(await verifyRegistration(await readClaim(client, again.coordinator, forgedPeerId, wallet))).toBe(
        false,
      )
      expect(
        await client.readContract({
          address: again.coordinator,
          abi: swarmCoordinatorAbi,
          functionName: 'getTotalRewards',
          args: [peerId, wallet],
        }),
      ).toBe(42n)
    } finally {
      await anvil.stop()
    }
  })

  it('deploys afresh when the recorded coordinator is not on the chain', async () => {
    await writeFile(
      join(dir, 'stale.json'),
      JSON.stringify({ chainId: 31337, rpcUrl: '', coordinator: FIRST_COORDINATOR, deployedAtBlock: 1 }),
    )
    const anvil = await startAnvil({ port: ANVIL_PORT }) // no state: an empty chain
    try {
      const deployed = flat(
        await deployLocalChain({
          rpcUrl: anvil.rpcUrl,
          genesisTime: 0,
          roundLength: ROUND_LENGTH,
          recordFile: join(dir, 'stale.json'),
        }),
      )
      expect(deployed).toMatchObject({
        coordinator: FIRST_COORDINATOR,
        collateral: { address: FIRST_COLLATERAL },
        reused: false,
      })
      expect(deployed.genesisTime).toBeGreaterThan(0) // 0 = the deployment block's timestamp
    } finally {
      await anvil.stop()
    }
  })

  it('refuses a port in use with a PortInUseError', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(BLOCKED_PORT, '127.0.0.1', resolve))
    try {
      await expect(startAnvil({ port: BLOCKED_PORT })).rejects.toThrow(PortInUseError)
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  })
})

describe('startStack with a chain', () => {
  it('runs anvil, deploys the coordinator and serves /deployment.json', async () => {
    const appDist = await mkdtemp(join(tmpdir(), 'stack-chain-'))
    await writeFile(join(appDist, 'index.html'), '<!doctype html><title>chain</title>')
    const stack = await startStack({
      relayPort: STACK.relayPort,
      relayHttpPort: STACK.relayHttpPort,
      appPort: STACK.appPort,
      dist: appDist,
      chain: { port: STACK.chainPort, stateFile: join(appDist, 'anvil-state.json'), tickMs: 200 },
    })
    try {
      const deployment = (await (await fetch(new URL('/deployment.json', stack.url))).json()) as {
        chainId: number
        rpcUrl: string
        coordinator: Address
      }
      // The page reaches the chain through the app server's /rpc; the stack knows anvil's own URL.
      expect(deployment).toEqual({ ...stack.deployment, rpcUrl: '/rpc' })
      expect(stack.deployment).toMatchObject({
        chainId: 31337,
        rpcUrl: `http://127.0.0.1:${STACK.chainPort}`,
      })
      const client = createPublicClient({ transport: http(new URL(deployment.rpcUrl, stack.url).href) })
      expect(await client.getCode({ address: deployment.coordinator })).toMatch(/^0x[0-9a-f]{100,}$/)
      const genesis = await client.readContract({
        address: deployment.coordinator,
        abi: swarmCoordinatorAbi,
        functionName: 'genesisTime',
      })
      expect(BigInt(stack.config.genesisTime)).toBe(genesis * 1000n) // the swarm's rounds are the chain's
      expect(await (await fetch(new URL('/swarm.json', stack.url))).json()).toEqual(stack.config)
      // with tickMs the chain's clock moves without transactions
      const block = await client.getBlockNumber({ cacheTime: 0 })
      await expect
        .poll(() => client.getBlockNumber({ cacheTime: 0 }), { timeout: 5_000 })
        .toBeGreaterThan(block)
    } finally {
      await stack.stop()
      await rm(appDist, { recursive: true, force: true })
    }
    for (const port of Object.values(STACK)) expect(await portIsFree(port), String(port)).toBe(true)
  })

  const lan = lanAddress()

  it.skipIf(lan === undefined)(
    'on --host 0.0.0.0 shares the app and its /rpc, while anvil stays on loopback',
    async () => {
      const appDist = await mkdtemp(join(tmpdir(), 'stack-lan-'))
      await writeFile(join(appDist, 'index.html'), '<!doctype html><title>lan</title>')
      const stack = await startStack({
        host: '0.0.0.0',
        relayPort: STACK.relayPort,
        relayHttpPort: STACK.relayHttpPort,
        appPort: STACK.appPort,
        dist: appDist,
        chain: { port: STACK.chainPort },
      })
      try {
        const rpc = (url: string) =>
          fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
            signal: AbortSignal.timeout(2_000),
          }).then((r) => r.json() as Promise<{ result?: string }>)
        // from the LAN: the app's /rpc answers…
        expect(await rpc(`http://${lan}:${STACK.appPort}/rpc`)).toMatchObject({ result: '0x7a69' })
        // …anvil itself does not listen there
        await expect(rpc(`http://${lan}:${STACK.chainPort}`)).rejects.toThrow()
        expect(stack.deployment?.rpcUrl).toBe(`http://127.0.0.1:${STACK.chainPort}`)
        expect(await rpc(stack.deployment!.rpcUrl)).toMatchObject({ result: '0x7a69' })
      } finally {
        await stack.stop()
        await rm(appDist, { recursive: true, force: true })
      }
    },
  )
})
