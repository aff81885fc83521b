// The routing rule apart from any chain: first claiming factory wins, answers are cached (a market
// never moves), an unclaimed or unanswered market is asked again next time, a pin skips the question.
import { describe, expect, it } from 'vitest'
import type { Address } from 'viem'
import { gatewayRouter, GatewayPinError, type ProxiesExist } from './gateway-routing.ts'
import type { DelphiGateway } from './networks.ts'

const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const DPM: DelphiGateway = { label: 'automated', kind: 'dpm', gateway: addr(0xa1), factory: addr(0xf1) }
const LMSR: DelphiGateway = { label: 'lmsr', kind: 'lmsr', gateway: addr(0xa2), factory: addr(0xf2) }

/** factories → the markets each deployed; records every question asked */
function chain(deployed: Record<Address, Address[]>, failing: Address[] = []) {
  const asked: { factory: Address; markets: readonly Address[] }[] = []
  const exists: ProxiesExist = async (factory, markets) => {
    asked.push({ factory, markets })
    if (failing.includes(factory)) return null
    return markets.map((m) => (deployed[factory] ?? []).includes(m))
  }
  return { exists, asked }
}

describe('gatewayRouter', () => {
  it('routes each market to the gateway whose factory deployed it, in one question per factory', async () => {
    const { exists, asked } = chain({ [DPM.factory]: [addr(1)], [LMSR.factory]: [addr(2)] })
    const router = gatewayRouter({ gateways: [DPM, LMSR], exists })
    expect(await router.route([addr(1), addr(2), addr(3), addr(1)])).toEqual([DPM, LMSR, null, DPM])
    expect(asked.map((a) => a.factory)).toEqual([DPM.factory, LMSR.factory])
    expect(asked[0]!.markets).toEqual([addr(1), addr(2), addr(3)])
  })

  it('caches claimed markets and asks again only about the others', async () => {
    const deployed: Record<Address, Address[]> = { [DPM.factory]: [addr(1)] }
    const { exists, asked } = chain(deployed)
    const router = gatewayRouter({ gateways: [DPM, LMSR], exists })
    await router.route([addr(1), addr(2)])
    deployed[LMSR.factory] = [addr(2)] // created since
    expect(await router.route([addr(1), addr(2)])).toEqual([DPM, LMSR])
    expect(asked.slice(2).map((a) => a.markets)).toEqual([[addr(2)], [addr(2)]])
  })

  it('does not cache what a failed factory call could not tell', async () => {
    const { exists } = chain({ [LMSR.factory]: [addr(2)] }, [DPM.factory])
    const router = gatewayRouter({ gateways: [DPM, LMSR], exists })
    expect(await router.route([addr(2), addr(1)])).toEqual([LMSR, null])
  })

  it('follows a pin without asking, and refuses a pin to an unknown gateway', async () => {
    const { exists, asked } = chain({ [DPM.factory]: [addr(1)] })
    const router = gatewayRouter({ gateways: [DPM, LMSR], pins: { [addr(1)]: LMSR.gateway }, exists })
    expect(await router.route([addr(1)])).toEqual([LMSR])
    expect(asked).toEqual([])
    expect(() => gatewayRouter({ gateways: [DPM], pins: { [addr(1)]: addr(0xee) }, exists })).toThrow(
      GatewayPinError,
    )
  })
})
