import { describe, expect, it } from 'vitest';
import { eachVariantRotated, parseVariants } from './server-variants.ts';

describe('server variants of an A/B run', () => {
  const here = process.execPath; // a file that exists, standing for a server binary
  it('reads name=path pairs and says what is wrong with the rest', () => {
    expect(parseVariants(`a=${here},b=${here}`, 2)).toEqual([{ name: 'a', path: here }, { name: 'b', path: here }]);
    expect(() => parseVariants(`a=${here}`, 2)).toThrow('at least 2 name=path pairs');
    expect(() => parseVariants(undefined, 1)).toThrow('at least one name=path pair');
    expect(() => parseVariants(here, 1)).toThrow('name=path pairs separated by commas');
    expect(() => parseVariants('a=/no/such/server', 1)).toThrow('variant a: no server at /no/such/server');
  });

  it('rotates the order each repetition and points the launcher at each binary', async () => {
    const seen: string[] = [];
    const before = process.env.REPLICANT_SERVER_RUST;
    const variants = [{ name: 'a', path: '/a' }, { name: 'b', path: '/b' }, { name: 'c', path: '/c' }];
    await eachVariantRotated('rust', variants, 3, async (v, rep) => {
      seen.push(`${rep}${v.name}:${process.env.REPLICANT_SERVER_RUST}`);
    });
    // the other tests of this worker must find the launcher's default again
    if (before === undefined) delete process.env.REPLICANT_SERVER_RUST;
    else process.env.REPLICANT_SERVER_RUST = before;
    expect(seen).toEqual(['1a:/a', '1b:/b', '1c:/c', '2b:/b', '2c:/c', '2a:/a', '3c:/c', '3a:/a', '3b:/b']);
  });
});
