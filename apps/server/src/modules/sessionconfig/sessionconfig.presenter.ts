import type { SessionConfigDto } from '@kefu/protocol';
import type { SessionConfig } from '../conversation/session-config.js';

export function presentSessionConfig(
  orgi: string,
  cfg: SessionConfig,
  updatetime: number | null,
): SessionConfigDto {
  return {
    ...cfg,
    id: orgi,
    prompttoneState: cfg.prompttone ? 1 : 0,
    updatetime,
  };
}
