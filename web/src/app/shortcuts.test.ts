// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { findShortcut, isTypingTarget, keyLabel, type Shortcut } from './shortcuts.ts';

const list: Shortcut[] = [
  { key: 'n', label: 'next', run: () => {} },
  { key: ' ', label: 'play', run: () => {} },
];
const ev = (key: string, target: EventTarget | null = document.body, mods = {}) => ({ key, ctrlKey: false, metaKey: false, altKey: false, target, ...mods });

describe('shortcuts', () => {
  it('finds a key, but not with a modifier or inside a text field', () => {
    expect(findShortcut(list, ev('n'))?.label).toBe('next');
    expect(findShortcut(list, ev('n', document.body, { ctrlKey: true }))).toBeNull();
    const input = document.createElement('input');
    expect(isTypingTarget(input)).toBe(true);
    expect(findShortcut(list, ev('n', input))).toBeNull();
    const box = document.createElement('input');
    box.type = 'checkbox';
    expect(isTypingTarget(box)).toBe(false);
  });
  it('names keys as people read them', () => {
    expect([' ', 'ArrowRight', 'Escape', 'p'].map(keyLabel)).toEqual(['Space', '→', 'Esc', 'p']);
  });
});
