import { formatRelativeTime } from '../../host/format.ts'
import { useNow } from '../use-now.ts'

/** "2 s ago", re-rendered every second on its own so its table does not have to be. */
export function RelativeTime({ at, testId }: { at: number | null; testId?: string }) {
  const now = useNow()
  const title = at ? new Date(at).toLocaleString() : undefined
  return (
    <time data-testid={testId} dateTime={at ? new Date(at).toISOString() : undefined} title={title}>
      {formatRelativeTime(at, now)}
    </time>
  )
}
