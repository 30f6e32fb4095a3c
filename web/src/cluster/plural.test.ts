import { describe, expect, it } from 'vitest';
import { plural } from './plural.ts';

describe('plural', () => {
  it('says one in the singular and every other count in the plural', () => {
    expect(plural(1, 'key')).toBe('1 key');
    expect(plural(0, 'key')).toBe('0 keys');
    expect(plural(3, 'key')).toBe('3 keys');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
  });
});
