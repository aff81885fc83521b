import { describe, expect, it } from 'vitest'
import { MemoryBlobStore } from '../storage/blob-store.ts'
import { blobHistoryStore, decodeHistory, encodeHistory } from './learning-history-store.ts'
import type { LearningHistory } from './learning-loop.ts'

const history: LearningHistory = {
  rounds: [],
  evals: [{ round: 4, policyVersion: 5, pass1: 0.25, tasks: 12 }],
  curriculum: { cells: { 'reasoning/arithmetic/2': { completions: 3.6, successes: 1.8 } } },
  peers: { p: { name: 'n', rounds: 1, lastRound: 4, rewardSum: 1, completions: 2, refused: 0, score: 1 } },
}

describe('the learning history store', () => {
  it('keeps one history per swarm and peer across page loads', async () => {
    const blobs = new MemoryBlobStore()
    await blobHistoryStore(blobs, 'swarm', 'peerA').save(history)
    expect(await blobHistoryStore(blobs, 'swarm', 'peerA').load()).toEqual(history)
    expect(await blobHistoryStore(blobs, 'swarm', 'peerB').load()).toBeUndefined()
    expect(await blobHistoryStore(blobs, 'other', 'peerA').load()).toBeUndefined()
  })

  it('loads a history saved before the curriculum (a difficulty, no curriculum) with an empty curriculum', () => {
    const rest = { rounds: history.rounds, evals: history.evals, peers: history.peers }
    const old = new TextEncoder().encode(
      JSON.stringify({ format: 'tabswarm-learning-history-v1', ...rest, difficulty: 2 }),
    )
    expect(decodeHistory(old)).toEqual({ ...rest, curriculum: { cells: {} } })
  })

  it('sets aside what is not a history instead of failing', () => {
    const text = (s: string) => new TextEncoder().encode(s)
    expect(decodeHistory(encodeHistory(history))).toEqual(history)
    expect(decodeHistory(text('{'))).toBeUndefined()
    expect(decodeHistory(text(JSON.stringify({ ...history, format: 'v0' })))).toBeUndefined()
    const bad = JSON.parse(new TextDecoder().decode(encodeHistory(history)))
    expect(decodeHistory(text(JSON.stringify({ ...bad, rounds: 'x' })))).toBeUndefined()
  })
})
