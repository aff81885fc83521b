import { useEffect, useState } from 'react'

type CopyState = 'idle' | 'copied' | 'failed'

/** A small button that copies `text` to the clipboard and says so for a moment. */
export function CopyButton({
  text,
  label = 'Copy',
  testId,
}: {
  text: string
  label?: string
  testId?: string
}) {
  const [state, setState] = useState<CopyState>('idle')

  useEffect(() => {
    if (state === 'idle') return
    const timer = setTimeout(() => setState('idle'), 1500)
    return () => clearTimeout(timer)
  }, [state])

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setState('copied')
    } catch {
      setState('failed')
    }
  }

  return (
    <button
      type="button"
      className="btn btn-small"
      data-testid={testId}
      onClick={() => void copy()}
      title={
        state === 'failed' ? 'The browser refused clipboard access; select the text instead' : `Copy ${text}`
      }
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
    </button>
  )
}
