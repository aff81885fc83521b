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
