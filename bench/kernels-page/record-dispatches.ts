/// <reference types="@webgpu/types" />
// Turns the reproducible kernels' hosts (src/compute/kernels/gpu/*-kernel.ts: each call uploads, dispatches,
// reads back and frees) into device-resident work the bench can replay: a host built on the recorder's
// device runs once as usual, and every dispatch it made — its pipeline, its bind group over the buffers
// the host filled, its grid — is kept, with those buffers, for replay. Replaying repeats exactly the
// host's GPU work, with its own parameters, minus the uploads, read-backs and host-side steps between
// dispatches.
import type { GpuDispatch, ResidentOp } from '../../src/compute/kernels/fast/resident.ts'
import { disableBufferPool } from '../../src/compute/kernels/gpu/buffer-pool.ts'

export interface DispatchRecorder {
  /** Build hosts on this device: everything they create and dispatch is recorded. */
  readonly device: GPUDevice
  /** The dispatches recorded since the last take, owning every buffer created meanwhile. */
  take(): ResidentOp
}

/** A view of `target` whose listed methods are replaced; every other method is bound to the real object. */
function intercept<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(real, key) {
      if (key in overrides) return overrides[key as keyof T]
      const value: unknown = Reflect.get(real, key, real)
      return typeof value === 'function' ? value.bind(real) : value
    },
  })
}

export function recordDispatches(device: GPUDevice): DispatchRecorder {
  let dispatches: GpuDispatch[] = []
  let buffers: GPUBuffer[] = []

  const recordingPass = (pass: GPUComputePassEncoder): GPUComputePassEncoder => {
    let pipeline: GPUComputePipeline | undefined
    let bindGroup: GPUBindGroup | undefined
    return intercept(pass, {
      setPipeline(p) {
        pipeline = p
        pass.setPipeline(p)
      },
      setBindGroup(index: number, group: GPUBindGroup | null, ...offsets: unknown[]) {
        if (index !== 0 || !group || offsets.length > 0)
          throw new Error('the dispatch recorder replays bind group 0 without dynamic offsets only')
        bindGroup = group
        pass.setBindGroup(0, group)
      },
      dispatchWorkgroups(x, y = 1, z = 1) {
        if (!pipeline || !bindGroup || z !== 1)
          throw new Error('the dispatch recorder needs a pipeline, bind group 0 and a 2-D grid per dispatch')
        dispatches.push({ pipeline, bindGroup, groups: [x, y] })
        pass.dispatchWorkgroups(x, y, z)
      },
    })
  }

  const recording = intercept(device, {
    createBuffer(descriptor) {
      const buffer = device.createBuffer(descriptor)
      buffers.push(buffer)
      // the host frees its buffers after the read-back; the replay still needs them (take() frees them)
      Object.defineProperty(buffer, 'destroy', { value: () => undefined })
      return buffer
    },
    createCommandEncoder(descriptor) {
      const encoder = device.createCommandEncoder(descriptor)
      return intercept(encoder, {
        beginComputePass: (passDescriptor) => recordingPass(encoder.beginComputePass(passDescriptor)),
      })
    },
  })

  // the recorder owns every buffer a dispatch used (take() frees them): no pool may hand them out again
  disableBufferPool(recording)
  return {
    device: recording,
    take() {
      const op = { dispatches, owned: buffers }
      dispatches = []
      buffers = []
      return {
        dispatches: op.dispatches,
        release: () => op.owned.forEach((b) => GPUBuffer.prototype.destroy.call(b)),
      }
    },
  }
}
