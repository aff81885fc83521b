/// <reference types="@webgpu/types" />
import { planMatmul, type MatmulOperand, type MatmulOptions } from '../ref/matmul.ts'
import { qtensor, type QTensor } from '../ref/tensor.ts'

export interface WorkgroupSize {
  readonly x: number
  readonly y: number
}

export interface MatmulKernel {
  /** Same contract and same bits as the TS twin's `matmul`. */
  run(a: MatmulOperand, b: MatmulOperand, options?: MatmulOptions): Promise<QTensor>
}

/** Params struct of shaders/matmul.wgsl: ten 32-bit fields, padded to the 16-byte uniform granule. */
const PARAMS_BYTES = 48

/**
 * Host for shaders/matmul.wgsl (passed in as source so a page can import it with Vite's ?raw and
 * Node can read it from disk). The workgroup size is a pipeline-overridable constant: it changes
 * the schedule, never the bits.
 */
export function createMatmulKernel(device: GPUDevice, wgsl: string, workgroup: WorkgroupSize): MatmulKernel {
  const module = device.createShaderModule({ code: wgsl })
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module, entryPoint: 'main', constants: { WG_X: workgroup.x, WG_Y: workgroup.y } },
  })
  const storage = (data: Int32Array): GPUBuffer => {
    // zero-length bindings are not allowed; an empty operand gets one unused word
    const buffer = device.createBuffer({
      size: Math.max(4, data.byteLength),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    })
    device.queue.writeBuffer(buffer, 0, new Int32Array(data)) // a copy backed by a plain ArrayBuffer
    return buffer
  }
  return {
    async run(a, b, options = {}) {
      const plan = planMatmul(a, b, options)
      const params = new ArrayBuffer(PARAMS_BYTES)
      const words = [
        plan.m,
        plan.n,
        plan.k,
        plan.aRow,
        plan.aK,
        plan.bK,
        plan.bCol,
        Number(plan.aWide),
        Number(plan.bWide),
      ]
      new Uint32Array(params).set(words)
      new Int32Array(params).set([plan.outExp], words.length)
      const uniform = device.createBuffer({
        size: PARAMS_BYTES,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      })
      device.queue.writeBuffer(uniform, 0, params)
      const outBytes = Math.max(4, plan.m * plan.n * 4)
      const out = device.createBuffer({
        size: outBytes,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
      })
      const read = device.createBuffer({
        size: outBytes,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      })
      const inputs = [a.data, b.data, plan.aExps, plan.bExps].map(storage)
      const bindGroup = device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [uniform, ...inputs, out].map((buffer, binding) => ({ binding, resource: { buffer } })),
      })
      const encoder = device.createCommandEncoder()
      const pass = encoder.beginComputePass()
      pass.setPipeline(pipeline)
      pass.setBindGroup(0, bindGroup)
      pass.dispatchWorkgroups(Math.ceil(plan.m / workgroup.x), Math.ceil(plan.n / workgroup.y))
      pass.end()
      encoder.copyBufferToBuffer(out, 0, read, 0, outBytes)
      device.queue.submit([encoder.finish()])
      await read.mapAsync(GPUMapMode.READ)
      const data = new Int32Array(read.getMappedRange().slice(0, plan.m * plan.n * 4))
      read.unmap()
      for (const buffer of [uniform, out, read, ...inputs]) buffer.destroy()
      return qtensor([plan.m, plan.n], plan.outExp, data)
    },
  }
}
