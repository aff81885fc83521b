// The REST client against a fake fetch: the headers each network sends, paging to the end, and each
// failure as its own error type.
import { describe, expect, it } from 'vitest'
import { DelphiApiKeyError, DelphiOfflineError, DelphiResponseError } from './errors.ts'
import { delphiNetwork } from './networks.ts'
import { DELPHI_PAGE_SIZE, delphiRest } from './rest-client.ts'

const market = (n: number) => ({
  id: `0x${n.toString(16).padStart(40, '0')}`,
  appMarketId: `m-${n}`,
  status: 'open',
  category: 'crypto',
  metadata: { question: `Q${n}?`, outcomes: ['Yes', 'No'] },
  createdAt: '2026-11-01T00:00:00Z',
  resolvesAt: null,
  settlesAt: null,
  settledAt: null,
  winningOutcomeIdx: null,
  tradingFee: '10000000000000000',
  proof: null,
  error: null,
  verifiable: false,
})

/** A fetch answering from `respond`, recording every request. */
function fake(respond: (url: URL) => Response | Promise<Response>) {
  const requests: { url: URL; headers: Record<string, string> }[] = []
  const fetcher = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input))
    requests.push({ url, headers: init?.headers as Record<string, string> })
    return respond(url)
  }) as typeof fetch
  return { fetcher, requests }
}
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status })

describe('delphiRest', () => {
  it('sends the key, the competition mode header, and pages until a short page', async () => {
    const all = Array.from({ length: DELPHI_PAGE_SIZE + 3 }, (_, i) => market(i + 1))
    const { fetcher, requests } = fake((url) => {
      const skip = Number(url.searchParams.get('skip'))
      return json({ markets: all.slice(skip, skip + Number(url.searchParams.get('limit'))) })
    })
    const network = delphiNetwork('competition-testnet', { restUrl: 'http://stand-in/api/' })
    const markets = await delphiRest({ network, apiKey: 'k', fetcher }).allMarkets({ status: 'open' })
    expect(markets).toHaveLength(DELPHI_PAGE_SIZE + 3)
    expect(requests.map((r) => r.url.searchParams.get('skip'))).toEqual(['0', String(DELPHI_PAGE_SIZE)])
    expect(requests[0]!.url.pathname).toBe('/api/markets')
    expect(requests[0]!.url.searchParams.get('status')).toBe('open')
    expect(requests[0]!.headers).toMatchObject({ 'X-API-Key': 'k', 'X-Delphi-Mode': 'competition' })
    const testnet = delphiNetwork('testnet', { restUrl: 'http://stand-in' })
    const one = fake(() => json(market(7)))
    await delphiRest({ network: testnet, apiKey: 'k', fetcher: one.fetcher }).market(
      market(7).id as `0x${string}`,
    )
    expect(one.requests[0]!.headers['X-Delphi-Mode']).toBeUndefined()
  })

  it('tells a refused key, an unreachable host and an HTTP error apart', async () => {
    const network = delphiNetwork('testnet', { restUrl: 'http://stand-in' })
    const rest = (respond: () => Response | Promise<Response>) =>
      delphiRest({ network, apiKey: 'k', fetcher: fake(respond).fetcher, keyHint: 'pass --api-key' })
    await expect(rest(() => json({}, 401)).allMarkets()).rejects.toThrow(DelphiApiKeyError)
    await expect(rest(() => json({}, 403)).allMarkets()).rejects.toThrow(
      /refused the API key \(HTTP 403\).*pass --api-key/,
    )
    const refused = () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))
    await expect(rest(refused).allMarkets()).rejects.toThrow(DelphiOfflineError)
    await expect(rest(refused).allMarkets()).rejects.toThrow(/cannot be reached \(ECONNREFUSED\)/)
    await expect(rest(() => json({}, 500)).allMarkets()).rejects.toThrow(DelphiResponseError)
    await expect(rest(() => new Response('<html>', { status: 200 })).allMarkets()).rejects.toThrow(/not JSON/)
  })
})
