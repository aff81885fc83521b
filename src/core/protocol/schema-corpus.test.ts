// A corpus of accepted and refused values per trust boundary, through the runtime check and through
// the published JSON Schema (docs/schema/, validated with ajv): both must agree, except where the
// runtime enforces a rule JSON Schema cannot express. Such an entry names the rule, and the published
// schema must document it in a `description`.
import { generateKeyPair } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import Ajv from 'ajv'
import { describe, expect, it } from 'vitest'
import { generateReasoningTask } from '../tasks/generate-reasoning-task.ts'
import { parseSwarmConfig } from '../config/swarm-config.ts'
import { decodeEnvelope, MAX_BODY_DEPTH, MAX_ID_LENGTH } from './envelope.ts'
import { MAX_CORES, MAX_NAME_LENGTH, validatePresenceBody } from './presence.ts'
import { validateReceiptsBody } from './receipts-message.ts'
import {
  MAX_COMPLETION_TOKENS,
  MAX_GROUPS_PER_MESSAGE,
  MAX_TOKEN_ID,
  validateRolloutsBody,
  type RolloutGroup,
} from './rollouts.ts'
import { refOfTask } from './task-ref.ts'
import { demoGeneration, demoTrainingStep } from '../../host/demo/demo-receipts.ts'
import { parseInputsFile } from './inputs-file.ts'
import { kernelsHashFromDisk } from '../../compute/proof/kernels-hash-node.ts'
import { schemaFailure } from './receipt-schema.ts'
import { publishedSchema, type PublishedFile } from './published-schemas.ts'

/**
 * A value of the corpus. `runtimeOnly` names a rule the runtime enforces and JSON Schema cannot, so
 * there the schema accepts what the runtime refuses; the phrase must appear in the schema's descriptions.
 */
interface Entry {
  name: string
  value: unknown
  accepted: boolean
  runtimeOnly?: string
}

interface Boundary {
  file: PublishedFile
  /** whether the runtime accepts the value */
  runtime: (value: unknown) => boolean
  /** the value as JSON Schema sees it (the envelope's corpus is wire text) */
  parsed?: (value: unknown) => unknown
  corpus: Entry[]
}

const ok = (name: string, value: unknown): Entry => ({ name, value, accepted: true })
const no = (name: string, value: unknown, runtimeOnly?: string): Entry =>
  runtimeOnly === undefined ? { name, value, accepted: false } : { name, value, accepted: false, runtimeOnly }

const sparse = <T>(items: T[], hole: number): T[] => {
  const out = [...items]
  delete out[hole]
  return out
}

// ---- rollouts
const task = generateReasoningTask('arithmetic', 1, 3)
const group = (over: Partial<RolloutGroup> = {}): RolloutGroup => ({
  taskId: task.id,
  task: refOfTask(task),
  completions: [
    { text: '<answer>1</answer>', tokenIds: [1, 2, 3] },
    { text: '<answer>0</answer>', tokenIds: [4, 5] },
  ],
  rewards: [1.2, 0.2],
  policyVersion: 3,
  ...over,
})
const other = (g: RolloutGroup): RolloutGroup => ({ ...g, taskId: 'f'.repeat(64) })
const withTask = (over: Record<string, unknown>) => group({ task: { ...refOfTask(task), ...over } as never })
const withTokens = (tokenIds: unknown) =>
  group({ completions: [{ text: '', tokenIds: tokenIds as number[] }, group().completions[1]!] })

