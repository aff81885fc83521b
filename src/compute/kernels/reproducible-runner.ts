/// <reference types="@webgpu/types" />
// Where reproducible programs run: this runtime's WebGPU device when it has one, else the TS twin —
// the same bits either way (e2e/kernels.spec.ts, e2e/training-proof.spec.ts), only the speed differs.
// Works in a page, a worker, and Node (navigator.gpu from Dawn, src/compute/kernels/gpu/node-gpu.ts).
import { runAsync, type Program, type ProgramRunner } from '../model/program.ts'
import { runOnTwin } from '../model/twin-ops.ts'
import type { Shaders } from './gpu/dispatch.ts'
import { createGpuOps } from './gpu/gpu-ops.ts'

/** The most storage buffers one reproducible kernel binds (adam: w, g, m, r in; w, m, r out; grpo: 8). */
export const REQUIRED_STORAGE_BUFFERS = 8

export interface AdapterSummary {
  readonly vendor: string
  readonly architecture: string
  readonly description: string
  /** A CPU implementation (SwiftShader, WARP): correct bits, CPU speed. */
  readonly isFallbackAdapter: boolean
}

export interface ReproducibleRunner {
  /** 'webgpu' while a device runs the programs; 'twin' without one (or after one could not be replaced). */
  readonly backend: 'webgpu' | 'twin'
  readonly adapter: AdapterSummary | null
  /** Why there is no device, in words (null while there is one). */
  readonly note: string | null
  readonly run: ProgramRunner
}

interface Acquired {
  readonly device: GPUDevice
  readonly adapter: AdapterSummary
}

async function acquire(gpu: GPU): Promise<Acquired | string> {
  const adapter = await gpu.requestAdapter().catch(() => null)
  if (!adapter) return 'this browser offers no WebGPU adapter'
  const storage = adapter.limits.maxStorageBuffersPerShaderStage
  if (storage < REQUIRED_STORAGE_BUFFERS)
    return `the WebGPU adapter binds ${storage} storage buffers per shader, the kernels need ${REQUIRED_STORAGE_BUFFERS}`
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean }
  try {
    const device = await adapter.requestDevice()
    return {
      device,
      adapter: {
        vendor: info.vendor,
        architecture: info.architecture,
        description: info.description,
        isFallbackAdapter: info.isFallbackAdapter ?? false,
      },
    }
  } catch (error) {
    return `the WebGPU adapter refused a device (${error instanceof Error ? error.message : String(error)})`
  }
}

/**
 * A runner on `gpu` (navigator.gpu) with the given shader sources, or on the twin when `gpu` is
 * absent or yields no usable device. A lost device (driver reset, tab backgrounded on some systems)
 * fails the program that was running with a sentence; the next program acquires a new device, and
 * if none comes runs on the twin.
 */
export async function createReproducibleRunner(
  gpu: GPU | undefined,
  shaders: Shaders,
): Promise<ReproducibleRunner> {
  let note: string | null = gpu ? null : 'no WebGPU in this runtime'
  let current: (Acquired & { ops: ReturnType<typeof createGpuOps> }) | null = null
  let lost: string | null = null

  const connect = async (): Promise<void> => {
    current = null
    if (!gpu) return
    const got = await acquire(gpu)
    if (typeof got === 'string') {
      note = got
      return
    }
    note = null
    lost = null
    current = { ...got, ops: createGpuOps(got.device, shaders) }
    const device = got.device
    void device.lost.then((info) => {
      if (current?.device === device) lost = `the GPU device was lost (${info.reason}: ${info.message})`
    })
  }
  await connect()

  const run = async <T>(program: Program<T>): Promise<T> => {
    if (lost) await connect()
    const active = current
    if (!active) return runOnTwin(program)
    try {
      return await runAsync(program, active.ops)
    } catch (error) {
      if (lost) throw new Error(`${lost}; the next run starts on a new device`, { cause: error })
      throw error
    }
  }
  return {
    get backend() {
      return current ? 'webgpu' : 'twin'
    },
    get adapter() {
      return current?.adapter ?? null
    },
    get note() {
      return note
    },
    run,
  }
}
