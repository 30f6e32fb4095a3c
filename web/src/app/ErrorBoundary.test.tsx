// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ErrorBoundary } from './ErrorBoundary.tsx';

function Broken(): never {
  throw new Error('inspect view was not JSON');
}

describe('ErrorBoundary', () => {
  it('replaces a view that throws with a message naming the error', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <ErrorBoundary view="cluster">
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain('The cluster view stopped');
    expect(screen.getByRole('alert').textContent).toContain('inspect view was not JSON');
    quiet.mockRestore();
  });
});
