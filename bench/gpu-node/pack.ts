// Packs what bench/gpu-node/run.sh needs on a machine with a GPU but no Node, no npm registry and no
// browser (the GPU machine this project is lent): the Node binary (xz), the benches built for Node
// (bench.mjs, see main.ts), the few packages they and the model trainer load at run time, and the
// Vulkan loader and GL dispatch libraries as Debian packages, into .gpu-pack/ (git-ignored). Run it
// where `npm ci` ran (`npm run bench:gpu-pack`):
//   node --import ./src/polyfills/register.js bench/gpu-node/pack.ts
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

const root = fileURLToPath(new URL('../../', import.meta.url))
const pack = join(root, '.gpu-pack')
const modules = join(root, 'node_modules')
/** Packages loaded at run time: Dawn and onnxruntime-web by the benches; tsx (esbuild) and noble's SHA-256 by the trainer. */
const PACKAGES = ['tsx', 'esbuild', '@esbuild/linux-x64', '@noble/hashes']
/** onnxruntime-web's files that its wasm and WebGPU bundles load in Node (the glue .mjs and the .wasm). */
const ORT_FILES = [
  'package.json',
  ...['', '.asyncify'].flatMap((build) => [
    `dist/ort-wasm-simd-threaded${build}.mjs`,
    `dist/ort-wasm-simd-threaded${build}.wasm`,
  ]),
  'dist/ort.wasm.bundle.min.mjs',
  'dist/ort.webgpu.bundle.min.mjs',
]
const DAWN_FILES = ['package.json', 'index.js', 'dist/linux-x64/dawn.node']
/**
 * Dawn needs a Vulkan loader; the GPU's driver brings the ICD, whose NVIDIA library needs the GL
 * vendor-neutral dispatch libraries too (without them: no vkCreateInstance, no adapter).
 */
const DEBIAN_PACKAGES = ['libvulkan1', 'libglvnd0', 'libglx0', 'libegl1', 'libgl1', 'libopengl0', 'libgles2']

const megabytes = (path: string) => (statSync(path).size / 2 ** 20).toFixed(1)

rmSync(pack, { recursive: true, force: true })
mkdirSync(join(pack, 'gl'), { recursive: true })

await build({
  configFile: false,
  root,
  logLevel: 'warn',
  // the model folders travel with the repository; the bundle needs none of public/
  publicDir: false,
  build: {
    ssr: 'bench/gpu-node/main.ts',
    outDir: pack,
    emptyOutDir: false,
    target: 'node20',
    rollupOptions: { output: { entryFileNames: 'bench.mjs' } },
  },
  ssr: { noExternal: true, external: ['webgpu', 'onnxruntime-web'] },
})

for (const name of PACKAGES)
  cpSync(join(modules, name), join(pack, 'node_modules', name), { recursive: true })
for (const [name, files] of [
  ['onnxruntime-web', ORT_FILES],
  ['webgpu', DAWN_FILES],
] as const)
  for (const file of files) {
    const target = join(pack, 'node_modules', name, file)
    mkdirSync(join(target, '..'), { recursive: true })
    cpSync(join(modules, name, file), target)
  }

writeFileSync(
  join(pack, 'node.xz'),
  execFileSync('xz', ['-T0', '-6', '-c', process.execPath], { maxBuffer: 2 ** 30 }),
)
execFileSync('apt-get', ['download', ...DEBIAN_PACKAGES], { cwd: join(pack, 'gl'), stdio: 'inherit' })
execFileSync('tar', ['-cJf', 'modules.tar.xz', 'node_modules'], { cwd: pack })
rmSync(join(pack, 'node_modules'), { recursive: true })

for (const file of ['bench.mjs', 'node.xz', 'modules.tar.xz'])
  console.log(`${file}: ${megabytes(join(pack, file))} MB`)
console.log(`packed ${pack}`)
