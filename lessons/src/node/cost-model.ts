// The cost model in Node for the lessons suite: the same Python package the Cost view runs, in
// Pyodide (cost-model/js/loader.mjs), asked the way the Cost view asks it. The inputs are the
// model's documented example (cost-model/examples/paper-ratio-8.json, whose values are the Cost
// view's defaults) with the Cost view's settings a lesson names ("cost.ratio": "1.25") applied.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPyodide } from 'pyodide';
import { ALL_FILES, installCostModel } from '@replicant/cost-model';
import { ENGINE_NAMES, languageOf, type EngineName } from '@replicant/engines/loader/catalogue';
import { readEstimate, type CostReading, type EstimateLike } from '../cost.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

type Inputs = { cluster: Record<string, unknown>; compare: Record<string, unknown> } & Record<string, unknown>;

const language = (engine: string) => {
  if (!(ENGINE_NAMES as readonly string[]).includes(engine)) throw new Error(`no engine ${engine}`);
  return languageOf(engine as EngineName);
};

/** The Cost view's URL fields a lesson sets, as the model's inputs. */
export function costInputs(settings: Record<string, string>): Inputs {
  const inputs = JSON.parse(readFileSync(join(REPO, 'cost-model/examples/paper-ratio-8.json'), 'utf8')) as Inputs;
  for (const [key, value] of Object.entries(settings)) {
    if (key === 'cost.wl') inputs.cluster.workload = value;
    else if (key === 'cost.ratio') inputs.cluster.memory_to_data_ratio = Number(value);
    else if (key === 'cost.vcpus') inputs.cluster.vcpus = Number(value);
    else if (key === 'cost.gc') inputs.compare.gc = language(value);
    else if (key === 'cost.nongc') inputs.compare.non_gc = language(value);
    else throw new Error(`the lessons suite cannot set ${key} on the cost model (add it to lessons/src/node/cost-model.ts)`);
  }
  return inputs;
}

export async function startCostModel(): Promise<(settings: Record<string, string>) => CostReading> {
  const indexURL = dirname(createRequire(import.meta.url).resolve('pyodide/package.json'));
  const pyodide = await loadPyodide({ indexURL });
  const files = Object.fromEntries((ALL_FILES as string[]).map((rel) => [rel, readFileSync(join(REPO, rel), 'utf8')]));
  const model = installCostModel(pyodide, files);
  return (settings) => {
    const inputs = costInputs(settings);
    return readEstimate(inputs, JSON.parse(model.run('estimate', inputs)) as EstimateLike);
  };
}
