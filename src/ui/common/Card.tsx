import type { HTMLAttributes, ReactNode } from 'react'

type CardProps = {
  title: ReactNode
  aside?: ReactNode
  testId?: string
  children: ReactNode
} & Omit<HTMLAttributes<HTMLElement>, 'title' | 'children'>

/** A dashboard panel with a heading; extra props (event handlers, aria) go to the <section>. */
export function Card({ title, aside, className, testId, children, ...rest }: CardProps) {
  return (
    <section {...rest} className={`card ${className ?? ''}`} data-testid={testId}>
      <header className="card-header">
        <h2>{title}</h2>
        {aside !== undefined && <div className="card-aside">{aside}</div>}
      </header>
      {children}
    </section>
  )
}
