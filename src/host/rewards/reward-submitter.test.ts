// The reward queue against a real anvil: a round sent before the peer is registered is held with the
// contract's sentence and resumes once the registration shows; rewards and votes land per round with
// their chain tips; rounds queued while the RPC is down are sent once it is back, with no duplicate; a
// reload keeps the queue and never sends a round twice; a round the chain's clock has not reached waits.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateKeyPair } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { IDBFactory } from 'fake-indexeddb'
import {
  createPublicClient,
  createWalletClient,
  http,
  keccak256,
  toHex,
  type Address,
  type PublicClient,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '../../node/cli/anvil.ts'
import { coordinatorClockSource, learningClock } from '../start-learning.ts'
import { learningStore } from '../stores/learning-store.ts'
import { type LearningState } from '../../core/learning/learning-state.ts'
import { walletStore } from '../stores/wallet-store.ts'
import { runContractTx } from '../chain/contract-tx.ts'
import { readCoordinatorClock } from './coordinator-clock.ts'
import { deployCoordinator } from '../chain/deploy-coordinator.ts'
import { swarmCoordinatorAbi } from '../chain/generated/SwarmCoordinator.ts'
import { anvilAccount, localChain } from '../chain/local-clients.ts'
import type { ClaimView } from './peer-claims.ts'
import { signRegistration } from './registration-message.ts'
import { createRewardSubmitter, type RewardSubmitter } from './reward-submitter.ts'
import { MAX_PEER_ID_LENGTH, MAX_WINNERS, roundWinners } from './round-winners.ts'
import type { SwarmSend } from './submit-round.ts'
import { chainTipBytes32, rewardUnits, ZERO_CHAIN_TIP, type SubmissionInput } from './submission-queue.ts'
import { openSubmissionStore, submissionScope } from './submission-store.ts'

// This file's ports: 19730–19739 (only 19730 is used).
const ANVIL_PORT = 19730
const ROUND_LENGTH = 30
/** rounds already past on the chain's clock when the test starts */
const ROUNDS_PAST = 10

const account = anvilAccount(3)
let dir: string
let anvil: Anvil
let coordinator: Address
let genesisTime: number
let client: PublicClient

const startChain = async () => {
  anvil = await startAnvil({ port: ANVIL_PORT, stateFile: join(dir, 'anvil-state.json') })
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reward-submitter-'))
  await startChain()
  genesisTime = Math.floor(Date.now() / 1000) - ROUNDS_PAST * ROUND_LENGTH
  ;({ coordinator } = await deployCoordinator({
    rpcUrl: anvil.rpcUrl,
    genesisTime,
    roundLength: ROUND_LENGTH,
  }))
  client = createPublicClient({ transport: http(anvil.rpcUrl, { retryCount: 0 }) }) as PublicClient
}, 30_000)

afterAll(async () => {
  await anvil?.stop()
  await rm(dir, { recursive: true, force: true })
})

const contract = () => ({ address: coordinator, abi: swarmCoordinatorAbi }) as const

/** The wallet's send as the app runs it (simulate first, sentence on failure), counting calls by function. */
function countingSend(): { send: SwarmSend; calls: string[] } {
  const calls: string[] = []
  const chain = localChain(31337, anvil.rpcUrl)
  const wallet = createWalletClient({ account, chain, transport: http(anvil.rpcUrl, { retryCount: 0 }) })
  const publicClient = createPublicClient({
    chain,
    transport: http(anvil.rpcUrl, { retryCount: 0 }),
  }) as PublicClient
  const send: SwarmSend = (call, options) => {
    calls.push(call.functionName)
    return runContractTx({
      wallet,
      publicClient,
      call,
      kind: options.kind,
      walletKind: 'burner',
      autoApproveSwarm: true,
      confirm: async () => true,
      errorContext: { rpcUrl: anvil.rpcUrl },
      onState: () => {},
    })
  }
  return { send, calls }
}

function connectWallet(peerClaims: ClaimView[] | null): void {
  walletStore.setState({
    deployment: { chainId: 31337, rpcUrl: anvil.rpcUrl, coordinator, deployedAtBlock: 1 },
    status: 'connected',
    kind: 'burner',
    address: account.address,
    chainId: 31337,
    rpcUrl: anvil.rpcUrl,
    peerClaims,
  })
}