const ROLLOUTS: Entry[] = [
  ok('a group', { groups: [group()] }),
  ok('16 groups', {
    groups: Array.from({ length: MAX_GROUPS_PER_MESSAGE }, (_, i) => ({
      ...group(),
      taskId: i.toString(16).padStart(64, '0'),
    })),
  }),
  ok('empty token ids and text', { groups: [withTokens([])] }),
  ok('token ids at their limits', { groups: [withTokens([0, MAX_TOKEN_ID])] }),
  ok('the longest completion', { groups: [withTokens(new Array(MAX_COMPLETION_TOKENS).fill(7))] }),
  // whether a family exists is the round's rule (REFUSAL.source), not the shape's
  ok('an unknown family', { groups: [withTask({ family: 'no-such-family' })] }),
  ok('an unknown field in a group (dropped)', { groups: [{ ...group(), note: 1 }] }),
  no('not an object', 'x'),
  no('no groups', { groups: [] }),
  no('17 groups', { groups: Array.from({ length: MAX_GROUPS_PER_MESSAGE + 1 }, () => group()) }),
  no('a hole in groups', { groups: sparse([group(), other(group())], 1) }),
  no('a hole in completions', { groups: [group({ completions: sparse(group().completions, 1) })] }),
  no('a hole in token ids', { groups: [withTokens(sparse([1, 2, 3], 1))] }),
  no('a hole in rewards', { groups: [group({ rewards: sparse([1, 0], 0) })] }),
  no('huge token ids', { groups: [withTokens(new Array(MAX_COMPLETION_TOKENS + 1).fill(7))] }),
  no('a token id past the vocabulary', { groups: [withTokens([MAX_TOKEN_ID + 1])] }),
  no('a fractional token id', { groups: [withTokens([0.5])] }),
  no('a token id of 1e999', { groups: [withTokens([Infinity])] }),
  no('a reward of 1e999', { groups: [group({ rewards: [Infinity, 0] })] }, 'each finite'),
  no('a NaN reward', { groups: [group({ rewards: [NaN, 0] })] }, 'each finite'),
  no('an unknown kind', { groups: [withTask({ kind: 'poetry' })] }),
  no('an unknown difficulty', { groups: [withTask({ difficulty: 9 })] }),
  no('a seed past u32', { groups: [withTask({ seed: 2 ** 32 })] }),
  no('an empty family', { groups: [withTask({ family: '' })] }),
  no('a bad task id', { groups: [group({ taskId: 'zz' })] }),
  no('a negative policy version', { groups: [group({ policyVersion: -1 })] }),
  no('no completions', { groups: [group({ completions: [] })] }),
  no(
    '3 completions in a G = 2 swarm',
    {
      groups: [group({ completions: [...group().completions, group().completions[0]!], rewards: [0, 0, 0] })],
    },
    "exactly the swarm's G",
  ),
  no('a task twice', { groups: [group(), group()] }, 'no two groups share a taskId'),
]

// ---- presence
const presence = {
  name: 'Quick Brown Fox',
  appVersion: '0.1.0',
  capabilities: {
    webgpu: {
      vendor: 'nvidia',
      architecture: 'ampere',
      device: '',
      description: 'RTX',
      isFallbackAdapter: false,
    },
    cores: 8,
    memoryGb: 8,
  },
  leaving: false,
}
const withCapabilities = (over: Record<string, unknown>) => ({
  ...presence,
  capabilities: { ...presence.capabilities, ...over },
})
const PRESENCE: Entry[] = [
  ok('a presence', presence),
  ok('no WebGPU, no memory figure', withCapabilities({ webgpu: null, memoryGb: null })),
  ok(`${MAX_CORES} cores`, withCapabilities({ cores: MAX_CORES })),
  no('null', null),
  no('an unknown field', { ...presence, extra: true }),
  no('a __proto__ field', JSON.parse(JSON.stringify(presence).replace('{', '{"__proto__":{},'))),
  no('an empty name', { ...presence, name: '' }),
  no('a long name', { ...presence, name: 'n'.repeat(MAX_NAME_LENGTH + 1) }),
  no('0 cores', withCapabilities({ cores: 0 })),
  no('fractional cores', withCapabilities({ cores: 2.5 })),
  no('1e999 cores', withCapabilities({ cores: Infinity })),
  no('0 GiB', withCapabilities({ memoryGb: 0 })),
  no('an unknown webgpu field', withCapabilities({ webgpu: { ...presence.capabilities.webgpu, driver: 1 } })),
  no('string leaving', { ...presence, leaving: 'yes' }),
]

