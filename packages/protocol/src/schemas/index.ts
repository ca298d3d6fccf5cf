export * from './fields.js';
export * from './session.js';
export * from './admin.js';
