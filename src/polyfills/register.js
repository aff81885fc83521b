// `node --import` entry: makes Node run this project's TypeScript (tsx) with the Node 20 polyfills loaded
// before any libp2p module.
import { register } from 'tsx/esm/api'
register()
await import('./promise-with-resolvers.ts')
