// Every lesson folder in the repository, validated at build time by the same validator
// `npm test` runs (vite-plugins/lessons.ts): a broken lesson is listed with its error; the
// others still load. Only the paper rows the lessons cite come along.
import catalogueJson from 'virtual:replicant-lessons';
import { catalogueFromJson } from '@replicant/lessons/runtime';

const catalogue = catalogueFromJson(catalogueJson);

export const PAPER = catalogue.paper;
export const CATALOGUE = { lessons: catalogue.lessons, errors: catalogue.errors };
