// The verified leaderboard against a real SwarmCoordinator on anvil: forged claims land on-chain (the
// contract cannot check Ed25519 proofs) but are neither summed, nor counted as voters, nor ranked.
import { generateKeyPair } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { bytesToHex, createWalletClient, http, keccak256, toHex } from 'viem'
import type { Hash, PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil } from '../../node/cli/anvil.ts'
import type { Anvil } from '../../node/cli/anvil.ts'
import { readLeaderboard } from './chain-leaderboard.ts'
import { deployLocalChain } from '../chain/deploy-local-chain.ts'
import type { ChainDeployment } from '../chain/deployment.ts'
import { swarmCoordinatorAbi } from '../chain/generated/SwarmCoordinator.ts'
import { buildLeaderboard } from './leaderboard.ts'
import { anvilAccount, localChain, localClients } from '../chain/local-clients.ts'
import { signRegistration } from './registration-message.ts'

// Fixed port for this file only.
const ANVIL_PORT = 19640
const ROUND_LENGTH = 60

describe('buildLeaderboard', () => {
  const claim = (peerId: string, wallet: string, totalRewards: bigint, verified: boolean) => ({
    peerId,
    wallet,
    totalRewards,
    rewardCount: 1n,
    voteCount: 1n,
    verified,
  })

  it('sums proven claims per peer and ranks by rewards, then wins, then peer id', () => {
    const board = buildLeaderboard(
      [
        claim('A', '0x1', 5n, true),
        claim('A', '0x2', 5n, true),
        claim('B', '0x3', 10n, true),
        claim('C', '0x4', 0n, true),
      ],
      [
        { voterPeerId: 'C', voterWallet: '0x4', round: 1n, winners: ['A'] },
        { voterPeerId: 'B', voterWallet: '0x3', round: 1n, winners: ['A', 'C'] },
      ],
    )
    expect(board.entries.map((e) => [e.peerId, e.totalRewards, e.wins, e.wallets.length])).toEqual([
      ['A', 10n, 2n, 2],
      ['B', 10n, 0n, 1],
      ['C', 0n, 1n, 1],
    ])
  })

  it('leaves unproven claims, their votes and unproven winners off', () => {
    const board = buildLeaderboard(
      [claim('A', '0x1', 1n, true), claim('A', '0x9', 100n, false), claim('M', '0x9', 50n, false)],
      [
        { voterPeerId: 'M', voterWallet: '0x9', round: 1n, winners: ['A', 'M'] },
        { voterPeerId: 'A', voterWallet: '0x1', round: 1n, winners: ['M'] },
      ],
    )
    expect(board.entries).toHaveLength(1)
    expect(board.entries[0]).toMatchObject({ peerId: 'A', totalRewards: 1n, wins: 0n })
    expect(board.unverified.map((c) => c.peerId)).toEqual(['A', 'M'])
    expect(board.ignoredVotes).toBe(1)
  })
})

describe('readLeaderboard on anvil', () => {
  let anvil: Anvil
  let deployment: ChainDeployment
  let client: PublicClient

  beforeAll(async () => {
    anvil = await startAnvil({ port: ANVIL_PORT })
    ;({ deployment } = await deployLocalChain({
      rpcUrl: anvil.rpcUrl,
      genesisTime: Math.floor(Date.now() / 1000) - 3 * ROUND_LENGTH,
      roundLength: ROUND_LENGTH,
    }))
    ;({ client } = await localClients(anvil.rpcUrl))
  })
  afterAll(() => anvil?.stop())

  it('ranks proven peers only and counts proven voters only', async () => {
    const chain = localChain(deployment.chainId, anvil.rpcUrl)
    const coordinator = { address: deployment.coordinator, abi: swarmCoordinatorAbi } as const
    const send = async (index: number, write: (w: ReturnType<typeof walletOf>) => Promise<Hash>) => {
      const receipt = await client.waitForTransactionReceipt({
        hash: await write(walletOf(index)),
        pollingInterval: 20,
      })
      expect(receipt.status).toBe('success')
    }
    const walletOf = (index: number) =>
      createWalletClient({ account: anvilAccount(index), chain, transport: http(anvil.rpcUrl) })
    const register = async (index: number, key: PrivateKey, forge = false) => {
      const proof = await signRegistration(key, {
        chainId: deployment.chainId,
        coordinator: deployment.coordinator,
        wallet: anvilAccount(index).address,
      })
      const signature = forge ? bytesToHex(new Uint8Array(64).fill(7)) : proof.signature
      await send(index, (w) =>
        w.writeContract({
          ...coordinator,
          functionName: 'registerPeer',
          args: [proof.peerId, proof.publicKey, signature],
        }),
      )
      return proof.peerId
    }
    const [keyA, keyB, keyM] = await Promise.all([1, 2, 3].map(() => generateKeyPair('Ed25519')))
    const a = await register(1, keyA!)
    const b = await register(2, keyB!)
    await register(3, keyA!, true) // Mallory claims A's peer id with a forged proof
    const m = await register(3, keyM!, true) // and her own peer id without a valid proof
    const round = await client.readContract({ ...coordinator, functionName: 'currentRound' })
    const tip = keccak256(toHex('tip'))
    await send(1, (w) =>
      w.writeContract({ ...coordinator, functionName: 'submitReward', args: [round, a, 10n, tip] }),
    )
    await send(2, (w) =>
      w.writeContract({ ...coordinator, functionName: 'submitReward', args: [round, b, 5n, tip] }),
    )
    await send(3, (w) =>
      w.writeContract({ ...coordinator, functionName: 'submitReward', args: [round, a, 1000n, tip] }),
    )
    await send(2, (w) =>
      w.writeContract({ ...coordinator, functionName: 'submitWinners', args: [round, [a], b] }),
    )
    await send(3, (w) =>
      w.writeContract({ ...coordinator, functionName: 'submitWinners', args: [round, [m, b], m] }),
    )

    const board = await readLeaderboard(client, deployment)
    expect(board.entries.map((e) => [e.peerId, e.totalRewards, e.wins])).toEqual([
      [a, 10n, 1n],
      [b, 5n, 0n],
    ])
    expect(board.unverified.map((c) => c.peerId).sort()).toEqual([a, m].sort())
    expect(board.ignoredVotes).toBe(1)
    // The contract's own count includes Mallory's vote for B: why readers must recount.
    expect(await client.readContract({ ...coordinator, functionName: 'getTotalWins', args: [b] })).toBe(1n)
  })
})
