"""replicant_cost: cloud and development cost of a replicated service, per language.

Capacities come from results files in data/ (the paper's stated numbers by default);
prices from data/prices. Pure Python, so the same code runs natively and in Pyodide.
"""

__version__ = "0.1.0"
MODEL_CARD_VERSION = "0.1.0"
