// The demo's stepping rule, checked against a real engine would need wasm in jsdom; here we
// check the component renders its frame and reports an engine that fails to load.
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';

vi.mock('./engines.ts', () => ({
  loadBrowserEngine: () => Promise.reject(new Error('no wasm in this test environment')),
}));

describe('ElectionDemo', () => {
  it('tells the user when the engines cannot start', async () => {
    const { ElectionDemo } = await import('./ElectionDemo.tsx');
    render(<ElectionDemo />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Replicant Lab');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('no wasm in this test environment'));
  });
});
