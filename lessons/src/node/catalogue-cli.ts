// Prints the validated lesson catalogue as JSON (src/catalogue.ts): the web lab's build reads it.
import { buildCatalogue } from './build-catalogue.ts';

process.stdout.write(JSON.stringify(buildCatalogue()));
