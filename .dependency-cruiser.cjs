// The import rule of ARCHITECTURE.md, checked by `npm run lint`: imports flow one way,
// ui → host → peer → compute → core, a layer may reach any layer below it, and nothing imports upward.
// src/node (the CLI and the relay) sits beside ui on top; workers/ are thin entries over src/peer.
// Tests are left out of the rule on purpose (an integration test may drive several layers at once);
// product code never imports test-support/.
/** @type {import('dependency-cruiser').IConfiguration} */
const TEST = '\\.(test|spec)\\.tsx?$'

/** A layer and the layers above it, which it must not import. */
const LAYERS = [
  ['core', 'compute|peer|host|ui|node'],
  ['compute', 'peer|host|ui|node'],
  ['peer', 'host|ui|node'],
  ['host', 'ui|node'],
  ['ui', 'node'],
  ['node', 'ui'],
]

module.exports = {
  forbidden: [
    ...LAYERS.map(([layer, above]) => ({
      name: `${layer}-imports-upward`,
      comment: `src/${layer} imports only the layers below it (ARCHITECTURE.md)`,
      severity: 'error',
      from: { path: `^src/${layer}/`, pathNot: TEST },
      to: { path: `^src/(${above})/` },
    })),
    {
      name: 'worker-entry-imports-upward',
      comment:
        'a worker entry wires a port to its module in src/peer: it reaches peer, compute and core only',
      severity: 'error',
      from: { path: '^workers/', pathNot: TEST },
      to: { path: '^src/(host|ui|node)/' },
    },
    {
      name: 'runtime-imports-react',
      comment:
        'core, compute, peer and host run without React (the stores are vanilla zustand); React and zustand’s React binding are for src/ui',
      severity: 'error',
      from: { path: '^src/(core|compute|peer|host)/', pathNot: TEST },
      to: { path: '(^|/)node_modules/(react|react-dom)/|(^|/)node_modules/zustand/(index|react)\\.js$' },
    },
    {
      name: 'product-imports-test-support',
      comment: 'fixtures and test decoders serve tests and benches, never the product',
      severity: 'error',
      from: { path: '^(src|workers)/', pathNot: TEST },
      to: { path: '^test-support/' },
    },
  ],
  options: {
    // the project's code, and the packages the runtime rule below names
    includeOnly: '^(src|workers|test-support)/|(^|/)node_modules/(react|react-dom|zustand)/',
    exclude: { path: '^test-support/layering/' },
    doNotFollow: { path: 'node_modules' },
    // type-only imports count: a type that lives in the wrong layer is a wrong import too
    tsPreCompilationDeps: true,
  },
}