// ---- envelope (as wire text: 1e999 only exists there)
const envelope = {
  v: 1,
  swarmId: 'ab'.repeat(32),
  round: 3,
  from: '12D3KooW' + '1'.repeat(44),
  ts: 1_800_000_000_000,
  kind: 'presence',
  body: { a: 1, b: ['x'] },
}
const text = (value: unknown) => JSON.stringify(value)
const nest = (depth: number): unknown => (depth === 0 ? 0 : [nest(depth - 1)])
const ENVELOPE: Entry[] = [
  ok('an envelope', text(envelope)),
  ok('round −1 and a null body', text({ ...envelope, round: -1, body: null })),
  ok(`a body ${MAX_BODY_DEPTH} deep`, text({ ...envelope, body: nest(MAX_BODY_DEPTH) })),
  no('a newer version', text({ ...envelope, v: 2 })),
  no('no version', text({ ...envelope, v: undefined })),
  no('an unknown field', text({ ...envelope, extra: 1 })),
  no('no body', text({ ...envelope, body: undefined })),
  no('an empty swarm id', text({ ...envelope, swarmId: '' })),
  no('a long sender', text({ ...envelope, from: 'x'.repeat(MAX_ID_LENGTH + 1) })),
  no('a fractional round', text({ ...envelope, round: 1.5 })),
  no('a round below −1', text({ ...envelope, round: -2 })),
  no('a timestamp of 1e300', text(envelope).replace('1800000000000', '1e300')),
  no('an unknown kind', text({ ...envelope, kind: 'chat' })),
  no('a body number of 1e999', text(envelope).replace('"a":1', '"a":1e999'), 'every number finite'),
  no(
    `a body ${MAX_BODY_DEPTH + 1} deep`,
    text({ ...envelope, body: nest(MAX_BODY_DEPTH + 1) }),
    'levels deep',
  ),
]

// ---- swarm.json
const config = {
  version: 1,
  name: 'demo',
  genesisTime: 0,
  roundLengthMs: 10_000,
  relays: ['/ip4/127.0.0.1/tcp/9090/ws'],
  iceServers: [],
}
const learning = {
  sources: [{ kind: 'reasoning', family: 'arithmetic' }],
  difficulty: 1,
  groupSize: 2,
  tasksPerRound: 2,
  sapo: { localGroups: 2, externalGroups: 2 },
  sampling: { temperature: 1, topK: 0, topP: 1, maxNewTokens: 48 },
  grpo: { lr: 1e-4, clipEps: 0.2, clipEpsHigh: 0.28, maxGradNorm: 1, weightDecay: 0 },
}
const SWARM_CONFIG: Entry[] = [
  ok('a config', config),
  ok('ICE servers with credentials', {
    ...config,
    iceServers: [{ urls: ['turn:x'], username: 'u', credential: 'c' }],
  }),
  ok('a learning section', { ...config, learning }),
  no('version 2', { ...config, version: 2 }),
  no('an empty name', { ...config, name: '' }),
  no('rounds of 999 ms', { ...config, roundLengthMs: 999 }),
  no('a relay that is not a multiaddr', { ...config, relays: ['ws://x'] }),
  no('an ICE server without urls', { ...config, iceServers: [{}] }),
  no('learning as a list', { ...config, learning: [] }),
  no(
    'an unknown task family',
    { ...config, learning: { ...learning, sources: [{ kind: 'reasoning', family: 'no-such' }] } },
    'Checked at runtime only',
  ),
  no('G = 1', { ...config, learning: { ...learning, groupSize: 1 } }, 'Checked at runtime only'),
  no(
    'an unknown difficulty',
    { ...config, learning: { ...learning, difficulty: 9 } },
    'Checked at runtime only',
  ),
]

