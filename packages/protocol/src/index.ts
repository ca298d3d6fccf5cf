export * from './permissions.js';
export * from './routes.js';
export * from './constants.js';
export * from './errors.js';
export * from './envelope.js';
export * from './validators.js';
export * from './i18n/index.js';
