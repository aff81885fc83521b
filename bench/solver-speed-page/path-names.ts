// The reproducible paths' names, shared by the page and bench/solver-speed.ts (which cannot import the
// page module itself: it needs Vite's import.meta.glob and a browser).

export const TWIN_PATH = 'TS integer forward (reproducible, KV cache)'
/** Its tokens must be TWIN_PATH's: same program, same bits. */
export const WGSL_PATH = 'WGSL forward (reproducible, KV cache)'
