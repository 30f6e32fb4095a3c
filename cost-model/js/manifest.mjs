// The files the cost model needs inside Pyodide, relative to the repository root. The
// browser fetches them (and the Node tests read them from disk) and hands their text to
// installCostModel(). A test checks this list against the files on disk.
export const PYTHON_FILES = [
  'cost-model/src/replicant_cost/__init__.py',
  'cost-model/src/replicant_cost/__main__.py',
  'cost-model/src/replicant_cost/api.py',
  'cost-model/src/replicant_cost/breakeven.py',
  'cost-model/src/replicant_cost/capacity.py',
  'cost-model/src/replicant_cost/catalogue.py',
  'cost-model/src/replicant_cost/cli.py',
  'cost-model/src/replicant_cost/cloud_cost.py',
  'cost-model/src/replicant_cost/defaults.py',
  'cost-model/src/replicant_cost/demand.py',
  'cost-model/src/replicant_cost/dev_cost.py',
  'cost-model/src/replicant_cost/errors.py',
  'cost-model/src/replicant_cost/estimate.py',
  'cost-model/src/replicant_cost/fig14.py',
  'cost-model/src/replicant_cost/inputs.py',
  'cost-model/src/replicant_cost/io.py',
  'cost-model/src/replicant_cost/options.py',
  'cost-model/src/replicant_cost/sensitivity.py',
];

// Data the default inputs read (other results files can be added to the map as well).
export const DATA_FILES = ['data/paper/paper-results.json', 'data/prices/ec2-prices-us-east-1.csv'];

export const ALL_FILES = [...PYTHON_FILES, ...DATA_FILES];
