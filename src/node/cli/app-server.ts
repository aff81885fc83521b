// Serves the production build (dist/) and the swarm config the tabs join with. A plain Node http server:
// the build is static files plus one JSON document, so no framework is needed.
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, resolve, sep } from 'node:path'
import { LOCAL_CHAIN_ID } from '../../host/chain/chains.ts'
import { FAUCET_PATH } from '../../host/wallet/local-funding.ts'
import type { SwarmConfig } from '../../core/config/swarm-config.ts'
import { closeHttp, listenHttp, urlHost } from '../relay/listen-http.ts'
import { contentTypeOf } from './content-types.ts'
import { createFaucet, noFaucet } from './faucet.ts'
import { proxyJsonRpc } from './rpc-proxy.ts'

/** Where the page reaches the local chain: the app server forwards it there (rpc-proxy.ts). */
export const RPC_PROXY_PATH = '/rpc'

export interface AppServerOptions {
  /** folder of the production build; default 'dist' */
  root?: string
  /** default 127.0.0.1 */
  host?: string
  /** exactly this port (an error if in use); 0 picks a free one */
  port: number
  /** served as /swarm.json */
  swarmConfig: SwarmConfig
  /**
   * served as /deployment.json (chain id, contract addresses) when the stack runs a chain, with its
   * rpcUrl replaced by RPC_PROXY_PATH, which forwards to the real one; on the local chain (31337) the
   * server also runs FAUCET_PATH (faucet.ts)
   */
  deployment?: { rpcUrl: string; chainId: number }
}

export interface AppServer {
  /** e.g. http://127.0.0.1:5173/ */
  url: string
  close(): Promise<void>
}

/** Vite puts content-hashed files under /assets/: a new build gets new names, so they never go stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable'
/** Everything else (index.html, public/ files) keeps its name across builds: revalidate every time. */
const REVALIDATE = 'no-cache'
/** The config and deployment can change on every start (genesis time, relay addresses): never reuse a copy. */
const NO_STORE = 'no-store'

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const root = resolve(options.root ?? 'dist')
  const host = options.host ?? '127.0.0.1'
  const documents = new Map([['/swarm.json', JSON.stringify(options.swarmConfig, null, 2)]])
  const rpcTarget = options.deployment?.rpcUrl
  if (options.deployment) {
    const served = { ...options.deployment, rpcUrl: RPC_PROXY_PATH }
    documents.set('/deployment.json', JSON.stringify(served, null, 2))
  }
  const faucet =
    rpcTarget !== undefined && options.deployment?.chainId === LOCAL_CHAIN_ID
      ? createFaucet(rpcTarget)
      : noFaucet
  const server = createServer((req, res) => {
    const route = (): Promise<void> =>
      rpcTarget !== undefined && req.url === RPC_PROXY_PATH
        ? proxyJsonRpc(req, res, rpcTarget)
        : req.url === FAUCET_PATH
          ? faucet(req, res)
          : handle(req, res, root, documents)
    route().catch((err: Error) => {
      if (!res.headersSent) sendText(res, 500, `internal error: ${err.message}`)
      else res.destroy(err)
    })
  })
  const port = await listenHttp(server, 'app server', host, options.port)
  return { url: `http://${urlHost(host)}:${port}/`, close: () => closeHttp(server) }
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  documents: Map<string, string>,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD')
    return sendText(res, 405, 'method not allowed')
  }
  const pathname = decodedPathname(req.url ?? '/')
  if (pathname === undefined) return sendText(res, 400, 'bad request path')
  const document = documents.get(pathname)
  if (document !== undefined) {
    return sendBody(
      res,
      200,
      { 'content-type': contentTypeOf('swarm.json'), 'cache-control': NO_STORE },
      document,
    )
  }
  const file = resolve(root, '.' + pathname)
  if (file !== root && !file.startsWith(root + sep)) return sendText(res, 403, 'forbidden')

  if (await isFile(file))
    return sendFile(req, res, file, pathname.startsWith('/assets/') ? IMMUTABLE : REVALIDATE)
  // A missing file with an extension is a real miss (a broken asset link must not get index.html).
  if (extname(pathname) !== '') return sendText(res, 404, 'not found')
  // Any other path is a client-side route: the app's index.html handles it.
  const index = join(root, 'index.html')
  if (await isFile(index)) return sendFile(req, res, index, REVALIDATE)
  sendText(res, 404, `no index.html in ${root}: build the app first (npm run build)`)
}

/** The URL's path, percent-decoded; undefined for malformed escapes or NUL bytes. */
function decodedPathname(rawUrl: string): string | undefined {
  try {
    const pathname = decodeURIComponent(new URL(rawUrl, 'http://app').pathname)
    return pathname.includes('\0') ? undefined : pathname
  } catch {
    return undefined
  }
}

const isFile = (path: string): Promise<boolean> =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  )

async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  cacheControl: string,
): Promise<void> {
  const { size } = await stat(file)
  res.writeHead(200, {
    'content-type': contentTypeOf(file),
    'content-length': size,
    'cache-control': cacheControl,
    'x-content-type-options': 'nosniff',
  })
  if (req.method === 'HEAD') return void res.end()
  createReadStream(file)
    .on('error', (err) => res.destroy(err))
    .pipe(res)
}

function sendBody(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, {
    ...headers,
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
  })
  res.end(res.req.method === 'HEAD' ? undefined : body)
}

const sendText = (res: ServerResponse, status: number, text: string): void =>
  sendBody(
    res,
    status,
    { 'content-type': contentTypeOf('reply.txt'), 'cache-control': NO_STORE },
    text + '\n',
  )
