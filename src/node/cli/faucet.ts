// POST /faucet on the app server: gas for a new wallet on the local chain. The page used to call
// anvil_setBalance through /rpc itself; /rpc no longer forwards cheat codes (rpc-allowlist.ts), so the
// server tops the address up instead, within the quota of faucet-quota.ts.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createPublicClient, createTestClient, getAddress, http, isAddress, type Address } from 'viem'
import { LOCAL_FUNDED_BALANCE, LOCAL_MIN_BALANCE, type FaucetReply } from '../../host/wallet/local-funding.ts'
import { FaucetQuota, FAUCET_GRANTS_PER_HOUR, type FaucetRefusal } from './faucet-quota.ts'
import { readBody, requestProblem } from './request-guards.ts'

/** {"address": "0x…"} and some room for whitespace */
const MAX_FAUCET_REQUEST_BYTES = 1024

const BAD_REQUEST = 'POST /faucet takes {"address": "0x…"} with a 20-byte hex address'
const NO_FAUCET = 'This app server runs no local chain, so it has no faucet.'

type Reply = FaucetReply | { error: string }

function sendJson(
  res: ServerResponse,
  status: number,
  body: Reply,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  })
  res.end(text)
}

const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 19)

function refusalSentence(address: Address, refusal: FaucetRefusal): string {
  return refusal.reason === 'address'
    ? `The faucet already funded ${address} in the last hour; it funds it again at ${clock(refusal.retryAt)} UTC.`
    : `The faucet gave its ${FAUCET_GRANTS_PER_HOUR.toLocaleString('en')} grants of the last hour; it gives again at ${clock(refusal.retryAt)} UTC.`
}

function addressOf(body: string): Address | null {
  try {
    const { address } = JSON.parse(body) as { address?: unknown }
    return typeof address === 'string' && isAddress(address, { strict: false }) ? getAddress(address) : null
  } catch {
    return null
  }
}

/** The /faucet handler for the local chain at `rpcUrl` (anvil's own URL). */
export function createFaucet(
  rpcUrl: string,
  quota = new FaucetQuota(),
  now: () => number = Date.now,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const chain = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
  const reads = createPublicClient({ transport: http(rpcUrl) })
  return async (req, res) => {
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'POST /faucet only' }, { allow: 'POST' })
    const problem = requestProblem(req, '/faucet', 'application/json')
    if (problem) return sendJson(res, problem.status, { error: problem.message })
    const body = await readBody(req, MAX_FAUCET_REQUEST_BYTES)
    const address = body === undefined ? null : addressOf(body)
    if (!address) return sendJson(res, 400, { error: BAD_REQUEST })
    try {
      const balance = await reads.getBalance({ address })
      if (balance >= LOCAL_MIN_BALANCE)
        return sendJson(res, 200, { funded: false, balance: balance.toString() })
      const refusal = quota.refusal(address, now())
      if (refusal) {
        const retryAfter = String(Math.max(1, Math.ceil((refusal.retryAt - now()) / 1000)))
        return sendJson(res, 429, { error: refusalSentence(address, refusal) }, { 'retry-after': retryAfter })
      }
      await chain.setBalance({ address, value: LOCAL_FUNDED_BALANCE })
      quota.record(address, now())
      return sendJson(res, 200, { funded: true, balance: LOCAL_FUNDED_BALANCE.toString() })
    } catch (err) {
      return sendJson(res, 502, {
        error: `The local chain at ${rpcUrl} did not answer the faucet (${(err as Error).message.split('\n')[0]}).`,
      })
    }
  }
}

/** /faucet on an app server without a local chain. */
export async function noFaucet(_req: IncomingMessage, res: ServerResponse): Promise<void> {
  sendJson(res, 404, { error: NO_FAUCET })
}
