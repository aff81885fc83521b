// The React side of the controls the tab's runtime installs (src/host/controls.ts, wallet-controls.ts):
// a view re-renders when they arrive, and renders its buttons disabled until then.
import { useSyncExternalStore } from 'react'
import { getAppControls, subscribeAppControls, type AppControls } from '../host/controls.ts'
import {
  getWalletControls,
  subscribeWalletControls,
  type WalletControls,
} from '../host/wallet/wallet-controls.ts'

/** The controls, or null until the tab has installed them (buttons render disabled meanwhile). */
export function useAppControls(): AppControls | null {
  return useSyncExternalStore(subscribeAppControls, getAppControls, getAppControls)
}

/** The wallet controls, or null until the wallet has started. */
export function useWalletControls(): WalletControls | null {
  return useSyncExternalStore(subscribeWalletControls, getWalletControls, getWalletControls)
}
