// Presence: every peer announces itself on /tabswarm/<swarmId>/presence/1.
// (types fixed here; validation is added alongside)

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

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The first key of `value` not in `keys`, or the first of `keys` missing from `value`. */
function keyMismatch(value: Record<string, unknown>, keys: readonly string[]): string | undefined {
  return Object.keys(value).find((k) => !keys.includes(k)) ?? keys.find((k) => !Object.hasOwn(value, k))
}

const boundedString = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max

function validateWebGpu(value: unknown): WebGpuInfo | null | string {
  if (value === null) return null
  if (!isObject(value)) return 'capabilities.webgpu must be an object or null'
  const bad = keyMismatch(value, ['vendor', 'architecture', 'device', 'description', 'isFallbackAdapter'])
  if (bad !== undefined) return `capabilities.webgpu: unexpected or missing field ${JSON.stringify(bad)}`
  const { vendor, architecture, device, description, isFallbackAdapter } = value
  if (
    !boundedString(vendor, MAX_GPU_FIELD_LENGTH) ||
    !boundedString(architecture, MAX_GPU_FIELD_LENGTH) ||
    !boundedString(device, MAX_GPU_FIELD_LENGTH)
  )
    return `capabilities.webgpu vendor, architecture and device must be strings of at most ${MAX_GPU_FIELD_LENGTH} characters`
  if (!boundedString(description, MAX_GPU_DESCRIPTION_LENGTH))
    return `capabilities.webgpu.description must be a string of at most ${MAX_GPU_DESCRIPTION_LENGTH} characters`
  if (typeof isFallbackAdapter !== 'boolean') return 'capabilities.webgpu.isFallbackAdapter must be a boolean'
  return { vendor, architecture, device, description, isFallbackAdapter }
}

function validateCapabilities(value: unknown): Capabilities | string {
  if (!isObject(value)) return 'capabilities must be an object'
  const bad = keyMismatch(value, ['webgpu', 'cores', 'memoryGb'])
  if (bad !== undefined) return `capabilities: unexpected or missing field ${JSON.stringify(bad)}`
  const webgpu = validateWebGpu(value.webgpu)
  if (typeof webgpu === 'string') return webgpu
  const { cores, memoryGb } = value
  if (typeof cores !== 'number' || !Number.isInteger(cores) || cores < 1 || cores > MAX_CORES)
    return `capabilities.cores must be an integer from 1 to ${MAX_CORES}`
  if (memoryGb !== null && (typeof memoryGb !== 'number' || !(memoryGb > 0 && memoryGb <= MAX_MEMORY_GB)))
    return `capabilities.memoryGb must be null or a number in (0, ${MAX_MEMORY_GB}]`
  return { webgpu, cores, memoryGb }
}

/** Checks an untrusted presence body against the schema: exactly the known fields, bounded. Returns an error string if it fails. */
export function validatePresenceBody(body: unknown): PresenceBody | string {
  if (!isObject(body)) return 'presence body must be an object'
  const bad = keyMismatch(body, ['name', 'appVersion', 'capabilities', 'leaving'])
  if (bad !== undefined) return `presence: unexpected or missing field ${JSON.stringify(bad)}`
  const { name, appVersion, leaving } = body
  if (!boundedString(name, MAX_NAME_LENGTH) || name.length === 0)
    return `name must be 1–${MAX_NAME_LENGTH} characters`
  if (!boundedString(appVersion, MAX_APP_VERSION_LENGTH) || appVersion.length === 0)
    return `appVersion must be 1–${MAX_APP_VERSION_LENGTH} characters`
  const capabilities = validateCapabilities(body.capabilities)
  if (typeof capabilities === 'string') return capabilities
  if (typeof leaving !== 'boolean') return 'leaving must be a boolean'
  return { name, appVersion, capabilities, leaving }
}

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
