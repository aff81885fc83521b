// Hash routing: "#/swarm", "#/settings", … The route is the first path segment after "#/".
import { useSyncExternalStore } from 'react'

/** The route id in `hash` if it is one of `known`, else `fallback`. */
export function parseRoute(hash: string, known: readonly string[], fallback: string): string {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? ''
  return known.includes(id) ? id : fallback
}

export const routeHref = (id: string): string => `#/${id}`

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener)
  return () => window.removeEventListener('hashchange', listener)
}

const getHash = () => window.location.hash
const getServerHash = () => ''

/** The current route id, re-rendering on hashchange. */
export function useHashRoute(known: readonly string[], fallback: string): string {
  const hash = useSyncExternalStore(subscribe, getHash, getServerHash)
  return parseRoute(hash, known, fallback)
}
