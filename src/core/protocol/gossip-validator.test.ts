import { generateKeyPair } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { describe, expect, it } from 'vitest'
import { demoGeneration } from '../../host/demo/demo-receipts.ts'
import { kernelsHashFromDisk } from '../../compute/proof/kernels-hash-node.ts'
import { generateReasoningTask } from '../tasks/generate-reasoning-task.ts'
import { refOfTask } from './task-ref.ts'
import { PROTOCOL_VERSION, encodeEnvelope, type Envelope } from './envelope.ts'
import {
  DEFAULT_MAX_AGE_MS,
  DEFAULT_MAX_SKEW_MS,
  DEFAULT_RATE_LIMITS,
  MAX_RATE_BUCKETS_PER_KIND,
  MAX_REPLAY_ENTRIES,
  REJECT_REASONS,
  ROLLOUTS_PER_FORWARDER,
  createGossipValidator,
  type GossipValidatorOptions,
  type RejectReason,
  type ValidationResult,
} from './gossip-validator.ts'
import { makePresenceBody } from './presence.ts'
import { MAX_MESSAGE_BYTES, topicFor } from './topics.ts'

const SWARM = 'ab'.repeat(32)
const OTHER_SWARM = 'cd'.repeat(32)
const ALICE = '12D3KooWAlice'
const BOB = '12D3KooWBob'
const T0 = 1_800_000_000_000
const TOPIC = topicFor(SWARM, 'presence')

const nameOf = (peerId: string): string => `name of ${peerId}`
const presence = (from: string, leaving = false) =>
  makePresenceBody({
    name: nameOf(from),
    appVersion: '0.1.0',
    capabilities: { webgpu: null, cores: 4, memoryGb: 8 },
    leaving,
  })
const envelope = (over: Partial<Envelope> = {}): Envelope => ({
  v: PROTOCOL_VERSION,
  swarmId: SWARM,
  round: 3,
  from: over.from ?? ALICE,
  ts: T0,
  kind: 'presence',
  body: presence(over.from ?? ALICE),
  ...over,
})
const json = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value))

function setup(opts: Partial<GossipValidatorOptions> = {}) {
  let t = T0
  const validator = createGossipValidator({ swarmId: SWARM, now: () => t, nameOf, ...opts })
  return {
    validator,
    advance: (ms: number) => void (t += ms),
    /** validates an envelope published on its kind's topic and signed by its sender */
    check: (env: Envelope, signer = env.from): ValidationResult =>
      validator.validate(topicFor(SWARM, env.kind), encodeEnvelope(env), signer),
  }
}
const reasonOf = (result: ValidationResult): RejectReason | 'ok' => (result.ok ? 'ok' : result.reason)

