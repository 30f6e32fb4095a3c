// Server variants for interleaved A/B runs of one engine's native server (server-ab.ts,
// load-memory.ts): `name=PATH` pairs from the command line, and the runs in an order rotated
// each repetition so that no variant always runs first, each with its binary in
// REPLICANT_SERVER_<ENGINE> (which the launcher reads as it spawns each server).
import { existsSync } from 'node:fs';
import type { EngineName } from '../loader/engine.ts';

export interface ServerVariant {
  name: string;
  path: string;
}

/** The variants of `--variants a=PATH,b=PATH…`; an Error says what is wrong with the text. */
export function parseVariants(text: string | undefined, atLeast: number): ServerVariant[] {
  const variants = (text ?? '').split(',').filter(Boolean).map((v) => {
    const at = v.indexOf('=');
    if (at <= 0) throw new Error(`--variants takes name=path pairs separated by commas, not ${JSON.stringify(v)}`);
    const path = v.slice(at + 1);
    if (!existsSync(path)) throw new Error(`variant ${v.slice(0, at)}: no server at ${path}`);
    return { name: v.slice(0, at), path };
  });
  if (variants.length < atLeast) throw new Error(`--variants needs at least ${atLeast === 1 ? 'one name=path pair' : `${atLeast} name=path pairs`}`);
  return variants;
}

/** Runs `run` for each repetition and variant, the order rotated each repetition. */
export async function eachVariantRotated(engine: EngineName, variants: ServerVariant[], repetitions: number, run: (v: ServerVariant, repetition: number) => Promise<void>): Promise<void> {
  const overrideVariable = `REPLICANT_SERVER_${engine.toUpperCase()}`;
  for (let repetition = 1; repetition <= repetitions; repetition++) {
    const shift = (repetition - 1) % variants.length;
    for (const v of [...variants.slice(shift), ...variants.slice(0, shift)]) {
      process.env[overrideVariable] = v.path;
      await run(v, repetition);
    }
  }
}
