// Delphi’s REST API (research/delphi.md §7): markets with their filters and pages, one market, and a
// wallet's positions. Every request carries `X-API-Key` (and `X-Delphi-Mode` on the competition) and
// every answer is checked against the documented shape before anyone reads it.
import type { Address } from 'viem'
import { requestJson } from './http-json.ts'
import type { DelphiNetwork } from './networks.ts'
import {
  parseDelphiMarket,
  parseDelphiPosition,
  parseList,
  type DelphiMarket,
  type DelphiPosition,
  type DelphiStatusWord,
} from './rest-shapes.ts'

/** The API's page size (its default `limit`). */
export const DELPHI_PAGE_SIZE = 50
/** A bound on paging so a misbehaving server cannot keep a command reading forever. */
export const DELPHI_MAX_PAGES = 40

export interface MarketFilters {
  status?: DelphiStatusWord
  category?: string
  orderBy?: 'liquidity' | 'created' | 'settles_at'
  verifiable?: boolean
  competitionId?: string
}

export interface DelphiRestOptions {
  network: Pick<DelphiNetwork, 'name' | 'restUrl' | 'mode'>
  apiKey: string | null
  fetcher?: typeof fetch
  /** how to give another key, for the bad-key sentence */
  keyHint?: string
}

export interface DelphiRest {
  listMarkets(filters?: MarketFilters, page?: { skip: number; limit: number }): Promise<DelphiMarket[]>
  /** every page of `listMarkets` */
  allMarkets(filters?: MarketFilters): Promise<DelphiMarket[]>
  market(id: Address): Promise<DelphiMarket>
  /** every position row of `wallet`, zero-share rows included (check `shares > 0n`) */
  positions(wallet: Address): Promise<DelphiPosition[]>
}

export function delphiRest({ network, apiKey, fetcher, keyHint }: DelphiRestOptions): DelphiRest {
  const service = `Delphi’s ${network.name} API`
  const headers: Record<string, string> = {
    ...(apiKey ? { 'X-API-Key': apiKey } : {}),
    ...(network.mode ? { 'X-Delphi-Mode': network.mode } : {}),
  }
  const get = (path: string, query: Record<string, string | number | boolean | undefined> = {}) => {
    const url = new URL(path, `${network.restUrl}/`)
    for (const [key, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(key, String(value))
    return requestJson({ url: url.href, service, headers, fetcher, keyHint })
  }

  async function paged<T>(read: (skip: number, limit: number) => Promise<T[]>): Promise<T[]> {
    const all: T[] = []
    for (let page = 0; page < DELPHI_MAX_PAGES; page++) {
      const rows = await read(page * DELPHI_PAGE_SIZE, DELPHI_PAGE_SIZE)
      all.push(...rows)
      if (rows.length < DELPHI_PAGE_SIZE) break
    }
    return all
  }

  const listMarkets: DelphiRest['listMarkets'] = async (filters = {}, page) =>
    parseList(await get('markets', { ...filters, ...page }), 'markets', parseDelphiMarket)

  return {
    listMarkets,
    allMarkets: (filters) => paged((skip, limit) => listMarkets(filters, { skip, limit })),
    market: async (id) => parseDelphiMarket(await get(`markets/${id}`)),
    positions: (wallet) =>
      paged(async (skip, limit) =>
        parseList(await get('positions', { wallet, skip, limit }), 'positions', parseDelphiPosition),
      ),
  }
}
