export * from './config.ts';
export * from './core.ts';
export * from './drivers.ts';
