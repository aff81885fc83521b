// The app version peers announce in presence. Vite's JSON plugin tree-shakes the named import, so only
// the version string lands in the bundle.
import { version } from '../../package.json'

export const APP_VERSION: string = version
