// A test page (built by e2e/kernels.spec.ts, not part of the app): runs the reproducible WGSL kernels
// on this browser's WebGPU adapter and the TS twin on the same inputs, and hands both results to the test.
import type { Shaders } from '../../src/compute/kernels/gpu/dispatch.ts'
import { runKernelParity, type ParityRun } from '../../src/compute/kernels/gpu/kernel-parity.ts'
import adam from '../../shaders/adam.wgsl?raw'
import attention from '../../shaders/attention.wgsl?raw'
import clip from '../../shaders/clip.wgsl?raw'
import elementwise from '../../shaders/elementwise.wgsl?raw'
import embedding from '../../shaders/embedding.wgsl?raw'
import fixed from '../../shaders/fixed.wgsl?raw'
import grpo from '../../shaders/grpo.wgsl?raw'
import int64 from '../../shaders/int64.wgsl?raw'
import matmulWgsl from '../../shaders/matmul.wgsl?raw'
import nonlinear from '../../shaders/nonlinear.wgsl?raw'
import probe from './primitives.wgsl?raw'
import rmsnorm from '../../shaders/rmsnorm.wgsl?raw'
import rope from '../../shaders/rope.wgsl?raw'
import sampling from '../../shaders/sampling.wgsl?raw'
import softmax from '../../shaders/softmax.wgsl?raw'
import wide from '../../shaders/wide.wgsl?raw'

const shaders: Shaders = {
  int64,
  wide,
  fixed,
  matmul: matmulWgsl,
  elementwise,
  embedding,
  nonlinear,
  softmax,
  rmsnorm,
  rope,
  adam,
  clip,
  grpo,
  sampling,
  attention,
}

declare global {
  var runKernelParity: (() => Promise<ParityRun>) | undefined
}
globalThis.runKernelParity = () => runKernelParity(navigator.gpu, shaders, probe)
