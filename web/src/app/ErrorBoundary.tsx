// If a view throws while drawing, the rest of the lab keeps working: the view is replaced by a
// message saying what broke, and the address (the state) is kept for a bug report.
import { Component, type ReactNode } from 'react';

export class ErrorBoundary extends Component<{ view: string; children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  componentDidUpdate(prev: { view: string }) {
    if (prev.view !== this.props.view && this.state.error) this.setState({ error: null });
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <section className="problems" role="alert" data-testid="view-crashed">
        <h2>The {this.props.view} view stopped</h2>
        <p>
          It met an error it could not handle: <code>{this.state.error.message}</code>. The other views still work. The address in
          the bar reproduces this screen; please include it when you report the problem.
        </p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </section>
    );
  }
}
