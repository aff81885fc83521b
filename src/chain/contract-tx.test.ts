// The wallet's transaction runner and chain reads against a real anvil: a registration proven with a
// libp2p key, a faucet that reverts the second time (decoded into a sentence, nothing sent), a
// declined burner trade and an RPC that is down.
import { generateKeyPair } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { createPublicClient, createWalletClient, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '../cli/anvil.ts'
import { runContractTx, TransactionDeclinedError, type ContractTxOptions } from './contract-tx.ts'
import { deployLocalChain } from './deploy-local-chain.ts'
import type { ChainDeployment } from './deployment.ts'
import { collateralTokenAbi } from './generated/CollateralToken.ts'
import { swarmCoordinatorAbi } from './generated/SwarmCoordinator.ts'
import { anvilAccount, localChain } from './local-clients.ts'
import { readPeerClaims, readWalletClaims } from './peer-claims.ts'
import { signRegistration } from './registration-message.ts'
import type { TxState } from './tx-state.ts'

// This file's port (the wallet e2e spec owns 19620–19629 and does not run beside the unit tests).
const ANVIL_PORT = 19629

let anvil: Anvil
let deployment: ChainDeployment
let client: PublicClient

beforeAll(async () => {
  anvil = await startAnvil({ port: ANVIL_PORT })
  ;({ deployment } = await deployLocalChain({ rpcUrl: anvil.rpcUrl, genesisTime: 0, roundLength: 30 }))
  client = createPublicClient({
    chain: localChain(31337, anvil.rpcUrl),
    transport: http(anvil.rpcUrl),
  }) as PublicClient
}, 30_000)

afterAll(async () => {
  await anvil?.stop()
})

function walletOf(index: number) {
  return createWalletClient({
    account: anvilAccount(index),
    chain: localChain(31337, anvil.rpcUrl),
    transport: http(anvil.rpcUrl),
  })
}

function options(
  index: number,
  extra: Partial<ContractTxOptions> & Pick<ContractTxOptions, 'call'>,
): ContractTxOptions & { states: TxState[] } {
  const states: TxState[] = []
  return {
    wallet: walletOf(index),
    publicClient: client,
    kind: 'direct',
    walletKind: 'burner',
    autoApproveSwarm: false,
    confirm: async () => true,
    errorContext: { rpcUrl: anvil.rpcUrl, token: deployment.collateral },
    onState: (s) => states.push(s),
    states,
    ...extra,
  }
}

describe('runContractTx', () => {
  it('registers a peer: signing → pending → confirmed, and the claim reads back verified', async () => {
    const key = await generateKeyPair('Ed25519')
    const peerId = peerIdFromPrivateKey(key).toString()
    const wallet = anvilAccount(4).address
    const o = options(4, {
      call: { address: deployment.coordinator, abi: swarmCoordinatorAbi, functionName: 'registerPeer' },
      prepare: async () => {
        const proof = await signRegistration(key, {
          chainId: 31337,
          coordinator: deployment.coordinator,
          wallet,
        })
        return {
          address: deployment.coordinator,
          abi: swarmCoordinatorAbi,
          functionName: 'registerPeer',
          args: [proof.peerId, proof.publicKey, proof.signature],
        }
      },
    })
    const result = await runContractTx(o)
    expect(result.ok).toBe(true)
    expect(o.states.map((s) => s.phase)).toEqual(['signing', 'pending', 'confirmed'])
    const last = o.states.at(-1)!
    expect(last.phase === 'confirmed' && last.blockNumber).toBe(result.ok && result.receipt.blockNumber)

    const mine = await readWalletClaims(client, deployment.coordinator, wallet)
    expect(mine).toEqual([expect.objectContaining({ peerId, wallet, verified: true })])
    // the same proof sent from another wallet is a claim too, but not a verified one
    const replay = options(5, {
      call: {
        address: deployment.coordinator,
        abi: swarmCoordinatorAbi,
        functionName: 'registerPeer',
        args: [peerId, mine[0]!.publicKey, mine[0]!.signature],
      },
    })
    expect((await runContractTx(replay)).ok).toBe(true)
    const claims = await readPeerClaims(client, deployment.coordinator, peerId)
    expect(claims.map((c) => [c.wallet, c.verified])).toEqual([
      [wallet, true],
      [anvilAccount(5).address, false],
    ])
  })

  it('reports a revert before sending anything, as a sentence', async () => {
    const faucet = {
      address: deployment.collateral!.address,
      abi: collateralTokenAbi,
      functionName: 'requestToken',
    }
    expect((await runContractTx(options(6, { call: faucet }))).ok).toBe(true)
    const nonce = await client.getTransactionCount({ address: anvilAccount(6).address })
    const again = options(6, { call: faucet })
    const result = await runContractTx(again)
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^You already got test tokens recently; the faucet gives again at .+ \(in (60|59) min\)\.$/,
      ),
      cause: expect.objectContaining({ name: 'ContractFunctionExecutionError' }),
    })
    expect(again.states).toEqual([
      { phase: 'signing' },
      { phase: 'failed', error: !result.ok && result.error },
    ])
    expect(await client.getTransactionCount({ address: anvilAccount(6).address })).toBe(nonce)
  })

  it('asks before a burner trade and sends nothing when declined', async () => {
    const call = {
      address: deployment.collateral!.address,
      abi: collateralTokenAbi,
      functionName: 'requestToken',
    }
    let asked = 0
    const o = options(7, { call, kind: 'trade', confirm: async () => (asked++, false) })
    expect(await runContractTx(o)).toEqual({
      ok: false,
      error: 'You declined the transaction; nothing was sent.',
      cause: expect.any(TransactionDeclinedError),
    })
    expect(asked).toBe(1)
    expect(o.states.map((s) => s.phase)).toEqual(['confirming', 'failed'])
    expect(await client.getTransactionCount({ address: anvilAccount(7).address })).toBe(0)
  })

  it('runs the send under the exclusive lock it is given', async () => {
    const call = {
      address: deployment.collateral!.address,
      abi: collateralTokenAbi,
      functionName: 'requestToken',
    }
    let held = 0
    const o = options(8, {
      call,
      exclusive: async (send) => {
        held++
        return send()
      },
    })
    expect((await runContractTx(o)).ok).toBe(true)
    expect(held).toBe(1)
  })

  it('says the chain cannot be reached when the RPC is down', async () => {
    const dead = 'http://127.0.0.1:9/'
    const chain = localChain(31337, dead)
    const o = options(4, {
      call: {
        address: deployment.collateral!.address,
        abi: collateralTokenAbi,
        functionName: 'requestToken',
      },
      wallet: createWalletClient({
        account: anvilAccount(4),
        chain,
        transport: http(dead, { retryCount: 0 }),
      }),
      publicClient: createPublicClient({ chain, transport: http(dead, { retryCount: 0 }) }) as PublicClient,
    })
    const result = await runContractTx(o)
    expect(!result.ok && result.error).toMatch(/^Cannot reach the chain at http:\/\/127\.0\.0\.1:9\/: /)
  })
})
