// The app server's POST /faucet on a real anvil: a new address gets gas up to 100 ETH, a funded one is
// left alone, a second grant within the hour is refused with a sentence that says when, requests that
// are not one address as JSON from the app's own pages are refused, and there is no faucet without a
// local chain. And the page's side: fundOnLocalChain asks it, on the local chain only.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, createTestClient, http, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAUCET_PATH, LOCAL_FUNDED_BALANCE, fundOnLocalChain } from '../../host/wallet/local-funding.ts'
import { startAnvil, type Anvil } from './anvil.ts'
import { startAppServer, type AppServer } from './app-server.ts'
import { TEST_SWARM_CONFIG } from './test-swarm-config.ts'

// Fixed ports for this file only (19226–19228), so parallel test files never collide.
const ANVIL_PORT = 19226
const APP_PORT = 19227
const OTHER_APP_PORT = 19228

const config = TEST_SWARM_CONFIG

let dir: string
let anvil: Anvil
let app: AppServer

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faucet-'))
  anvil = await startAnvil({ port: ANVIL_PORT })
  const deployment = { rpcUrl: anvil.rpcUrl, chainId: anvil.chainId }
  app = await startAppServer({ root: dir, port: APP_PORT, swarmConfig: config, deployment })
}, 30_000)

afterAll(async () => {
  await app?.close()
  await anvil?.stop()
  await rm(dir, { recursive: true, force: true })
})

const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address
const balanceOf = (address: Address) =>
  createPublicClient({ transport: http(anvil.rpcUrl) }).getBalance({ address })

const faucet = (body: unknown, headers: Record<string, string> = {}, url = `${app.url}faucet`) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

describe('POST /faucet', () => {
  it('tops a new address up to 100 ETH, and leaves one with enough alone', async () => {
    const address = fresh()
    const res = await faucet({ address }, { origin: app.url.slice(0, -1) })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ funded: true, balance: LOCAL_FUNDED_BALANCE.toString() })
    expect(await balanceOf(address)).toBe(LOCAL_FUNDED_BALANCE)
    const again = await faucet({ address })
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual({ funded: false, balance: LOCAL_FUNDED_BALANCE.toString() })
  })

  it('refuses a second grant to one address within the hour, saying when it gives again', async () => {
    const address = fresh()
    expect((await faucet({ address })).status).toBe(200)
    // it spent its gas (or sent it away): the faucet does not refill it at once
    await createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }).setBalance({
      address,
      value: 0n,
    })
    const res = await faucet({ address })
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3_500)
    const { error } = (await res.json()) as { error: string }
    expect(error).toMatch(
      new RegExp(
        `^The faucet already funded ${address} in the last hour; it funds it again at \\d\\d:\\d\\d:\\d\\d UTC\\.$`,
      ),
    )
    expect(await balanceOf(address)).toBe(0n)
  })

  it('refuses what is not one address sent as JSON from the app itself', async () => {
    const address = fresh()
    const cases: [unknown, Record<string, string>, number, string][] = [
      [{ address: '0x123' }, {}, 400, 'POST /faucet takes {"address": "0x…"} with a 20-byte hex address'],
      ['{not json', {}, 400, 'POST /faucet takes {"address": "0x…"} with a 20-byte hex address'],
      [{ address }, { 'content-type': 'text/plain' }, 415, '/faucet takes application/json, not text/plain'],
      [
        { address },
        { origin: 'http://evil.example' },
        403,
        "/faucet answers the app's own pages only, not a page from http://evil.example",
      ],
    ]
    for (const [body, headers, status, message] of cases) {
      const res = await faucet(body, headers)
      expect(res.status, message).toBe(status)
      expect(await res.json()).toEqual({ error: message })
    }
    expect(await balanceOf(address)).toBe(0n)
    expect((await fetch(`${app.url}faucet`)).status).toBe(405)
  })

  it('is not there when the app server runs no local chain', async () => {
    const address = fresh()
    const remote = { rpcUrl: anvil.rpcUrl, chainId: 685685 }
    for (const deployment of [remote, undefined]) {
      const other = await startAppServer({ root: dir, port: OTHER_APP_PORT, swarmConfig: config, deployment })
      try {
        const res = await faucet({ address }, {}, `${other.url}faucet`)
        expect(res.status).toBe(404)
        expect(await res.json()).toEqual({
          error: 'This app server runs no local chain, so it has no faucet.',
        })
      } finally {
        await other.close()
      }
    }
    expect(await balanceOf(address)).toBe(0n)
  })
})

describe('fundOnLocalChain', () => {
  it('tops a new burner up once through the faucet, and never on another chain', async () => {
    const url = new URL(FAUCET_PATH, app.url).href
    const address = fresh()
    expect(await fundOnLocalChain(31337, address, url)).toBe(true)
    expect(await balanceOf(address)).toBe(LOCAL_FUNDED_BALANCE)
    expect(await fundOnLocalChain(31337, address, url)).toBe(false)
    const remote = fresh()
    expect(await fundOnLocalChain(685685, remote, url)).toBe(false)
    expect(await balanceOf(remote)).toBe(0n)
  })

  it("throws the faucet's own sentence when it refuses", async () => {
    const address = fresh()
    const url = new URL(FAUCET_PATH, app.url).href
    expect(await fundOnLocalChain(31337, address, url)).toBe(true)
    await createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }).setBalance({
      address,
      value: 0n,
    })
    await expect(fundOnLocalChain(31337, address, url)).rejects.toThrow(
      `The faucet already funded ${address} in the last hour`,
    )
  })
})
