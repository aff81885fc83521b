/** The files under shaders/fast/ (without .wgsl): the f32 yardstick kernels and their shared reductions. */
export const FAST_SHADER_NAMES = ['reduce', 'matmul', 'softmax', 'attention'] as const
export type FastShaderName = (typeof FAST_SHADER_NAMES)[number]
/** Sources by name: a page imports them with Vite's ?raw. */
export type FastShaders = Readonly<Record<FastShaderName, string>>
