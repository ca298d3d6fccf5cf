export * from './fields.js';
export * from './session.js';
export * from './admin.js';
export * from './channel.js';
export * from './setup.js';
export * from './contacts.js';
export * from './tags.js';
