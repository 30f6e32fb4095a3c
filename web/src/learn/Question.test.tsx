// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Question } from './Question.tsx';

const ctx = { world: null };

afterEach(cleanup);

describe('Question', () => {
  it('says right or not, and why, for a chosen option', () => {
    let rights = 0;
    render(
      <Question
        question={{ kind: 'choice', prompt: 'Who leads?', options: [{ text: 'n0', correct: false, why: 'n0 lost the election.' }, { text: 'n1', correct: true, why: 'n1 won it.' }] }}
        ctx={ctx}
        answer={null}
        onRight={() => rights++}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'n0' }));
    expect(screen.getByTestId('answer-explanation').textContent).toBe('Not quite. n0 lost the election.');
    expect(screen.getByTestId('answer-explanation').dataset.correct).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'n1' }));
    expect(screen.getByTestId('answer-explanation').textContent).toBe('Right. n1 won it.');
    expect(rights).toBe(1);
  });

  it('says right or not, and why, for a typed number, within its tolerance', () => {
    let rights = 0;
    render(
      <Question
        question={{ kind: 'number', prompt: 'How many?', answer: 3, tolerance: 0.5, unit: 'nodes', why_right: 'Three nodes.', why_wrong: 'Count again.' }}
        ctx={ctx}
        answer={3}
        onRight={() => rights++}
      />,
    );
    const input = screen.getByTestId('answer-number');
    fireEvent.change(input, { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('answer-check'));
    expect(screen.getByTestId('answer-explanation').textContent).toBe('Not quite. Count again. (The answer is 3 nodes.)');
    fireEvent.change(input, { target: { value: '3.4' } });
    fireEvent.click(screen.getByTestId('answer-check'));
    expect(screen.getByTestId('answer-explanation').textContent).toBe('Right. Three nodes.');
    expect(screen.getByTestId('answer-explanation').dataset.correct).toBe('true');
    expect(rights).toBe(1);
  });
});
