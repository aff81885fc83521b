// Presence: every peer announces itself on /tabswarm/<swarmId>/presence/1.
// (types fixed here; validation is added alongside)
import * as z from 'zod'
import { checked, intIn, stringOf } from './schema.ts'

export interface WebGpuInfo {
  vendor: string
  architecture: string
  device: string
  description: string
  isFallbackAdapter: boolean
}

export interface Capabilities {
  webgpu: WebGpuInfo | null
  /** navigator.hardwareConcurrency */
  cores: number
  /** navigator.deviceMemory (GiB) where the browser exposes it */
  memoryGb: number | null
}

export interface PresenceBody {
  /** the animal name of the sender's peer id */
  name: string
  appVersion: string
  capabilities: Capabilities
  /** true on the message sent at pagehide: hang up now */
  leaving: boolean
}

/** Longest peer name accepted; animal names are two or three short words. */
/** A peer as this peer has heard it through presence. */
export interface PresencePeer {
  peerId: string
  name: string
  appVersion: string
  capabilities: Capabilities
  /** our clock (ms) when its first presence arrived */
  firstSeen: number
  /** our clock (ms) when its latest presence arrived */
  lastSeen: number
  presenceCount: number
}

/** What the peer worker's presence service reports to the tab. */
export interface PresenceState {
  round: number
  /** peers heard through presence, by peer id; never ourselves */
  peers: Record<string, PresencePeer>
  /** presence messages we published (the node accepted them) */
  presenceSent: number
}

export const MAX_NAME_LENGTH = 64
/** Longest app version accepted: a semver with a pre-release and build tag fits easily. */
export const MAX_APP_VERSION_LENGTH = 64
/** Longest WebGPU vendor, architecture or device string; browsers report short ids like "nvidia". */
export const MAX_GPU_FIELD_LENGTH = 64
/** Longest WebGPU description; ANGLE descriptions run to ~120 characters. */
export const MAX_GPU_DESCRIPTION_LENGTH = 256
/** Most cores accepted: beyond any browser host today, and it keeps the number meaningful for display. */
export const MAX_CORES = 1024
/** Most memory accepted (GiB). Browsers round deviceMemory to a power of two and cap it (Chromium at 8). */
export const MAX_MEMORY_GB = 1024

/**
 * An object with exactly `keys`: an unknown key is named as unexpected, a missing one by its field's
 * own sentence. `what` names the object in both.
 */
const exactObject = <S extends z.core.$ZodLooseShape>(what: string, shape: S, notAnObject: string) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `${what}: unexpected or missing field ${JSON.stringify(issue.keys[0])}`
        : notAnObject,
  })

const gpuField = `capabilities.webgpu vendor, architecture and device must be strings of at most ${MAX_GPU_FIELD_LENGTH} characters`
const WEBGPU = z.nullable(
  exactObject(
    'capabilities.webgpu',
    {
      vendor: stringOf(0, MAX_GPU_FIELD_LENGTH, gpuField),
      architecture: stringOf(0, MAX_GPU_FIELD_LENGTH, gpuField),
      device: stringOf(0, MAX_GPU_FIELD_LENGTH, gpuField),
      description: stringOf(
        0,
        MAX_GPU_DESCRIPTION_LENGTH,
        `capabilities.webgpu.description must be a string of at most ${MAX_GPU_DESCRIPTION_LENGTH} characters`,
      ),
      isFallbackAdapter: z.boolean({ error: 'capabilities.webgpu.isFallbackAdapter must be a boolean' }),
    },
    'capabilities.webgpu must be an object or null',
  ),
)

const memoryGb = `capabilities.memoryGb must be null or a number in (0, ${MAX_MEMORY_GB}]`
const CAPABILITIES = exactObject(
  'capabilities',
  {
    webgpu: WEBGPU,
    cores: intIn(1, MAX_CORES, `capabilities.cores must be an integer from 1 to ${MAX_CORES}`),
    memoryGb: z.nullable(
      z
        .number({ error: memoryGb })
        .check(z.positive({ error: memoryGb }), z.lte(MAX_MEMORY_GB, { error: memoryGb })),
    ),
  },
  'capabilities must be an object',
)

/** A presence body: exactly the known fields, bounded. */
export const PRESENCE_BODY_SCHEMA = exactObject(
  'presence',
  {
    name: stringOf(1, MAX_NAME_LENGTH, `name must be 1–${MAX_NAME_LENGTH} characters`),
    appVersion: stringOf(
      1,
      MAX_APP_VERSION_LENGTH,
      `appVersion must be 1–${MAX_APP_VERSION_LENGTH} characters`,
    ),
    capabilities: CAPABILITIES,
    leaving: z.boolean({ error: 'leaving must be a boolean' }),
  },
  'presence body must be an object',
)

/** Checks an untrusted presence body against the schema. Returns an error string if it fails. */
export const validatePresenceBody = (body: unknown): PresenceBody | string =>
  checked(PRESENCE_BODY_SCHEMA, body)

/**
 * Our own presence body. The capabilities come from the browser, so they are fitted to the schema
 * (strings cut, cores clamped, odd memory dropped) rather than trusted: a peer must never publish a
 * presence the others refuse. The name and app version are ours; a bad one is a bug and throws a RangeError.
 */
export function makePresenceBody(fields: {
  name: string
  appVersion: string
  capabilities: Capabilities
  leaving?: boolean
}): PresenceBody {
  const { name, appVersion, capabilities, leaving = false } = fields
  if (name.length === 0 || name.length > MAX_NAME_LENGTH)
    throw new RangeError(`bad peer name ${JSON.stringify(name)}`)
  if (appVersion.length === 0 || appVersion.length > MAX_APP_VERSION_LENGTH)
    throw new RangeError(`bad app version ${JSON.stringify(appVersion)}`)
  const gpu = capabilities.webgpu
  const cores = Number.isFinite(capabilities.cores) ? Math.round(capabilities.cores) : 1
  const memoryGb = capabilities.memoryGb
  return {
    name,
    appVersion,
    capabilities: {
      webgpu: gpu && {
        vendor: gpu.vendor.slice(0, MAX_GPU_FIELD_LENGTH),
        architecture: gpu.architecture.slice(0, MAX_GPU_FIELD_LENGTH),
        device: gpu.device.slice(0, MAX_GPU_FIELD_LENGTH),
        description: gpu.description.slice(0, MAX_GPU_DESCRIPTION_LENGTH),
        isFallbackAdapter: gpu.isFallbackAdapter,
      },
      cores: Math.min(MAX_CORES, Math.max(1, cores)),
      memoryGb: memoryGb !== null && memoryGb > 0 && memoryGb <= MAX_MEMORY_GB ? memoryGb : null,
    },
    leaving,
  }
}
