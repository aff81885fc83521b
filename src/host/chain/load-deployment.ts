// Fetches the local chain's deployment the app server publishes at /deployment.json. A 404 means the
// stack runs no chain (npm start --no-chain, or a plain static host): not an error, just no local chain.
import { DeploymentFormatError, parseDeployment, type ChainDeployment } from './deployment.ts'

export const DEPLOYMENT_URL = '/deployment.json'

export type DeploymentResult =
  { deployment: ChainDeployment; note: null } | { deployment: null; note: string }

export async function loadDeployment(
  url = DEPLOYMENT_URL,
  fetcher: typeof fetch = fetch,
): Promise<DeploymentResult> {
  let res: Response
  try {
    res = await fetcher(url, { cache: 'no-store' })
  } catch (err) {
    return { deployment: null, note: `Could not fetch ${url} (${(err as Error).message}); no local chain.` }
  }
  if (res.status === 404)
    return { deployment: null, note: 'This app server runs no local chain; pick Gensyn testnet or mainnet.' }
  if (!res.ok) return { deployment: null, note: `${url} answered HTTP ${res.status}; no local chain.` }
  try {
    return { deployment: parseDeployment(await res.json()), note: null }
  } catch (err) {
    const why = err instanceof DeploymentFormatError ? err.message : 'it is not JSON'
    return { deployment: null, note: `${url} cannot be used: ${why}.` }
  }
}