// ---- receipts
const key = await generateKeyPair('Ed25519')
const sender = peerIdFromPrivateKey(key).toString()
const generation = await demoGeneration(key, kernelsHashFromDisk())
const step = await demoTrainingStep(key, kernelsHashFromDisk())
const { receipt } = generation
const inputs = {
  format: generation.inputs.format,
  kind: 'generation',
  checkpoint: 'AAAA',
  chain: generation.inputs.chain,
  inputs: {},
}
// the shape of a grpo-step receipt (the hashes are verification's): a training step's fields, relabelled
const grpoShaped = { ...step.receipt, kind: 'grpo-step' }
const trained = { from: sender, hash: 'c'.repeat(64) }
const RECEIPT: Entry[] = [
  ok('a generation receipt', receipt),
  ok('a training-step receipt', step.receipt),
  ok('info', { ...receipt, info: { device: 'x' } }),
  no('not an object', [receipt]),
  no('an unknown field', { ...receipt, extra: 1 }),
  no('a generation without tokenCount', { ...receipt, tokenCount: undefined }),
  no('a training step with tokenCount', { ...step.receipt, tokenCount: 3 }),
  no('an unknown kind', { ...receipt, kind: 'dreaming' }),
  no('an upper-case hash', { ...receipt, inputHash: receipt.inputHash.toUpperCase() }),
  no('a seed of three words', { ...receipt, seed: [1, 2, 3] }),
  no('a seed word past u32', { ...receipt, seed: [2 ** 32, 0] }),
  no('odd hex in the signature', { ...receipt, signature: 'abc' }),
  ok('a grpo step with its trained groups', { ...grpoShaped, trainedGroups: [trained] }),
  no('a trained group without a sender', { ...grpoShaped, trainedGroups: [{ ...trained, from: '' }] }),
  no('a trained group with a short hash', { ...grpoShaped, trainedGroups: [{ ...trained, hash: 'ab' }] }),
  no('trained groups on a training step', { ...step.receipt, trainedGroups: [trained] }),
]
const RECEIPTS_BODY: Entry[] = [
  ok('a receipt', { receipt }),
  ok('a receipt and its side file', { receipt, inputs }),
  no('an unknown field', { receipt, extra: 1 }),
  no('a bad receipt', { receipt: { ...receipt, version: 2 } }),
  no('a bad side file', { receipt, inputs: { ...inputs, format: 'x' } }),
  no(
    "another peer's receipt",
    { receipt: { ...receipt, peerId: '12D3KooWsomeoneElse' } },
    'peerId is the message',
  ),
]
const INPUTS: Entry[] = [
  ok('a side file', inputs),
  ok('a trace', { ...inputs, trace: [{ op: 'matmul', hash: 'a'.repeat(64) }] }),
  no('another format', { ...inputs, format: 'x' }),
  no('a chain without a tip', { ...inputs, chain: { length: 0 } }),
  no('a trace entry without a hash', { ...inputs, trace: [{ op: 'matmul' }] }),
  no('outputs as a list', { ...inputs, outputs: [] }),
  ok('group tasks', { ...inputs, groupTasks: ['d'.repeat(64)] }),
  no('a group task that is not a task id', { ...inputs, groupTasks: ['task 1'] }),
]

const accepts = (check: () => unknown) => {
  try {
    check()
    return true
  } catch {
    return false
  }
}
const BOUNDARIES: Boundary[] = [
  {
    file: 'rollouts-body.json',
    runtime: (v) => typeof validateRolloutsBody(v, 2) !== 'string',
    corpus: ROLLOUTS,
  },
  {
    file: 'presence-body.json',
    runtime: (v) => typeof validatePresenceBody(v) !== 'string',
    corpus: PRESENCE,
  },
  {
    file: 'envelope.json',
    runtime: (v) => decodeEnvelope(new TextEncoder().encode(v as string)).ok,
    parsed: (v) => JSON.parse(v as string),
    corpus: ENVELOPE,
  },
  { file: 'swarm-config.json', runtime: (v) => accepts(() => parseSwarmConfig(v)), corpus: SWARM_CONFIG },
  { file: 'receipt.json', runtime: (v) => schemaFailure(v) === undefined, corpus: RECEIPT },
  {
    file: 'receipts-body.json',
    runtime: (v) => typeof validateReceiptsBody(v, sender) !== 'string',
    corpus: RECEIPTS_BODY,
  },
  { file: 'receipt-inputs.json', runtime: (v) => accepts(() => parseInputsFile(v)), corpus: INPUTS },
]

/** Every description in a JSON Schema, joined. */
const descriptions = (schema: unknown): string =>
  typeof schema !== 'object' || schema === null
    ? ''
    : Object.entries(schema)
        .map(([k, v]) => (k === 'description' && typeof v === 'string' ? v : descriptions(v)))
        .join('\n')

describe.each(BOUNDARIES)('$file and its runtime check', ({ file, runtime, parsed = (v) => v, corpus }) => {
  const schema = publishedSchema(file)
  const validate = new Ajv({ allErrors: false }).compile(schema)
  it.each(corpus)('$name', ({ value, accepted, runtimeOnly }) => {
    expect(runtime(value)).toBe(accepted)
    expect(validate(parsed(value))).toBe(runtimeOnly === undefined ? accepted : true)
    if (runtimeOnly !== undefined) expect(descriptions(schema)).toContain(runtimeOnly)
  })
})
