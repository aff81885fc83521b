// Which network's markets the view shows: the local chain or one of Delphi's networks. The choice is
// kept with the Delphi settings (the API key and URLs are in Settings → Delphi).
import { delphiSettingsStore, type MarketSourceId } from '../../host/stores/delphi-settings-store.ts'
import { MARKET_SOURCES } from '../../host/markets/market-source.ts'
import { useDelphiSettings } from '../stores.ts'

export function MarketSourcePicker() {
  const source = useDelphiSettings((s) => s.source)
  return (
    <label className="mk-source">
      <span className="muted">Network</span>
      <select
        className="select"
        value={source}
        data-testid="markets-network"
        aria-label="Markets network"
        onChange={(e) => delphiSettingsStore.setState({ source: e.target.value as MarketSourceId })}
      >
        {MARKET_SOURCES.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label}
          </option>
        ))}
      </select>
    </label>
  )
}