describe('createGossipValidator', () => {
  it('accepts a valid presence and hands back the checked envelope', () => {
    const { check } = setup()
    const env = envelope()
    expect(check(env)).toEqual({ ok: true, envelope: env })
  })

  it('accepts rollouts whose groups have the swarm’s G and refuses other sizes, saying why', () => {
    const task = generateReasoningTask('arithmetic', 1, 4)
    const group = (g: number) => ({
      taskId: task.id,
      task: refOfTask(task),
      completions: Array.from({ length: g }, () => ({ text: '<answer>1</answer>', tokenIds: [1, 2] })),
      rewards: Array.from({ length: g }, () => 0.2),
      policyVersion: 0,
    })
    const { check } = setup({ groupSize: 2 })
    const ok = envelope({ kind: 'rollouts', body: { groups: [group(2)] } })
    expect(check(ok)).toEqual({ ok: true, envelope: ok })
    const bad = check(envelope({ kind: 'rollouts', body: { groups: [group(3)] }, ts: T0 + 1 }))
    expect(bad).toMatchObject({
      ok: false,
      reason: 'invalid-body',
      detail: 'a group must hold exactly 2 completions',
    })
  })

  it("accepts a receipt signed by its sender and refuses someone else's", async () => {
    const key = await generateKeyPair('Ed25519')
    const signer = peerIdFromPrivateKey(key).toString()
    const { receipt } = await demoGeneration(key, kernelsHashFromDisk())
    const { check } = setup()
    const ok = envelope({ kind: 'receipts', from: signer, body: { receipt } })
    expect(check(ok)).toEqual({ ok: true, envelope: ok })
    const forwarded = check(envelope({ kind: 'receipts', from: BOB, body: { receipt } }))
    expect(forwarded).toMatchObject({ ok: false, reason: 'invalid-body' })
  })

  it('works without a naming function (no name check)', () => {
    const { check } = setup({ nameOf: undefined })
    expect(check(envelope({ body: { ...presence(ALICE), name: 'anything' } })).ok).toBe(true)
  })

  describe('refuses, with the reason as counter key,', () => {
    it('wrong-topic: another swarm, another protocol, an unknown kind', () => {
      const { validator } = setup()
      const data = encodeEnvelope(envelope())
      for (const topic of [
        topicFor(OTHER_SWARM, 'presence'),
        '/meshsub/1.1.0',
        `/tabswarm/${SWARM}/chat/1`,
        `/tabswarm/${SWARM}/presence/2`,
      ])
        expect(reasonOf(validator.validate(topic, data, ALICE))).toBe('wrong-topic')
    })

    it('unknown-kind: kinds without a schema yet accept nothing', () => {
      const { check } = setup()
      for (const kind of ['proposals', 'markets'] as const)
        expect(reasonOf(check(envelope({ kind, body: {} })))).toBe('unknown-kind')
    })

    it('oversized: checked on the byte length, before parsing', () => {
      const { validator } = setup()
      const cap = MAX_MESSAGE_BYTES.presence
      expect(reasonOf(validator.validate(TOPIC, new Uint8Array(cap + 1), ALICE))).toBe('oversized')
      // At the cap the bytes are parsed (and these zeros are no JSON).
      expect(reasonOf(validator.validate(TOPIC, new Uint8Array(cap), ALICE))).toBe('malformed')
    })

    it('malformed: not JSON, not an envelope, a bad field', () => {
      const { validator } = setup()
      const samples = [
        new TextEncoder().encode('{"v":1'),
        json([1, 2]),
        json({ ...envelope(), extra: 1 }),
        json({ ...envelope(), ts: 'now' }),
      ]
      for (const data of samples) {
        const result = validator.validate(TOPIC, data, ALICE)
        expect(result).toMatchObject({ ok: false, reason: 'malformed' })
        expect(result.ok || result.detail).toBeTruthy()
      }
    })

    it('malformed: a body number that parses to Infinity (1e999), so it cannot be hashed', () => {
      const { validator } = setup()
      const text = new TextDecoder().decode(encodeEnvelope(envelope()))
      for (const n of ['1e999', '-1e999']) {
        const data = new TextEncoder().encode(text.replace('"cores":4', `"cores":${n}`))
        expect(data.byteLength).toBeLessThan(MAX_MESSAGE_BYTES.presence)
        expect(validator.validate(TOPIC, data, ALICE)).toMatchObject({ ok: false, reason: 'malformed' })
      }
    })

    it('malformed: any exception inside validation is a refusal with a reason, never a throw', () => {
      const { check } = setup({
        nameOf: () => {
          throw new Error('naming failed')
        },
      })
      expect(check(envelope())).toMatchObject({
        ok: false,
        reason: 'malformed',
        detail: expect.stringContaining('naming failed') as string,
      })
    })

    it('unknown-version', () => {
      const { validator } = setup()
      expect(reasonOf(validator.validate(TOPIC, json({ ...envelope(), v: 2 }), ALICE))).toBe(
        'unknown-version',
      )
    })

    it('wrong-swarm: the envelope names another swarm than its topic', () => {
      const { validator } = setup()
      const data = encodeEnvelope(envelope({ swarmId: OTHER_SWARM }))
      expect(reasonOf(validator.validate(TOPIC, data, ALICE))).toBe('wrong-swarm')
    })

    it('wrong-kind: the envelope kind is not the topic kind', () => {
      const { validator } = setup()
      const data = encodeEnvelope(envelope({ kind: 'rollouts' }))
      expect(reasonOf(validator.validate(TOPIC, data, ALICE))).toBe('wrong-kind')
    })

    it('sender-mismatch: from is not the signer', () => {
      const { check } = setup()
      expect(reasonOf(check(envelope({ from: ALICE }), BOB))).toBe('sender-mismatch')
    })

    it('stale: older than maxAgeMs (60 s by default)', () => {
      const { check } = setup()
      expect(DEFAULT_MAX_AGE_MS).toBe(60_000)
      expect(reasonOf(check(envelope({ ts: T0 - DEFAULT_MAX_AGE_MS - 1 })))).toBe('stale')
      expect(reasonOf(check(envelope({ ts: T0 - DEFAULT_MAX_AGE_MS })))).toBe('ok')
    })

    it('future: ahead by more than maxSkewMs (10 s by default)', () => {
      const { check } = setup()
      expect(DEFAULT_MAX_SKEW_MS).toBe(10_000)
      expect(reasonOf(check(envelope({ ts: T0 + DEFAULT_MAX_SKEW_MS + 1 })))).toBe('future')
      expect(reasonOf(check(envelope({ ts: T0 + DEFAULT_MAX_SKEW_MS })))).toBe('ok')
    })

    it('honours maxAgeMs and maxSkewMs options', () => {
      const { check } = setup({ maxAgeMs: 1000, maxSkewMs: 0 })
      expect(reasonOf(check(envelope({ ts: T0 - 1001 })))).toBe('stale')
      expect(reasonOf(check(envelope({ ts: T0 + 1 })))).toBe('future')
      expect(reasonOf(check(envelope({ ts: T0 - 1000 })))).toBe('ok')
    })

    it('replay: the same sender, kind, timestamp and body, however encoded', () => {
      const { validator, check, advance } = setup()
      const env = envelope()
      expect(reasonOf(check(env))).toBe('ok')
      advance(30_000)
      expect(reasonOf(check(env))).toBe('replay')
      // Other key order and whitespace: still the same message.
      const reversed = (o: object): object => Object.fromEntries(Object.entries(o).reverse())
      const reencoded = json({ ...reversed(env), body: reversed(env.body as object) })
      expect(reasonOf(validator.validate(TOPIC, reencoded, ALICE))).toBe('replay')
      // A new timestamp or a new body is a new message.
      expect(reasonOf(check({ ...env, ts: T0 + 1 }))).toBe('ok')
      expect(reasonOf(check({ ...env, body: presence(ALICE, true) }))).toBe('ok')
      // Once the window has passed, the old message is stale rather than forgotten.
      advance(30_001)
      expect(reasonOf(check(env))).toBe('stale')
    })

    it('rate-limited: a flood from one signer, per kind, with the documented default', () => {
      const { check, advance } = setup()
      const { perSecond, burst } = DEFAULT_RATE_LIMITS.presence
      expect({ perSecond, burst }).toEqual({ perSecond: 1, burst: 5 })
      const reasons = Array.from({ length: 8 }, (_, i) => reasonOf(check(envelope({ ts: T0 + i }))))
      expect(reasons).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'rate-limited', 'rate-limited', 'rate-limited'])
      // Another signer has its own bucket.
      expect(reasonOf(check(envelope({ from: BOB })))).toBe('ok')
      advance(1000)
      expect(reasonOf(check(envelope({ ts: T0 + 1000 })))).toBe('ok')
      expect(reasonOf(check(envelope({ ts: T0 + 1001 })))).toBe('rate-limited')
    })

    it('rate-limited: rollouts from 1,000 fresh signers behind one connection are throttled together', () => {
      const { validator, advance } = setup({ groupSize: 2 })
      const task = generateReasoningTask('arithmetic', 1, 4)
      const body = {
        groups: [
          {
            taskId: task.id,
            task: refOfTask(task),
            completions: Array.from({ length: 2 }, () => ({ text: '<answer>1</answer>', tokenIds: [1, 2] })),
            rewards: [0, 0],
            policyVersion: 0,
          },
        ],
      }
      const send = (signer: string, source: string) =>
        reasonOf(
          validator.validate(
            topicFor(SWARM, 'rollouts'),
            encodeEnvelope(envelope({ kind: 'rollouts', from: signer, body })),
            signer,
            source,
          ),
        )
      const { burst } = ROLLOUTS_PER_FORWARDER
      const counts = new Map<string, number>()
      for (let i = 0; i < 1_000; i++) {
        const r = send(`12D3KooWFresh${i}`, 'attacker-connection')
        counts.set(r, (counts.get(r) ?? 0) + 1)
      }
      expect(Object.fromEntries(counts)).toEqual({ ok: burst, 'rate-limited': 1_000 - burst })
      // Another connection has its own bucket, and the flooding one regains perSecond a second.
      expect(send('12D3KooWHonest', 'honest-connection')).toBe('ok')
      advance(1000)
      expect(send('12D3KooWFreshAgain', 'attacker-connection')).toBe('ok')
    })

    it('rate-limited: honours a per-kind override', () => {
      const { check } = setup({ rate: { presence: { perSecond: 0.5, burst: 1 } } })
      expect(reasonOf(check(envelope({ ts: T0 })))).toBe('ok')
      expect(reasonOf(check(envelope({ ts: T0 + 1 })))).toBe('rate-limited')
    })

    it('replays do not spend the original sender’s tokens', () => {
      const { check } = setup()
      const env = envelope()
      expect(reasonOf(check(env))).toBe('ok')
      for (let i = 0; i < 100; i++) expect(reasonOf(check(env))).toBe('replay')
      expect(reasonOf(check(envelope({ ts: T0 + 1 })))).toBe('ok')
    })

    it('invalid-body: the presence schema fails, or the name is not the sender’s', () => {
      const { check } = setup()
      const bad = check(envelope({ body: { ...presence(ALICE), cores: 8 } }))
      expect(bad).toMatchObject({ ok: false, reason: 'invalid-body' })
      expect(bad.ok || bad.detail).toMatch(/unexpected or missing field "cores"/)
      const misnamed = check(envelope({ body: presence(BOB) }))
      expect(misnamed).toMatchObject({ ok: false, reason: 'invalid-body' })
      expect(misnamed.ok || misnamed.detail).toContain(nameOf(ALICE))
    })
  })

  it('has a test above for every reject reason', () => {
    // Each reason, produced once more here, so a reason added to the list without a check fails this test.
    const { validator, check } = setup({ rate: { presence: { perSecond: 1, burst: 2 } } })
    const produced = new Set<string>([
      reasonOf(validator.validate('/elsewhere', new Uint8Array(), ALICE)),
      reasonOf(check(envelope({ kind: 'proposals' }))),
      reasonOf(validator.validate(TOPIC, new Uint8Array(MAX_MESSAGE_BYTES.presence + 1), ALICE)),
      reasonOf(validator.validate(TOPIC, json('x'), ALICE)),
      reasonOf(validator.validate(TOPIC, json({ v: 9 }), ALICE)),
      reasonOf(validator.validate(TOPIC, encodeEnvelope(envelope({ swarmId: OTHER_SWARM })), ALICE)),
      reasonOf(validator.validate(TOPIC, encodeEnvelope(envelope({ kind: 'markets' })), ALICE)),
      reasonOf(check(envelope(), BOB)),
      reasonOf(check(envelope({ ts: 0 }))),
      reasonOf(check(envelope({ ts: T0 + 3_600_000 }))),
      reasonOf(check(envelope({ ts: T0 + 1 }))),
      reasonOf(check(envelope({ ts: T0 + 1 }))),
      reasonOf(check(envelope({ body: null }))),
      reasonOf(check(envelope({ ts: T0 + 2 }))),
    ])
    expect([...produced].sort()).toEqual(['ok', ...REJECT_REASONS].sort())
  })

  describe('under a flood of 100k distinct messages', () => {
    const FLOOD = 100_000
    // Plain JSON.stringify (field order fixed by `envelope`) keeps the test's own encoding cheap.
    const send = (validator: ReturnType<typeof setup>['validator'], env: Envelope): ValidationResult =>
      validator.validate(TOPIC, json(env), env.from)

    it('from 100k signers (a Sybil flood): its caches stay within their bounds', () => {
      const { validator, check, advance } = setup()
      let accepted = 0
      for (let i = 0; i < FLOOD; i++)
        if (send(validator, envelope({ from: `12D3KooWSybil${i}` })).ok) accepted++
      expect(accepted).toBe(FLOOD)
      const sizes = validator.cacheSizes()
      expect(sizes.replay).toBeGreaterThan(0)
      expect(sizes.replay).toBeLessThanOrEqual(MAX_REPLAY_ENTRIES)
      expect(sizes.rateBuckets).toBeGreaterThan(0)
      expect(sizes.rateBuckets).toBeLessThanOrEqual(MAX_RATE_BUCKETS_PER_KIND)
      // The most recent messages are still recognised as replays.
      expect(reasonOf(check(envelope({ from: `12D3KooWSybil${FLOOD - 1}` })))).toBe('replay')
      // Once the window has passed, the cache forgets everything it held.
      advance(DEFAULT_MAX_AGE_MS + 1)
      expect(reasonOf(check(envelope({ ts: T0 + DEFAULT_MAX_AGE_MS + 1 })))).toBe('ok')
      expect(validator.cacheSizes().replay).toBe(1)
    })

    it('from one signer: all but the burst are rate-limited and nothing piles up', () => {
      const { validator } = setup()
      const counts = new Map<string, number>()
      for (let i = 0; i < FLOOD; i++) {
        const r = reasonOf(
          send(validator, envelope({ body: { ...presence(ALICE), appVersion: `flood-${i}` } })),
        )
        counts.set(r, (counts.get(r) ?? 0) + 1)
      }
      expect(Object.fromEntries(counts)).toEqual({ ok: 5, 'rate-limited': FLOOD - 5 })
      expect(validator.cacheSizes()).toEqual({ replay: 5, rateBuckets: 1 })
    })
  })
})
