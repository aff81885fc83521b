// One view's error boundary: a view that throws while rendering shows what broke and a way back, while
// the header, the other views and the swarm (which runs outside React) go on. Keyed by view, so moving
// to another view and back tries again.
import { Component, type ErrorInfo, type ReactNode } from 'react'

interface Props {
  /** the view's name, as the nav shows it */
  name: string
  children: ReactNode
}

interface State {
  error: Error | null
}

export class ViewBoundary extends Component<Props, State> {
  override state: State = { error: null }

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`tabswarm: the ${this.props.name} view crashed`, error, info.componentStack)
  }

  override render(): ReactNode {
    const { error } = this.state
    if (!error) return this.props.children
    return (
      <section className="card view-crash" role="alert">
        <header className="card-header">
          <h2>The {this.props.name} view stopped</h2>
        </header>
        <p>
          It hit an error it could not show: <code>{error.message}</code>. The swarm, your identity and the
          other views keep running.
        </p>
        <button type="button" className="btn" onClick={() => this.setState({ error: null })}>
          Show the {this.props.name} view again
        </button>
      </section>
    )
  }
}
