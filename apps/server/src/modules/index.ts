import type { ModuleRegistrar } from '../platform/context.js';

/** Every domain module's registrar, in registration order. Add one line per module. */
export const MODULES: readonly ModuleRegistrar[] = [];
