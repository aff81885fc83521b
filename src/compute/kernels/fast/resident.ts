/// <reference types="@webgpu/types" />

/**
 * Device-resident GPU work: tensors uploaded once, dispatches bound once and replayed any number of
 * times in one command buffer, results read back only when asked. The fast f32 kernels' hosts return
 * their work this way; the kernels bench times the reproducible hosts' recorded dispatches the same way.
 */

/** One compute dispatch over buffers already on the device (bind group 0 only, as every kernel here). */
export interface GpuDispatch {
  readonly pipeline: GPUComputePipeline
  readonly bindGroup: GPUBindGroup
  readonly groups: readonly [number, number]
}

/** Dispatches ready to run, in order; release() frees the buffers they own (not the caller's tensors). */
export interface ResidentOp {
  readonly dispatches: readonly GpuDispatch[]
  release(): void
}

/** A storage buffer holding `data`, readable back and writable (the caller destroys it). */
function uploadF32(device: GPUDevice, data: Float32Array): GPUBuffer {
  const buffer = emptyF32(device, data.length)
  device.queue.writeBuffer(buffer, 0, new Float32Array(data)) // a copy backed by a plain ArrayBuffer
  return buffer
}

/** A zeroed storage buffer of `count` f32 (the caller destroys it). */
function emptyF32(device: GPUDevice, count: number): GPUBuffer {
  return device.createBuffer({
    // zero-length bindings are not allowed
    size: Math.max(4, count * 4),
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  })
}

/** The first `count` f32 of a storage buffer, once the queued work is done. */
export async function readF32(device: GPUDevice, buffer: GPUBuffer, count: number): Promise<Float32Array> {
  const read = device.createBuffer({
    size: Math.max(4, count * 4),
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  })
  const encoder = device.createCommandEncoder()
  encoder.copyBufferToBuffer(buffer, 0, read, 0, read.size)
  device.queue.submit([encoder.finish()])
  await read.mapAsync(GPUMapMode.READ)
  const out = new Float32Array(read.getMappedRange().slice(0, count * 4))
  read.unmap()
  read.destroy()
  return out
}

/**
 * Binds a uniform of u32 `params` at 0 and `buffers` at 1, 2, …: the binding layout of every fast
 * kernel. The op owns the uniform.
 */
export function bindOp(
  device: GPUDevice,
  pipeline: GPUComputePipeline,
  params: readonly number[],
  buffers: readonly GPUBuffer[],
  groups: readonly [number, number],
): ResidentOp {
  const words = new Uint32Array(Math.max(4, Math.ceil(params.length / 4) * 4)) // 16-byte granule
  words.set(params)
  const uniform = device.createBuffer({
    size: words.byteLength,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  })
  device.queue.writeBuffer(uniform, 0, words)
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [uniform, ...buffers].map((buffer, binding) => ({ binding, resource: { buffer } })),
  })
  return { dispatches: [{ pipeline, bindGroup, groups }], release: () => uniform.destroy() }
}

/**
 * Runs the dispatches `times` times over (in order, one compute pass, one command buffer, one submit)
 * and resolves when the device has finished them. WebGPU orders dispatches of one pass, so each
 * sees the previous one's writes.
 */
export async function runResident(
  device: GPUDevice,
  dispatches: readonly GpuDispatch[],
  times = 1,
): Promise<void> {
  const encoder = device.createCommandEncoder()
  const pass = encoder.beginComputePass()
  for (let r = 0; r < times; r++)
    for (const { pipeline, bindGroup, groups } of dispatches) {
      pass.setPipeline(pipeline)
      pass.setBindGroup(0, bindGroup)
      pass.dispatchWorkgroups(groups[0], groups[1])
    }
  pass.end()
  device.queue.submit([encoder.finish()])
  await device.queue.onSubmittedWorkDone()
}

/** A bound op that owns its input and output buffers too. */
export interface OwningOp extends ResidentOp {
  readonly output: GPUBuffer
}

/**
 * Uploads `inputs`, allocates a zeroed output of `outputs` f32 and binds a kernel over them (output
 * first); release() frees the op and all those buffers.
 */
export function bindOwning<T extends Float32Array[]>(
  device: GPUDevice,
  inputs: [...T],
  outputs: number,
  bind: (output: GPUBuffer, ...inputs: { [K in keyof T]: GPUBuffer }) => ResidentOp,
): OwningOp {
  const ins = inputs.map((x) => uploadF32(device, x)) as { [K in keyof T]: GPUBuffer }
  const output = emptyF32(device, outputs)
  const op = bind(output, ...ins)
  return {
    dispatches: op.dispatches,
    output,
    release() {
      op.release()
      for (const b of [...ins, output]) b.destroy()
    },
  }
}
