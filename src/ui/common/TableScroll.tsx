import type { ReactNode } from 'react'

/**
 * A table that scrolls inside its card (sideways on a phone): a named region that takes keyboard focus,
 * so it can be scrolled without a mouse and a screen reader says what it holds.
 */
export function TableScroll({
  label,
  className,
  children,
}: {
  label: string
  className?: string
  children: ReactNode
}) {
  return (
    <div className={`table-scroll ${className ?? ''}`} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  )
}
