import { BUNDLED_SHADER_FILES } from '../kernels/gpu/bundled-shaders.ts'
import { kernelsHashOf } from './kernels-hash.ts'

/** kernelsHash of the shaders this bundle was built with (pages and workers): fixed by the build. */
export const BUNDLED_KERNELS_HASH = kernelsHashOf(BUNDLED_SHADER_FILES)