async function until(
  what: string,
  ok: (s: LearningState) => boolean,
  timeoutMs = 15_000,
): Promise<LearningState> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const s = learningStore.getState()
    if (ok(s)) return s
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(s.submissions)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const allConfirmed = (rounds: number[]) => (s: LearningState) =>
  rounds.every((r) => s.submissions[r]?.status === 'confirmed')

describe('coordinator constants and clock', () => {
  it('reads the round clock from the coordinator', async () => {
    expect(await readCoordinatorClock(client, coordinator)).toEqual({
      genesisTime: genesisTime * 1000,
      roundLengthMs: ROUND_LENGTH * 1000,
    })
  })

  it('gives a learning tab the coordinator’s clock over a config that counts rounds differently', async () => {
    const config = {
      version: 1 as const,
      name: 'other clock',
      genesisTime: genesisTime * 1000 + 3_600_000,
      roundLengthMs: 20_000,
      relays: [],
      iceServers: [],
    }
    const chain = { genesisTime: genesisTime * 1000, roundLengthMs: ROUND_LENGTH * 1000 }
    const clocked = await learningClock(config, coordinatorClockSource(anvil.rpcUrl, coordinator))
    expect(clocked.config).toEqual({ ...config, ...chain })
    expect(clocked.clockNote).toMatchObject({ warn: false })
    expect(clocked.clockNote!.text).toMatch(
      new RegExp(`^round clock from the coordinator at ${coordinator}: 30 s`),
    )
    // no chain at that address (a port nobody listens on): the config's clock, with a warning
    const down = await learningClock(config, coordinatorClockSource('http://127.0.0.1:1', coordinator))
    expect(down).toMatchObject({ config, clockNote: { warn: true } })
  })

  it('votes within the coordinator’s limits', async () => {
    expect(await client.readContract({ ...contract(), functionName: 'MAX_WINNERS' })).toBe(
      BigInt(MAX_WINNERS),
    )
    expect(await client.readContract({ ...contract(), functionName: 'MAX_PEER_ID_LENGTH' })).toBe(
      BigInt(MAX_PEER_ID_LENGTH),
    )
  })
})

describe('reward submitter without a ready wallet', () => {
  it('queues at once, says what blocks sending, and leaves the round loop’s message alone', async () => {
    const calls: string[] = []
    const send: SwarmSend = async (call) => (
      calls.push(call.functionName),
      { ok: false, error: 'not expected' }
    )
    const message = () => learningStore.getState().message
    connectWallet(null)
    walletStore.setState({ status: 'disconnected', address: null, chainId: null, rpcUrl: null })
    learningStore.setState({ submissions: {}, message: null })
    const submitter = createRewardSubmitter({ peerId: 'peer', send, indexedDB: null })
    const input = (round: number) => ({ round, reward: '1', chainTip: ZERO_CHAIN_TIP, winners: [] })
    submitter.enqueue(input(1))
    submitter.enqueue(input(2))
    expect(learningStore.getState().submissions[2]).toMatchObject({ status: 'queued', attempts: 0 })
    expect(message()).toBe(
      'Rewards for rounds 1–2 are queued: no wallet is connected; connect one in the Wallet view.',
    )

    learningStore.setState({ message: 'The model could not be loaded.' }) // the round loop's sentence
    submitter.enqueue(input(3))
    expect(message()).toBe('The model could not be loaded.')

    learningStore.setState({ message: null })
    walletStore.setState({
      status: 'connected',
      address: account.address,
      chainId: 685685,
      rpcUrl: 'http://x',
    })
    expect(message()).toBe(
      'Rewards for rounds 1–3 are queued: the wallet is on another network; switch it to the swarm’s chain (id 31337) in the Wallet view.',
    )
    await submitter.stop()
    expect(calls).toEqual([])
  })
})

