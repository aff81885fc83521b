import { describe, expect, it } from 'vitest'
import { loadDeployment } from './load-deployment.ts'

const answer = (status: number, body: unknown) =>
  (async () =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), { status })) as typeof fetch

const GOOD = {
  chainId: 31337,
  rpcUrl: '/rpc',
  coordinator: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  deployedAtBlock: 1,
  collateral: { address: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', symbol: 'USDC', decimals: 6 },
}

describe('loadDeployment', () => {
  it('parses the deployment', async () => {
    const r = await loadDeployment('/deployment.json', answer(200, GOOD))
    expect(r.note).toBeNull()
    expect(r.deployment?.coordinator).toBe('0x5FbDB2315678afecb367f032d93F642f64180aa3')
    expect(r.deployment?.collateral?.symbol).toBe('USDC')
  })

  it('reads a 404 as "no local chain"', async () => {
    const r = await loadDeployment('/deployment.json', answer(404, 'not found'))
    expect(r).toEqual({ deployment: null, note: expect.stringContaining('runs no local chain') })
  })

  it('names the bad field of a broken deployment', async () => {
    const r = await loadDeployment('/deployment.json', answer(200, { ...GOOD, coordinator: 'nope' }))
    expect(r.note).toMatch(/coordinator must be an address/)
    const notJson = await loadDeployment('/deployment.json', answer(200, '<html>'))
    expect(notJson.note).toMatch(/it is not JSON/)
  })

  it('says when the server cannot be reached', async () => {
    const down = (async () => {
      throw new TypeError('Failed to fetch')
    }) as typeof fetch
    expect((await loadDeployment('/deployment.json', down)).note).toMatch(
      /Could not fetch \/deployment.json \(Failed to fetch\)/,
    )
  })
})
