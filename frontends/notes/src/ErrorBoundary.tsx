import { Component } from 'react';
import type { ErrorInfo, ReactNode } from 'react';
import { log } from './log';

export interface ErrorBoundaryProps {
  /** Shown instead of the children once they failed. */
  fallback: ReactNode;
  /** Logged with the error. */
  message: string;
  children: ReactNode;
}

interface ErrorBoundaryState {
  failed: boolean;
}

/** A part whose code could not be loaded, or that crashed, fails alone. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    log.error(this.props.message, { error, componentStack: info.componentStack });
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
