// The wallet's transaction runner and chain reads against a real anvil: a registration proven with a
// libp2p key, a faucet that reverts the second time (decoded into a sentence, nothing sent), a
// declined burner trade and an RPC that is down; and the owner's claim on a peer read back however
// many forged claims came before it.
import { generateKeyPair } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import {
  bytesToHex,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseEther,
  type Address,
  type PublicClient,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '../../node/cli/anvil.ts'
import { runContractTx, TransactionDeclinedError, type ContractTxOptions } from './contract-tx.ts'
import { deployLocalChain } from './deploy-local-chain.ts'
import type { ChainDeployment } from './deployment.ts'
import { collateralTokenAbi } from './generated/CollateralToken.ts'
import { swarmCoordinatorAbi } from './generated/SwarmCoordinator.ts'
import { anvilAccount, localChain } from './local-clients.ts'
import { MAX_CLAIMS_SHOWN, readPeerClaims, readWalletClaims } from '../rewards/peer-claims.ts'
import { signRegistration } from '../rewards/registration-message.ts'
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

describe('readPeerClaims', () => {
  it("reads the connected wallet's own claim however many forged claims came first", async () => {
    const key = await generateKeyPair('Ed25519')
    const peerId = peerIdFromPrivateKey(key).toString()
    // Gas is free on the local chain: a stranger registers MAX_CLAIMS_SHOWN + 1 claims on this peer
    // id from as many wallets before its owner does.
    const cheat = createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) })
    const forgers: Address[] = Array.from(
      { length: MAX_CLAIMS_SHOWN + 1 },
      () => privateKeyToAccount(generatePrivateKey()).address,
    )
    const junk = () => bytesToHex(crypto.getRandomValues(new Uint8Array(64)))
    for (let i = 0; i < forgers.length; i += 50) {
      await Promise.all(
        forgers.slice(i, i + 50).map(async (forger) => {
          await cheat.setBalance({ address: forger, value: parseEther('1') })
          await cheat.impersonateAccount({ address: forger })
          const wallet = createWalletClient({
            account: forger,
            chain: localChain(31337, anvil.rpcUrl),
            transport: http(anvil.rpcUrl),
          })
          await wallet.writeContract({
            address: deployment.coordinator,
            abi: swarmCoordinatorAbi,
            functionName: 'registerPeer',
            args: [peerId, junk().slice(0, 66) as `0x${string}`, junk()],
            gas: 500_000n,
          })
        }),
      )
    }
    const owner = anvilAccount(6).address
    const proof = await signRegistration(key, {
      chainId: 31337,
      coordinator: deployment.coordinator,
      wallet: owner,
    })
    const hash = await walletOf(6).writeContract({
      address: deployment.coordinator,
      abi: swarmCoordinatorAbi,
      functionName: 'registerPeer',
      args: [proof.peerId, proof.publicKey, proof.signature],
    })
    await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    expect(
      await client.readContract({
        address: deployment.coordinator,
        abi: swarmCoordinatorAbi,
        functionName: 'getPeerClaimCount',
        args: [peerId],
      }),
    ).toBe(BigInt(MAX_CLAIMS_SHOWN + 2))

    const claims = await readPeerClaims(client, deployment.coordinator, peerId, owner)
    expect(claims.filter((c) => c.wallet === owner)).toEqual([
      expect.objectContaining({ peerId, wallet: owner, verified: true, problem: null }),
    ])
    expect(claims.length).toBeLessThanOrEqual(MAX_CLAIMS_SHOWN + 1)
    expect(claims.filter((c) => !c.verified).length).toBeGreaterThanOrEqual(MAX_CLAIMS_SHOWN - 1)
    // a wallet with no claim on the peer adds nothing
    const stranger = privateKeyToAccount(generatePrivateKey()).address
    const others = await readPeerClaims(client, deployment.coordinator, peerId, stranger)
    expect(others.some((c) => c.wallet === stranger)).toBe(false)
    expect(others).toHaveLength(MAX_CLAIMS_SHOWN)
  }, 120_000)
})
