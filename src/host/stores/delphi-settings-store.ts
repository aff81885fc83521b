// Where the Markets view reads its markets and how it reaches Delphi's networks: the network picked
// (the local chain or one of Delphi's), the API key (one key for Delphi's REST API, sent as X-API-Key)
// and per-network replacements of the REST and subgraph base URLs. Persisted in localStorage like
// the wallet settings; the RPC URL of each chain stays in the wallet settings (rpcOverrides).
import { createStore } from 'zustand/vanilla'
import { createJSONStorage, persist } from 'zustand/middleware'
import type { DelphiNetworkName } from '../delphi/networks.ts'

/** The markets the view follows: the stack's own deployment, or one of Delphi's networks. */
export type MarketSourceId = 'local' | DelphiNetworkName

export interface DelphiSettings {
  source: MarketSourceId
  /** '' until the user enters one */
  apiKey: string
  /** REST API base URL per network, replacing the default */
  restUrls: Partial<Record<DelphiNetworkName, string>>
  /** subgraph URL per network, replacing the default */
  subgraphUrls: Partial<Record<DelphiNetworkName, string>>
}

export const DEFAULT_DELPHI_SETTINGS: DelphiSettings = {
  source: 'local',
  apiKey: '',
  restUrls: {},
  subgraphUrls: {},
}

export const delphiSettingsStore = createStore<DelphiSettings>()(
  persist(() => ({ ...DEFAULT_DELPHI_SETTINGS }), {
    name: 'tabswarm:delphi-settings',
    version: 1,
    storage: createJSONStorage(() => localStorage),
  }),
)
