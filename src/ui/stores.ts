// The React binding of the tab's stores: the stores are vanilla zustand in src/host/stores, written by the
// tab's runtime without React; the views read them through these hooks (a selector, or the whole state).
import { useStore, type StoreApi } from 'zustand'
import { confirmStore } from '../host/stores/confirm-store.ts'
import { delphiSettingsStore } from '../host/stores/delphi-settings-store.ts'
import { learningStore } from '../host/stores/learning-store.ts'
import { marketsStore } from '../host/stores/markets-store.ts'
import { netStore } from '../host/stores/net-store.ts'
import { receivedReceiptsStore } from '../host/stores/received-receipts-store.ts'
import { settingsStore } from '../host/stores/settings-store.ts'
import { solverStore } from '../host/stores/solver-store.ts'
import { swarmStore } from '../host/stores/swarm-store.ts'
import { tradeHistoryStore } from '../host/stores/trade-history-store.ts'
import { walletStore, walletSettingsStore } from '../host/stores/wallet-store.ts'

function bind<S>(store: StoreApi<S>) {
  function useBound(): S
  function useBound<T>(selector: (state: S) => T): T
  function useBound<T>(selector?: (state: S) => T): S | T {
    return useStore(store, (selector ?? ((state: S) => state)) as (state: S) => S | T)
  }
  return useBound
}

export const useConfirmStore = bind(confirmStore)
export const useDelphiSettings = bind(delphiSettingsStore)
export const useLearningStore = bind(learningStore)
export const useMarketsStore = bind(marketsStore)
export const useNetStore = bind(netStore)
export const useReceivedReceiptsStore = bind(receivedReceiptsStore)
export const useSettingsStore = bind(settingsStore)
export const useSolverStore = bind(solverStore)
export const useSwarmStore = bind(swarmStore)
export const useTradeHistoryStore = bind(tradeHistoryStore)
export const useWalletStore = bind(walletStore)
export const useWalletSettings = bind(walletSettingsStore)
