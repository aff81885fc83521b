/// <reference types="@webgpu/types" />

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

/** One dispatch: uploads, runs, reads every output back and frees its buffers. */
export async function dispatch(
  device: GPUDevice,
  pipeline: GPUComputePipeline,
  spec: DispatchSpec,
): Promise<Int32Array[]> {
  const words = Math.max(4, Math.ceil(spec.params.length / 4) * 4) // 16-byte uniform granule
  const params = new Int32Array(words)
  spec.params.forEach((w, i) => (params[i] = w | 0))
  const uniform = device.createBuffer({
    size: words * 4,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  })
  device.queue.writeBuffer(uniform, 0, params)
  const inputs = spec.inputs.map((data) => {
    // zero-length bindings are not allowed; an empty input gets one unused word
    const buffer = device.createBuffer({
      size: Math.max(4, data.byteLength),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    })
    device.queue.writeBuffer(buffer, 0, new Int32Array(data)) // a copy backed by a plain ArrayBuffer
    return buffer
  })
  const outputs = spec.outputs.map((n) =>
    device.createBuffer({
      size: Math.max(4, n * 4),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    }),
  )
  const reads = spec.outputs.map((n) =>
    device.createBuffer({
      size: Math.max(4, n * 4),
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    }),
  )
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [uniform, ...inputs, ...outputs].map((buffer, binding) => ({ binding, resource: { buffer } })),
  })
  const encoder = device.createCommandEncoder()
  const pass = encoder.beginComputePass()
  pass.setPipeline(pipeline)
  pass.setBindGroup(0, bindGroup)
  pass.dispatchWorkgroups(spec.groups[0], spec.groups[1])
  pass.end()
  outputs.forEach((out, i) => encoder.copyBufferToBuffer(out, 0, reads[i]!, 0, out.size))
  device.queue.submit([encoder.finish()])
  const results: Int32Array[] = []
  for (const [i, read] of reads.entries()) {
    await read.mapAsync(GPUMapMode.READ)
    results.push(new Int32Array(read.getMappedRange().slice(0, spec.outputs[i]! * 4)))
    read.unmap()
  }
  for (const buffer of [uniform, ...inputs, ...outputs, ...reads]) buffer.destroy()
  return results
}
