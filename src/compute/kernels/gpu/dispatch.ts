/// <reference types="@webgpu/types" />
import { bufferPoolOf } from './buffer-pool.ts'

/**
 * Shared plumbing of the reproducible kernels' hosts: shader sources, pipelines, buffers, one dispatch
 * and its read-back. Every kernel binds a uniform of 32-bit parameters at 0, its i32 inputs next and
 * its i32 outputs last, and prepends shaders/int64.wgsl (then shaders/wide.wgsl, and shaders/fixed.wgsl for
 * the nonlinear ops).
 */

/** The files under shaders/ (without .wgsl). */
export const SHADER_NAMES = [
  'int64',
  'wide',
  'fixed',
  'matmul',
  'elementwise',
  'embedding',
  'nonlinear',
  'softmax',
  'rmsnorm',
  'rope',
  'adam',
  'clip',
  'grpo',
  'sampling',
  'attention',
] as const
export type ShaderName = (typeof SHADER_NAMES)[number]
/** Shader sources by name: a page imports them with Vite's ?raw, Node reads them (node-shaders.ts). */
export type Shaders = Readonly<Record<ShaderName, string>>

/** A 1-D kernel's workgroup size (pipeline-overridable constant WG_X): it changes the schedule, never the bits. */
export type Workgroup1D = number

export function createPipeline(
  device: GPUDevice,
  code: string,
  constants: Record<string, number>,
): GPUComputePipeline {
  const module = device.createShaderModule({ code })
  return device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main', constants } })
}

/** The source a kernel compiles: shaders/int64.wgsl, then the named files in order. */
export function kernelSource(shaders: Shaders, ...names: ShaderName[]): string {
  return ['int64', ...names].map((n) => shaders[n as ShaderName]).join('\n')
}

/** Workgroup grid covering `count` invocations of a 1-D kernel (2-D once past the 65535 limit). */
export function grid1D(count: number, wgX: number): [number, number] {
  const groups = Math.max(1, Math.ceil(count / wgX))
  const x = Math.min(groups, 65535)
  return [x, Math.ceil(groups / x)]
}

export interface DispatchSpec {
  /** The uniform's 32-bit words (u32 fields as non-negative numbers, i32 fields as they are). */
  readonly params: readonly number[]
  readonly inputs: readonly Int32Array[]
  /** Element counts of the i32 outputs. */
  readonly outputs: readonly number[]
  readonly groups: readonly [number, number]
}

/** One dispatch: uploads, runs, reads every output back and returns its buffers to the device's pool. */
export async function dispatch(
  device: GPUDevice,
  pipeline: GPUComputePipeline,
  spec: DispatchSpec,
): Promise<Int32Array[]> {
  const pool = bufferPoolOf(device)
  const words = Math.max(4, Math.ceil(spec.params.length / 4) * 4) // 16-byte uniform granule
  const params = new Int32Array(words)
  spec.params.forEach((w, i) => (params[i] = w | 0))
  const uniform = pool.acquire(words * 4, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST)
  device.queue.writeBuffer(uniform, 0, params)
  // zero-length bindings are not allowed: an empty tensor gets one unused word
  const inputBytes = spec.inputs.map((data) => Math.max(4, data.byteLength))
  const outputBytes = spec.outputs.map((n) => Math.max(4, n * 4))
  const inputs = spec.inputs.map((data, i) => {
    const buffer = pool.acquire(inputBytes[i]!, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST)
    device.queue.writeBuffer(buffer, 0, new Int32Array(data)) // a copy backed by a plain ArrayBuffer
    return buffer
  })
  const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST
  const outputs = outputBytes.map((bytes) => pool.acquire(bytes, storage))
  const reads = outputBytes.map((bytes) =>
    pool.acquire(bytes, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST),
  )
  const bound = [
    { buffer: uniform, size: words * 4 },
    ...inputs.map((buffer, i) => ({ buffer, size: inputBytes[i]! })),
    ...outputs.map((buffer, i) => ({ buffer, size: outputBytes[i]! })),
  ]
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: bound.map((resource, binding) => ({ binding, resource })),
  })
  const encoder = device.createCommandEncoder()
  // a pooled output holds an earlier op's bits: kernels may rely on fresh (zeroed) storage
  outputs.forEach((out, i) => encoder.clearBuffer(out, 0, outputBytes[i]!))
  const pass = encoder.beginComputePass()
  pass.setPipeline(pipeline)
  pass.setBindGroup(0, bindGroup)
  pass.dispatchWorkgroups(spec.groups[0], spec.groups[1])
  pass.end()
  outputs.forEach((out, i) => encoder.copyBufferToBuffer(out, 0, reads[i]!, 0, outputBytes[i]!))
  device.queue.submit([encoder.finish()])
  // one wait for all outputs: each map is a round trip to the GPU process
  await Promise.all(reads.map((read, i) => read.mapAsync(GPUMapMode.READ, 0, outputBytes[i]!)))
  const results = reads.map((read, i) => {
    const out = new Int32Array(read.getMappedRange(0, outputBytes[i]!).slice(0, spec.outputs[i]! * 4))
    read.unmap()
    return out
  })
  for (const buffer of [uniform, ...inputs, ...outputs, ...reads]) pool.release(buffer)
  return results
}
