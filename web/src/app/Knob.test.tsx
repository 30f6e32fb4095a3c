// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Knob } from './Knob.tsx';
import { COST_FIELDS } from '../cost/cost-fields.ts';
import { LAB_FIELDS } from '../lab/lab-fields.ts';

function Harness<T>({ field, initial, seen }: { field: Parameters<typeof Knob<T>>[0]['field']; initial: T; seen: T[] }) {
  const [v, setV] = useState(initial);
  return (
    <Knob
      name="x"
      field={field}
      value={v}
      onChange={(next) => {
        seen.push(next);
        setV(next);
      }}
    />
  );
}

describe('Knob', () => {
  it('passes on values the field reads and marks the rest with the field’s own sentence', () => {
    const seen: number[] = [];
    render(<Harness field={COST_FIELDS.team} initial={2} seen={seen} />);
    const input = screen.getByRole('textbox');
    fireEvent.change(input, { target: { value: '5' } });
    fireEvent.change(input, { target: { value: '-1' } });
    expect(seen).toEqual([5]);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Team size must be a number from 0 to 10000');
    expect((input as HTMLInputElement).value).toBe('-1'); // the typed text stays for fixing
    fireEvent.change(input, { target: { value: '3' } });
    expect(seen).toEqual([5, 3]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('draws a several-of field as checkboxes and refuses to leave none', () => {
    const seen: string[][] = [];
    render(<Harness field={LAB_FIELDS.engines} initial={['go'] as ('cpp' | 'rust' | 'go' | 'java')[]} seen={seen} />);
    fireEvent.click(screen.getByLabelText('Java'));
    expect(seen).toEqual([['java', 'go']]);
    fireEvent.click(screen.getByLabelText('Go'));
    fireEvent.click(screen.getByLabelText('Java'));
    expect(seen.at(-1)).toEqual(['java']);
    expect(screen.getByRole('alert').textContent).toContain('Engines must list one or more');
  });
});
