export * from './dto.js';
export * from './schemas.js';
export * from './agent.js';
export * from './visitor.js';
export * from './embed.js';
export * from './resume.js';
export * from './restart.js';
export * from './system-lines.js';
