/// <reference types="@webgpu/types" />

/** Free buffers kept per device for reuse; past this the oldest released ones are destroyed. */
export const POOL_MAX_FREE_BYTES = 64 * 2 ** 20
/** The smallest size class: WebGPU uniforms come in 16-byte granules. */
const MIN_CLASS_BYTES = 16

/**
 * Buffers reused across dispatches, by usage and power-of-two size class: creating and destroying
 * buffers costs a round trip to the GPU process each, several per op. A pooled buffer can be larger
 * than asked for, so callers bind and copy exact byte ranges.
 */
export interface BufferPool {
  acquire(bytes: number, usage: GPUBufferUsageFlags): GPUBuffer
  /** Hands a buffer back once no pending GPU work uses it (after its results were read). */
  release(buffer: GPUBuffer): void
}

const sizeClass = (bytes: number) => Math.max(MIN_CLASS_BYTES, 2 ** Math.ceil(Math.log2(Math.max(1, bytes))))

export function createBufferPool(device: GPUDevice, maxFreeBytes = POOL_MAX_FREE_BYTES): BufferPool {
  const free = new Map<string, GPUBuffer[]>()
  const order: GPUBuffer[] = [] // released buffers, oldest first, for eviction
  let freeBytes = 0
  const keyOf = (size: number, usage: GPUBufferUsageFlags) => `${usage}/${size}`
  return {
    acquire(bytes, usage) {
      const size = sizeClass(bytes)
      const reused = free.get(keyOf(size, usage))?.pop()
      if (reused) {
        order.splice(order.indexOf(reused), 1)
        freeBytes -= reused.size
        return reused
      }
      return device.createBuffer({ size, usage })
    },
    release(buffer) {
      const list = free.get(keyOf(buffer.size, buffer.usage)) ?? []
      list.push(buffer)
      free.set(keyOf(buffer.size, buffer.usage), list)
      order.push(buffer)
      freeBytes += buffer.size
      while (freeBytes > maxFreeBytes && order.length > 0) {
        const old = order.shift()!
        const bucket = free.get(keyOf(old.size, old.usage))!
        bucket.splice(bucket.indexOf(old), 1)
        freeBytes -= old.size
        old.destroy()
      }
    },
  }
}

const pools = new WeakMap<GPUDevice, BufferPool>()

/** The device's pool (made on first use; it goes with the device). */
export function bufferPoolOf(device: GPUDevice): BufferPool {
  let pool = pools.get(device)
  if (!pool) {
    pool = createBufferPool(device)
    pools.set(device, pool)
  }
  return pool
}

/**
 * Makes `device` create a buffer per use and destroy it on release, as before pooling: for tools
 * that take ownership of the buffers a dispatch used (bench/kernels-page/record-dispatches.ts).
 */
export function disableBufferPool(device: GPUDevice): void {
  pools.set(device, {
    acquire: (bytes, usage) => device.createBuffer({ size: Math.max(MIN_CLASS_BYTES, bytes), usage }),
    release: (buffer) => buffer.destroy(),
  })
}
