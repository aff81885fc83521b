// Which gateway serves a market (research/delphi.md §7): each gateway only trades the proxies its own
// factory deployed and reverts `MarketProxyNotDeployedByFactory` on the others', so a client asks every
// factory `marketProxiesExist` and routes a market to the first that claims it. A market never moves,
// so answers are cached; a pin (config) overrides the question. The factory call is injected: this
// module is the routing rule alone.
import { getAddress, type Address } from 'viem'
import type { DelphiGateway } from './networks.ts'

/** `marketProxiesExist(markets)` on `factory`; null when the call failed (nothing is cached then). */
export type ProxiesExist = (
  factory: Address,
  markets: readonly Address[],
) => Promise<readonly boolean[] | null>

export interface GatewayRouter {
  /** the gateway of each market, null for a market no factory claims (now) */
  route(markets: readonly Address[]): Promise<(DelphiGateway | null)[]>
}

export class GatewayPinError extends Error {
  override name = 'GatewayPinError'
}

export function gatewayRouter(options: {
  gateways: readonly DelphiGateway[]
  /** market → gateway address, bypassing the factories */
  pins?: Readonly<Record<string, Address>>
  exists: ProxiesExist
}): GatewayRouter {
  const { gateways, exists } = options
  const cache = new Map<Address, DelphiGateway>()
  for (const [market, gatewayAddress] of Object.entries(options.pins ?? {})) {
    const pinned = gateways.find((g) => getAddress(g.gateway) === getAddress(gatewayAddress))
    if (!pinned)
      throw new GatewayPinError(
        `Market ${market} is pinned to ${gatewayAddress}, which is none of this network’s gateways (${gateways.map((g) => `${g.label} ${g.gateway}`).join(', ')}).`,
      )
    cache.set(getAddress(market), pinned)
  }

  return {
    async route(markets) {
      const wanted = markets.map((m) => getAddress(m))
      const unknown = [...new Set(wanted.filter((m) => !cache.has(m)))]
      if (unknown.length > 0) {
        const answers = await Promise.all(gateways.map((g) => exists(g.factory, unknown)))
        unknown.forEach((market, i) => {
          const owner = gateways.find((_, g) => answers[g]?.[i] === true)
          if (owner) cache.set(market, owner)
        })
      }
      return wanted.map((m) => cache.get(m) ?? null)
    },
  }
}
