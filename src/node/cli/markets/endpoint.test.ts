import { describe, expect, it } from 'vitest'
import { resolveEndpoint } from './endpoint.ts'

const ADDR = '0x' + '11'.repeat(20)
const DOC = {
  chainId: 31337,
  rpcUrl: '/rpc',
  coordinator: ADDR,
  deployedAtBlock: 3,
  collateral: { address: ADDR, symbol: 'tUSD', decimals: 6 },
  markets: { dpmFactory: ADDR, dpmGateway: ADDR, lmsrFactory: ADDR, lmsrGateway: ADDR },
}

const serve =
  (status: number, body: unknown): typeof fetch =>
  async () =>
    new Response(JSON.stringify(body), { status })

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { code: string; message: string }) => e,
  )

describe('where the markets are', () => {
  it('resolves a served deployment’s relative RPC against its URL; --rpc wins', async () => {
    const url = 'http://127.0.0.1:5173/deployment.json'
    const e = await resolveEndpoint({ deployment: url }, {}, serve(200, DOC))
    expect(e).toMatchObject({ rpcUrl: 'http://127.0.0.1:5173/rpc', chainId: 31337, fromBlock: 3n })
    const viaEnv = await resolveEndpoint({ rpc: 'http://h:1' }, { TABSWARM_DEPLOYMENT: url }, serve(200, DOC))
    expect(viaEnv.rpcUrl).toBe('http://h:1')
  })

  it('says what is wrong with a deployment that cannot be used', async () => {
    const url = 'http://x/deployment.json'
    expect(await failure(resolveEndpoint({ deployment: url }, {}, serve(404, {})))).toMatchObject({
      code: 'deployment',
    })
    const noMarkets = { ...DOC, markets: undefined }
    expect(await failure(resolveEndpoint({ deployment: url }, {}, serve(200, noMarkets)))).toMatchObject({
      code: 'deployment',
      message: expect.stringContaining('has no markets'),
    })
    expect(await failure(resolveEndpoint({ deployment: '/nonexistent/d.json' }, {}))).toMatchObject({
      code: 'deployment',
    })
  })

  it('takes the RPC and all five addresses instead of a document, and names what is missing', async () => {
    const flags = {
      rpc: 'http://h:1',
      collateral: ADDR,
      'dpm-factory': ADDR,
      'dpm-gateway': ADDR,
      'lmsr-factory': ADDR,
      'lmsr-gateway': ADDR,
    }
    expect(await resolveEndpoint(flags, {})).toMatchObject({
      chainId: null,
      collateral: ADDR,
    })
    const missing: Record<string, string> = { ...flags }
    delete missing['lmsr-gateway']
    expect(await failure(resolveEndpoint(missing, {}))).toMatchObject({
      code: 'usage',
      message: expect.stringContaining('--lmsr-gateway'),
    })
    expect(await failure(resolveEndpoint({ ...flags, collateral: '0x12' }, {}))).toMatchObject({
      code: 'usage',
    })
  })
})
