import type { AgentUserDto } from '../agent/agent.presenter.js';

export interface TokenInfoDto {
  title: string;
  favlogo: string;
}

export interface LoginDto {
  token: string;
  user: AgentUserDto;
}

/** The default title means "online customer service" (spec section 1). */
export const presentTokenInfo = (org: TokenInfoDto | undefined): TokenInfoDto => ({
  title: org?.title || '在线客服',
  favlogo: org?.favlogo ?? '',
});