describe('reward submitter on anvil', () => {
  const factory = new IDBFactory()
  let peerId: string
  let rival: string
  let submitter: RewardSubmitter
  const counting = { calls: [] as string[] }
  const entry = (round: number, winners: string[]): SubmissionInput => ({
    round,
    reward: rewardUnits(0.125 * round),
    chainTip: chainTipBytes32(keccak256(toHex(`tip ${round}`))),
    winners,
  })
  const rewardOf = (round: number) =>
    client.readContract({
      ...contract(),
      functionName: 'getRoundReward',
      args: [BigInt(round), peerId, account.address],
    })
  const claim = () =>
    client.readContract({ ...contract(), functionName: 'getClaim', args: [peerId, account.address] })

  it('holds a round while the peer is not registered, with the contract’s sentence, then sends it', async () => {
    const key = await generateKeyPair('Ed25519')
    peerId = peerIdFromPrivateKey(key).toString()
    rival = peerIdFromPrivateKey(await generateKeyPair('Ed25519')).toString()
    learningStore.setState({ submissions: {}, message: null })
    connectWallet(null) // claims not read yet: the submitter tries, and the contract says why not
    const { send, calls } = countingSend()
    counting.calls = calls
    submitter = createRewardSubmitter({ peerId, send, indexedDB: factory })
    submitter.enqueue(entry(1, roundWinners({ [peerId]: 0.5, [rival]: 0.5, self: 0.25 })))

    const held = await until('the hold', (s) => s.submissions[1]?.waitingFor === 'registration')
    expect(held.submissions[1]).toMatchObject({ status: 'queued', attempts: 1 })
    expect(held.submissions[1]!.error).toMatch(
      /^Peer 12D3KooW.+ is not registered to wallet 0x.+: register it first\.$/,
    )
    expect(await rewardOf(1)).toMatchObject({ submitted: false })

    // the wallet panel's read shows no claim: the message asks for the registration
    connectWallet([])
    expect(learningStore.getState().message).toBe(
      'The reward for round 1 is queued: this peer is not registered to the wallet; register it in the Wallet view and it will be sent.',
    )
    expect(learningStore.getState().rewardsWaitForRegistration).toBe(true)

    const proof = await signRegistration(key, { chainId: 31337, coordinator, wallet: account.address })
    const registered = await runContractTx({
      wallet: createWalletClient({
        account,
        chain: localChain(31337, anvil.rpcUrl),
        transport: http(anvil.rpcUrl),
      }),
      publicClient: client,
      call: {
        ...contract(),
        functionName: 'registerPeer',
        args: [proof.peerId, proof.publicKey, proof.signature],
      },
      kind: 'direct',
      walletKind: 'burner',
      autoApproveSwarm: true,
      confirm: async () => true,
      onState: () => {},
    })
    expect(registered.ok).toBe(true)
    connectWallet([
      {
        peerId,
        wallet: account.address,
        publicKey: proof.publicKey,
        signature: proof.signature,
        registeredAt: 0,
        verified: true,
        problem: null,
      },
    ])
    const sent = await until('round 1 confirmed', allConfirmed([1]))
    expect(sent.rewardsWaitForRegistration).toBe(false)
    expect(sent.submissions[1]).toMatchObject({
      attempts: 2,
      error: undefined,
      winners: [peerId, rival].sort(),
    })
    expect(sent.submissions[1]!.txHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(sent.submissions[1]!.voteTxHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(sent.message).toBeNull()
  })

  it('sends rewards and votes per round, with each round’s chain tip', async () => {
    submitter.enqueue(entry(2, [peerId]))
    submitter.enqueue({ ...entry(3, []), chainTip: ZERO_CHAIN_TIP }) // trained nothing, no winner
    await until('rounds 2 and 3 confirmed', allConfirmed([1, 2, 3]))
    expect(await rewardOf(2)).toEqual({ submitted: true, reward: 250_000n, chainTip: entry(2, []).chainTip })
    expect(await rewardOf(3)).toEqual({ submitted: true, reward: 375_000n, chainTip: ZERO_CHAIN_TIP })
    expect(
      await client.readContract({
        ...contract(),
        functionName: 'getTotalRewards',
        args: [peerId, account.address],
      }),
    ).toBe(750_000n)
    expect(await client.readContract({ ...contract(), functionName: 'getTotalWins', args: [peerId] })).toBe(
      2n,
    )
    expect(await client.readContract({ ...contract(), functionName: 'getTotalWins', args: [rival] })).toBe(1n)
  })

  it('queues rounds while the RPC is down and sends them once when it is back', async () => {
    await anvil.stop()
    submitter.enqueue(entry(4, [rival]))
    submitter.enqueue(entry(5, [peerId]))
    const down = await until('the outage', (s) => s.submissions[4]?.error !== undefined)
    expect(down.submissions[4]).toMatchObject({ status: 'queued' })
    expect(down.submissions[4]!.error).toMatch(
      /^Cannot reach the chain at http:\/\/127\.0\.0\.1:19730\/?: check that it is running, or pick another RPC URL/,
    )
    expect(down.submissions[5]).toMatchObject({ status: 'queued', attempts: 0 }) // the queue paused after round 4
    expect(down.message).toBe(
      `Rewards for rounds 4–5 are queued: the chain at ${anvil.rpcUrl} is not answering; they will be sent when it is back.`,
    )

    await startChain()
    walletStore.setState({ blockNumber: 1_000n }) // the wallet's poller reads a block: the chain is back
    const back = await until('rounds 4 and 5 confirmed', allConfirmed([4, 5]))
    expect(back.message).toBeNull()
    const events = await client.getContractEvents({
      ...contract(),
      eventName: 'RewardSubmitted',
      fromBlock: 0n,
      strict: true,
    })
    expect(events.filter((e) => e.args.peerId === peerId).map((e) => Number(e.args.round))).toEqual([
      1, 2, 3, 4, 5,
    ])
    expect(await claim()).toMatchObject({ rewardCount: 5n, voteCount: 4n, totalRewards: 1_875_000n })
    expect(await client.readContract({ ...contract(), functionName: 'getTotalWins', args: [rival] })).toBe(2n)
  })

  it('keeps the queue across a reload and never sends a round twice', async () => {
    await submitter.stop()
    // round 6 went on chain but the page went away before it heard back: stored as still sending
    const direct = createWalletClient({
      account,
      chain: localChain(31337, anvil.rpcUrl),
      transport: http(anvil.rpcUrl),
    })
    const six = entry(6, [])
    await client.waitForTransactionReceipt({
      hash: await direct.writeContract({
        ...contract(),
        functionName: 'submitReward',
        args: [6n, peerId, BigInt(six.reward), six.chainTip],
      }),
    })
    const stored = await openSubmissionStore(factory, submissionScope(31337, coordinator, peerId))
    await stored.save(
      [
        {
          ...six,
          status: 'sending',
          attempts: 1,
          txHash: undefined,
          voteTxHash: undefined,
          error: undefined,
          waitingFor: undefined,
          notBefore: 0,
        },
      ],
      [],
    )
    stored.close()

    learningStore.setState({ submissions: {}, message: null })
    const { send, calls } = countingSend()
    submitter = createRewardSubmitter({ peerId, send, indexedDB: factory })
    submitter.enqueue(entry(3, [rival])) // already confirmed before the reload: ignored
    const reloaded = await until('the reloaded queue', allConfirmed([1, 2, 3, 4, 5, 6]))
    expect(reloaded.submissions[3]!.winners).toEqual([])
    expect(calls).toEqual([]) // round 6 was checked on chain, not sent again
    expect(await claim()).toMatchObject({ rewardCount: 6n })
  })

  it('waits for a round the chain’s clock has not reached, with the contract’s sentence', async () => {
    const { send, calls } = countingSend()
    await submitter.stop()
    submitter = createRewardSubmitter({ peerId, send, indexedDB: factory })
    submitter.enqueue(entry(10_000, []))
    const early = await until('the early round', (s) => s.submissions[10_000]?.waitingFor === 'round')
    expect(early.submissions[10_000]).toMatchObject({ status: 'queued', attempts: 1 })
    const [, current] = /^Round 10000 is not open for submissions: the current round is (\d+)\.$/.exec(
      early.submissions[10_000]!.error ?? '',
    )!
    expect(Number(current)).toBeGreaterThanOrEqual(ROUNDS_PAST)
    expect(calls).toEqual(['submitReward'])
    await submitter.stop()
  })
})
